package io.mapsketch.frequency;

import io.mapsketch.internal.KeyHasher;
import io.mapsketch.internal.OwnedScratch;
import io.mapsketch.internal.Utf8;
import io.mapsketch.memory.LiveCounters;
import io.mapsketch.memory.SketchRegion;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.Objects;

/**
 * The Count-Min mechanics shared by {@link CountMinSketch} and {@link TopK} (a Count-Min sketch
 * that also keeps its heaviest keys): "how often does X occur?" in {@code d} rows of {@code w} unsigned counters,
 * sized from the question's terms: {@code w = ceil(e / epsilon)}, {@code d = ceil(ln(1 / delta))}.
 * Epsilon 0.001 and delta 0.01 give 2,719 x 5 = 13,595 counters, 54,400 bytes with 32-bit counters
 * (each row padded to a 64-byte line). The key's 64-bit hash picks one counter per row with a mix of its
 * own per row, so rows collide close to independently (files written before format version 4 keep their
 * double hashing); the layout is drawn in {@code docs/file-format.md}.
 *
 * <p>Error direction: overcount only. {@link #estimate(long)} is the minimum of the key's d
 * counters: never below the true count of the key (unless {@link #isSaturated(long) saturated}),
 * and above it by at most {@link #errorBound()} = {@code ceil(epsilon N)} with probability at
 * least {@code 1 - delta}, where N = {@link #totalWeight()} is the sum of all counts added.
 *
 * <p>Counters are unsigned 32-bit or 64-bit integers, chosen at creation. They saturate, never
 * wrap: a counter that would pass the largest value ({@code 2^32 - 1}, or {@code 2^64 - 1}) stays
 * there. Estimates are returned as a {@code long}, at most {@link #maxEstimate()} ({@code 2^32 - 1},
 * or {@code 2^63 - 1}); an estimate at that value is saturated, the one case in which it may be
 * below the truth, and {@link #isSaturated(long)} says so. N itself never wraps: an add that would take
 * it past {@code 2^63 - 2^55 - 1} is refused before it changes anything.
 *
 * <p>Conservative update (a builder option) raises only the counters below {@code estimate + count},
 * to that value, instead of adding to all d: estimates are never below the truth and overestimate
 * less, often much less on skewed streams. What it gives up: sketches no longer add up exactly
 * (the sketch of two streams is not the sum of their sketches), so a merge of conservative sketches
 * is still never below the truth but is bounded only by the plain sketch's {@code ceil(epsilon N)};
 * and concurrent conservative updates are not bit-identical to a sequential run.
 *
 * <p>Concurrency: in {@code SHARED} mode a plain update adds to each counter with a saturating
 * compare-and-set, so any number of threads and processes adding at once leave the counters
 * exactly as sequential adds would. A conservative update in {@code SHARED} mode raises the d counters
 * it read by compare-and-set and starts again if any changed in between: no concurrent update of the
 * same key is lost and estimates are never below the truth, but restarted passes can leave counters
 * higher than a sequential run would ({@code docs/design/frequency.md} has the argument). The
 * {@code EXCLUSIVE} writer updates with plain loads and stores, and merges with the SIMD saturating-sum
 * kernel. Readers may estimate while writers add: each counter is read once, at some value it held
 * during the call.
 *
 * <p>Cost: an add or estimate is one hash, a 64-bit mix per row and d counter accesses, one cache
 * miss per row on a large sketch; a {@code SHARED} add is d compare-and-sets. Batch adds of
 * {@code long} keys hash with the SIMD kernel. A merge is one pass over both payloads.
 */
// The mechanics every sketch shares sit in the unexported package; their public methods are this type's.
@SuppressWarnings("exports")
public abstract sealed class FrequencySketch extends FrequencyReads permits CountMinSketch, TopK {

    /** The largest depth: {@code ceil(ln(1 / delta))} for the smallest positive double delta. */
    public static final int MAX_DEPTH = 745;

    private final CountMinUpdates updates;

    FrequencySketch(SketchRegion region, CountMinFormat shape) {
        super(region, shape);
        this.updates = new CountMinUpdates(counters, rows, estimates, shape, sharedWriters);
    }

    // ---------------------------------------------------------------- adds

    /**
     * Adds one occurrence of a key, as its {@linkplain io.mapsketch##keys bytes} ({@code count} 1).
     *
     * @param key the key
     * @return the key's estimate right after this add, as seen by this writer (see {@link #add(long, long)})
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public long add(long key) {
        // Not add(key, 1): a method compiled on its own past the JIT's inlining size is then called, not
        // inlined, from a caller's loop; this way the chain to the row loop has one link fewer.
        long hash = hasher.hash(key);
        long estimate = addCounted(hash, 1);
        offer(hash, estimate, key);
        return estimate;
    }

    /**
     * Adds {@code count} occurrences of a key. Cost: one hash and d counter updates (d
     * compare-and-sets in {@code SHARED} mode) and one update of the live total N.
     *
     * @param key the key
     * @param count occurrences, in [1, 2^63 - 1]
     * @return the key's estimate right after this add as this writer's updates left it: at least
     *     the truth (unless saturated); concurrent adds may since have raised it
     * @throws IllegalArgumentException if {@code count} is out of range or would take N past 2^63 - 2^55 - 1
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public long add(long key, long count) {
        long hash = hasher.hash(key);
        long estimate = addCounted(hash, count);
        offer(hash, estimate, key);
        return estimate;
    }

    /**
     * Adds one occurrence of the key of the bytes {@code key[offset, offset + length)}; as {@link #add(long)}.
     *
     * @param key the array
     * @param offset first byte
     * @param length number of bytes
     * @return the key's estimate right after this add
     * @throws IndexOutOfBoundsException if the range is outside the array
     * @throws IllegalArgumentException if the key is longer than a Top-K sketch stores
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public long add(byte[] key, int offset, int length) {
        return add(key, offset, length, 1);
    }

    /**
     * Adds {@code count} occurrences of the key of the bytes {@code key[offset, offset + length)}; as
     * {@link #add(long, long)}.
     *
     * @param key the array
     * @param offset first byte
     * @param length number of bytes
     * @param count occurrences, in [1, 2^63 - 1]
     * @return the key's estimate right after this add
     * @throws IllegalArgumentException if {@code count} is out of range, or the key is longer than a Top-K sketch stores
     * @throws IndexOutOfBoundsException if the range is outside the array
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public long add(byte[] key, int offset, int length, long count) {
        return addBytes(MemorySegment.ofArray(key), offset, length, count);
    }

    /**
     * Adds one occurrence of the key of a string's UTF-8 bytes; as {@link #add(long)}.
     *
     * @param key the characters
     * @return the key's estimate right after this add
     * @throws IllegalArgumentException if the key is longer than a Top-K sketch stores
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public long add(CharSequence key) {
        return add(key, 1);
    }

    /**
     * Adds {@code count} occurrences of the key of a string's UTF-8 bytes; as {@link #add(long, long)}.
     *
     * @param key the characters
     * @param count occurrences, in [1, 2^63 - 1]
     * @return the key's estimate right after this add
     * @throws IllegalArgumentException if {@code count} is out of range, or the key is longer than a Top-K sketch stores
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public long add(CharSequence key, long count) {
        // Small enough to be inlined into a caller's loop whatever was compiled before (see KeyHasher.hash).
        OwnedScratch.Lease<KeyHasher.Utf8Buffer> buffer = hasher.borrowUtf8Buffer();
        long estimate = addUtf8(key, buffer.piece(), count);
        hasher.giveBackUtf8Buffer(buffer);
        return estimate;
    }

    private long addUtf8(CharSequence key, KeyHasher.Utf8Buffer buffer, long count) {
        byte[] utf8 = buffer.forChars(key.length());
        return addBytes(MemorySegment.ofArray(utf8), 0, Utf8.encode(key, utf8), count);
    }

    /**
     * Adds one occurrence of the key of the bytes of a segment slice; as {@link #add(long)}.
     *
     * @param key the segment
     * @param offset first byte
     * @param length number of bytes
     * @return the key's estimate right after this add
     * @throws IndexOutOfBoundsException if the range is outside the segment
     * @throws IllegalArgumentException if the key is longer than a Top-K sketch stores
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public long add(MemorySegment key, long offset, long length) {
        return add(key, offset, length, 1);
    }

    /**
     * Adds {@code count} occurrences of the key of the bytes of a segment slice; as {@link #add(long, long)}.
     *
     * @param key the segment
     * @param offset first byte
     * @param length number of bytes
     * @param count occurrences, in [1, 2^63 - 1]
     * @return the key's estimate right after this add
     * @throws IllegalArgumentException if {@code count} is out of range, or the key is longer than a Top-K sketch stores
     * @throws IndexOutOfBoundsException if the range is outside the segment
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public long add(MemorySegment key, long offset, long length, long count) {
        return addBytes(key, offset, length, count);
    }

    /**
     * Adds one occurrence of every key of an array, as {@link #add(long)} would one by one; the
     * items counter and N are updated once. Cost: the keys are hashed with the SIMD kernel
     * {@value KeyHasher#BATCH} at a time, then each costs d counter updates.
     *
     * @param keys the keys
     * @throws IllegalArgumentException if the keys would take N past 2^63 - 2^55 - 1
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public void addAll(long[] keys) {
        requireWritable();
        admitWeight(keys.length, "keys.length");
        hasher.forEachBatch(keys, (hashes, first, n) -> {
            for (int i = 0; i < n; i++) {
                offer(hashes[i], updates.add(hashes[i], 1), keys[(int) first + i]);
            }
        });
        countAdmitted(keys.length, keys.length);
    }

    /**
     * Adds one occurrence of each of {@code count} keys stored as little-endian 64-bit values in a
     * segment (for example a network or file buffer); as {@link #addAll(long[])}.
     *
     * @param keys the segment
     * @param offset byte offset of the first key
     * @param count number of keys
     * @throws IndexOutOfBoundsException if the keys are outside the segment
     * @throws IllegalArgumentException if the keys would take N past 2^63 - 2^55 - 1
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public void addAll(MemorySegment keys, long offset, long count) {
        requireWritable();
        KeyHasher.checkLongKeys(keys, offset, count);
        admitWeight(count, "count");
        hasher.forEachBatch(keys, offset, count, (hashes, first, n) -> {
            for (int i = 0; i < n; i++) {
                long key = keys.get(KeyHasher.KEY_LAYOUT, offset + (first + i) * Long.BYTES);
                offer(hashes[i], updates.add(hashes[i], 1), key);
            }
        });
        countAdmitted(count, count);
    }

    /**
     * Adds one occurrence of each of {@code count} keys of bytes, key {@code i} being
     * {@code data[offsets[i], offsets[i] + lengths[i])} (for example the lines of a buffer), as
     * {@link #add(byte[], int, int)} would one by one; the items counter and N are updated once. Every
     * key is checked before anything is added. Cost: an XXH3 of each key's bytes, then d counter
     * updates per key.
     *
     * @param data the bytes of the keys
     * @param offsets where each key starts
     * @param lengths each key's byte count
     * @param count how many keys, at most the length of both arrays
     * @throws IndexOutOfBoundsException if {@code count} exceeds an array or a key is outside {@code data}
     * @throws IllegalArgumentException if a key is longer than a Top-K sketch stores, or the keys would
     *     take N past 2^63 - 2^55 - 1; nothing was added
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public void addAll(byte[] data, int[] offsets, int[] lengths, int count) {
        requireWritable();
        Objects.checkFromIndexSize(0, count, offsets.length);
        Objects.checkFromIndexSize(0, count, lengths.length);
        for (int i = 0; i < count; i++) {
            Objects.checkFromIndexSize(offsets[i], lengths[i], data.length);
            checkKeyLength(lengths[i]);
        }
        admitWeight(count, "count");
        MemorySegment bytes = MemorySegment.ofArray(data);
        hasher.forEachBatch(data, offsets, lengths, count, (hashes, first, n) -> {
            for (int i = 0; i < n; i++) {
                int key = (int) first + i;
                offer(hashes[i], updates.add(hashes[i], 1), bytes, offsets[key], lengths[key]);
            }
        });
        countAdmitted(count, count);
    }

    private long addBytes(MemorySegment key, long offset, long length, long count) {
        Objects.checkFromIndexSize(offset, length, key.byteSize());
        checkKeyLength(length);
        long hash = hasher.hash(key, offset, length);
        long estimate = addCounted(hash, count);
        offer(hash, estimate, key, offset, length);
        return estimate;
    }

    /** Refuses a key before anything changes; a Top-K sketch refuses keys longer than it can store. */
    void checkKeyLength(long length) {}

    /** Called after each add of a {@code long} key with its estimate; a Top-K sketch considers it as a candidate. */
    void offer(long hash, long estimate, long key) {}

    /** Called after each add of a key of bytes with its estimate; a Top-K sketch considers it as a candidate. */
    void offer(long hash, long estimate, MemorySegment key, long offset, long length) {}

    /** Takes {@code count} of the key of this hash into N, the items and the counters; returns its estimate. */
    final long addCounted(long hash, long count) {
        requireWritable();
        if (count < 1) {
            throw new IllegalArgumentException("count = " + count + ", must be in [1, " + Long.MAX_VALUE + "]");
        }
        admitWeight(count, "count");
        long estimate = updates.add(hash, count);
        countAdmitted(1, count);
        return estimate;
    }

    /**
     * Stores {@code table}, row by row, into the counters of a new sketch and takes {@code weight} as N:
     * the content of an imported sketch, written by its only writer before the file gets its name.
     */
    final void restore(long[] table, long weight) {
        requireWritable();
        admitWeight(weight, "totalWeight");
        int width = width();
        for (int row = 0; row < depth(); row++) {
            for (int column = 0; column < width; column++) {
                counters.store(counters.columnOffset(row, column), table[row * width + column]);
            }
        }
        countAdmitted(0, weight);
    }

    // ---------------------------------------------------------------- merge

    /** Refuses a sketch of other counters: width, depth, counter width, hash scheme, seed or row scheme. */
    final void requireSameCounters(FrequencySketch other) {
        requireCompatible(Objects.requireNonNull(other, "other"), CountMinFormat.SHAPE);
        rows.requireSameScheme(other.rows);
    }

    /**
     * Adds every counter of {@code other} to this sketch's (saturating); N and the items counter add
     * up. Cost: one pass over both payloads: the SIMD saturating-sum kernel in {@code EXCLUSIVE}
     * mode, a compare-and-set of each non-zero counter in {@code SHARED} mode.
     */
    final void mergeCounters(FrequencySketch other) {
        mergeCounters(other, 1);
    }

    /**
     * As {@link #mergeCounters(FrequencySketch)} with every counter of {@code other}, its N and its items
     * taken {@code times} times, as if its stream had been added that often.
     */
    final void mergeCounters(FrequencySketch other, long times) {
        Objects.requireNonNull(other, "other");
        requireWeight(times);
        requireWritable();
        requireSameCounters(other);
        long scaled = LiveCounters.times(other.totalWeight(), times);
        admitWeight(
                scaled,
                times == 1 ? "the other sketch's total weight" : "the other sketch's total weight times " + times);
        long items = other.itemsAdded();
        counters.addAllTimes(other.counters, times);
        countAdmitted(LiveCounters.times(items, times), scaled);
    }

    /** Refuses the weight of a weighted merge (CMS.MERGE's WEIGHTS) below 1. */
    static void requireWeight(long weight) {
        if (weight < 1) {
            throw new IllegalArgumentException("weight = " + weight + ", must be in [1, " + Long.MAX_VALUE + "]");
        }
    }

    /** The shape in the question's terms and as counters, the update rule, memory and the error bound. */
    @Override
    protected void putFigures(Map<String, Object> figures) {
        figures.put("epsilon", epsilon());
        figures.put("delta", delta());
        figures.put("width", width());
        figures.put("depth", depth());
        figures.put("counter bits", counterBits());
        figures.put("conservative update", isConservative());
        super.putFigures(figures);
        figures.put("error bound", errorBound());
    }
}
