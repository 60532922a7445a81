package io.mapsketch.frequency;

import io.mapsketch.internal.KeyHasher;
import io.mapsketch.internal.OwnedScratch;
import io.mapsketch.internal.RegionSketch;
import io.mapsketch.internal.ScratchPool;
import io.mapsketch.internal.Utf8;
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
 * own per row, so rows collide close to independently ({@link CountMinRows}; files written before format
 * version 4 keep their double hashing); the layout is drawn in {@code docs/file-format.md}.
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
 * and concurrent conservative updates are not bit-identical to a sequential run (see below).
 *
 * <p>Concurrency: in {@code SHARED} mode a plain update adds to each counter with a saturating
 * compare-and-set, so any number of threads and processes adding at once leave the counters
 * exactly as sequential adds would (saturating addition is commutative). A conservative update in
 * {@code SHARED} mode is optimistic: it reads the key's d counters, then raises each one with a
 * compare-and-set from the value it read (or confirms it unchanged), and starts again from fresh
 * reads if any of them changed in between. A completed update therefore acted on counters that no
 * other writer changed between its reads and its writes, so no concurrent update of the same key is
 * lost and estimates are never below the truth; raises made by a pass that then restarted can leave
 * counters higher, so the result is not bit-identical to a sequential run. (Raising to
 * {@code estimate-before + count} without the restart is not enough: two writers that read the same
 * estimate would both raise to it plus their count, and one count would be lost.) The {@code EXCLUSIVE} writer updates with plain loads
 * and stores, and merges with the SIMD saturating-sum kernel. Readers may estimate while writers
 * add: each counter is read once, at some value it held during the call.
 *
 * <p>Cost: an add or estimate is one hash, a 64-bit mix per row and d counter accesses, one cache
 * miss per row on a large sketch; a {@code SHARED} add is d compare-and-sets. Batch adds of
 * {@code long} keys hash with the SIMD kernel. A merge is one pass over both payloads.
 */
// The mechanics every sketch shares sit in the unexported package; their public methods are this type's.
@SuppressWarnings("exports")
public abstract sealed class FrequencySketch extends RegionSketch permits CountMinSketch, TopK {

    /** The largest depth: {@code ceil(ln(1 / delta))} for the smallest positive double delta. */
    public static final int MAX_DEPTH = 745;

    private static final long MAX_32 = 0xFFFF_FFFFL;
    /**
     * Counter bytes above which batch estimates go row by row ({@link #estimateHashes}): a core's L2
     * cache on the machines measured (1 MiB). Below it the counters are cached and a key's loads are
     * cheap; key by key, with fewer instructions, was as fast or faster (rows measured level to a
     * quarter slower at 53 KiB, and 1.8 times as fast at 64 MiB).
     */
    private static final long ROWS_ABOVE_BYTES = 1 << 20;

    private final int width;
    private final int depth;
    private final int counterBytes;
    private final boolean conservative;
    private final double epsilon;
    private final double delta;
    private final CounterMatrix counters;
    private final CountMinRows rows;
    private final CountMinFormat shape;
    private final boolean estimatesByRow;
    /** Each row's counter offset and value as a {@code SHARED} conservative update read them. */
    private final OwnedScratch<long[]> snapshots = new OwnedScratch<>(() -> new long[2 * depth()]);

    private final ScratchPool<RowScratch> rowScratch = new ScratchPool<>(RowScratch::new);

    FrequencySketch(SketchRegion region, CountMinFormat shape) {
        super(region);
        this.width = shape.width();
        this.depth = shape.depth();
        this.counterBytes = shape.counterBytes();
        this.conservative = shape.conservative();
        this.epsilon = shape.epsilon();
        this.delta = shape.delta();
        this.counters = CounterMatrix.of(payload, width, depth, counterBytes, sharedWriters);
        this.rows = CountMinRows.of(region.header().formatVersion());
        this.shape = shape;
        this.estimatesByRow = shape.counterBytesTotal() > ROWS_ABOVE_BYTES;
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
                offer(hashes[i], addHash(hashes[i], 1), keys[(int) first + i]);
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
                offer(hashes[i], addHash(hashes[i], 1), key);
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
                offer(hashes[i], addHash(hashes[i], 1), bytes, offsets[key], lengths[key]);
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
        long estimate = addHash(hash, count);
        countAdmitted(1, count);
        return estimate;
    }

    /** Adds {@code count} to the key of this hash; returns its estimate afterwards (capped). */
    long addHash(long hash, long count) {
        if (conservative) {
            return sharedWriters ? conservativeShared(hash, count) : conservativeExclusive(hash, count);
        }
        long x = rows.first(hash);
        long y = rows.step(hash);
        long min = -1L;
        for (int row = 0; row < depth; row++) {
            long offset = counters.offset(row, rows.value(x));
            long updated = counters.add(offset, count);
            min = CounterMatrix.unsignedMin(min, updated);
            x += y;
            y += rows.bump(row);
        }
        return cap(min);
    }

    private long conservativeExclusive(long hash, long count) {
        long min = estimateRaw(hash);
        long target = counters.saturatingAdd(min, count);
        long x = rows.first(hash);
        long y = rows.step(hash);
        for (int row = 0; row < depth; row++) {
            long offset = counters.offset(row, rows.value(x));
            if (Long.compareUnsigned(counters.load(offset), target) < 0) {
                counters.store(offset, target);
            }
            x += y;
            y += rows.bump(row);
        }
        return cap(target);
    }

    /**
     * Optimistic conservative update: snapshot the d counters, then raise each from the value read
     * (or confirm it unchanged); any change in between restarts from fresh reads.
     */
    private long conservativeShared(long hash, long count) {
        OwnedScratch.Lease<long[]> snapshot = snapshots.borrow();
        long[] scratch = snapshot.piece();
        long first = rows.first(hash);
        long step = rows.step(hash);
        retry:
        while (true) {
            long x = first;
            long y = step;
            long min = -1L;
            for (int row = 0; row < depth; row++) {
                long offset = counters.offset(row, rows.value(x));
                long value = counters.load(offset);
                scratch[2 * row] = offset;
                scratch[2 * row + 1] = value;
                min = CounterMatrix.unsignedMin(min, value);
                x += y;
                y += rows.bump(row);
            }
            long target = counters.saturatingAdd(min, count);
            for (int row = 0; row < depth; row++) {
                long offset = scratch[2 * row];
                long seen = scratch[2 * row + 1];
                boolean unchanged = Long.compareUnsigned(seen, target) < 0
                        ? counters.compareAndSet(offset, seen, target)
                        : counters.load(offset) == seen;
                if (!unchanged) {
                    continue retry;
                }
            }
            snapshots.giveBack(snapshot);
            return cap(target);
        }
    }

    private long cap(long unsignedValue) {
        long max = maxEstimate();
        return Long.compareUnsigned(unsignedValue, max) >= 0 ? max : unsignedValue;
    }

    /** The minimum of the key's counters, unsigned. */
    private long estimateRaw(long hash) {
        long x = rows.first(hash);
        long y = rows.step(hash);
        long min = -1L;
        for (int row = 0; row < depth; row++) {
            min = CounterMatrix.unsignedMin(min, counters.load(counters.offset(row, rows.value(x))));
            x += y;
            y += rows.bump(row);
        }
        return min;
    }

    /**
     * Estimates a batch of hashes row by row: for each row, a pass computes the counters' offsets, a
     * pass only loads the counters (so out of cache the misses of many keys are in flight at once) and a
     * pass folds them into the keys' minima.
     */
    private void estimateHashes(long[] hashes, int n, long[] estimates, int from) {
        RowScratch scratch = rowScratch.borrow();
        long[] x = scratch.x();
        long[] y = scratch.y();
        long[] values = scratch.values();
        for (int j = 0; j < n; j++) {
            x[j] = rows.first(hashes[j]);
            y[j] = rows.step(hashes[j]);
            estimates[from + j] = -1L;
        }
        for (int row = 0; row < depth; row++) {
            long bump = rows.bump(row);
            for (int j = 0; j < n; j++) {
                values[j] = counters.offset(row, rows.value(x[j]));
                x[j] += y[j];
                y[j] += bump;
            }
            for (int j = 0; j < n; j++) {
                values[j] = counters.load(values[j]);
            }
            for (int j = 0; j < n; j++) {
                estimates[from + j] = CounterMatrix.unsignedMin(estimates[from + j], values[j]);
            }
        }
        for (int j = 0; j < n; j++) {
            estimates[from + j] = cap(estimates[from + j]);
        }
        rowScratch.giveBack(scratch);
    }

    /**
     * A batch estimate's scratch for {@link #estimateHashes} (lent by the sketch, {@link ScratchPool}):
     * each key's row state ({@link CountMinRows}), and one row's offsets, which the loading pass replaces
     * by the counters' values.
     */
    private record RowScratch(long[] x, long[] y, long[] values) {

        RowScratch() {
            this(new long[KeyHasher.BATCH], new long[KeyHasher.BATCH], new long[KeyHasher.BATCH]);
        }
    }

    /** Estimate of the key of this hash: the minimum of its counters, capped at {@link #maxEstimate()}. */
    long estimateHash(long hash) {
        return cap(estimateRaw(hash));
    }

    /** Reads counter {@code column} of {@code row}, unsigned; for tests and the file format. */
    long counter(int row, long column) {
        return counters.counter(row, column);
    }

    // ---------------------------------------------------------------- estimates

    /**
     * Estimates how often a key, as its {@linkplain io.mapsketch##keys bytes}, was added: the minimum of
     * its d counters. Never below the truth unless saturated; above it by at most {@link #errorBound()}
     * with probability at least {@code 1 - delta}. An estimate equal to {@link #maxEstimate()} is
     * saturated: the key's counters all reached the largest value an estimate takes, so the true count
     * may be larger; compare with {@code maxEstimate()}, or ask {@link #isSaturated(long)}. Cost: one
     * hash and d counter loads.
     *
     * @param key the key
     * @return the estimate, in [0, {@link #maxEstimate()}]; {@code maxEstimate()} when saturated
     * @throws IllegalStateException if the sketch is closed
     */
    public long estimate(long key) {
        return estimateHash(hasher.hash(key));
    }

    /**
     * Estimates every key of an array, as {@link #estimate(long)} would one by one: {@code estimates[i]}
     * receives the estimate of {@code keys[i]}, never below the truth unless saturated. Cost: the keys
     * are hashed with the SIMD kernel {@value KeyHasher#BATCH} at a time, then each costs d counter
     * loads; for sketches of more than 1 MiB of counters a batch is read row by row, so that the loads
     * of many keys are in flight at once.
     *
     * @param keys the keys
     * @param estimates receives the estimates; at least as long as {@code keys}
     * @throws IllegalArgumentException if {@code estimates} is shorter than {@code keys}
     * @throws IllegalStateException if the sketch is closed
     */
    public void estimateAll(long[] keys, long[] estimates) {
        requireAnswerRoom("estimates", estimates.length, keys.length);
        hasher.forEachBatch(keys, (hashes, first, n) -> {
            int from = (int) first;
            if (estimatesByRow) {
                estimateHashes(hashes, n, estimates, from);
            } else {
                for (int i = 0; i < n; i++) {
                    estimates[from + i] = estimateHash(hashes[i]);
                }
            }
        });
    }

    /**
     * Estimates how often the key of the bytes {@code key[offset, offset + length)} was added; as
     * {@link #estimate(long)}.
     *
     * @param key the array
     * @param offset first byte
     * @param length number of bytes
     * @return the estimate, never below the truth unless saturated
     * @throws IndexOutOfBoundsException if the range is outside the array
     * @throws IllegalStateException if the sketch is closed
     */
    public long estimate(byte[] key, int offset, int length) {
        return estimateHash(hasher.hash(key, offset, length));
    }

    /**
     * Estimates how often the key of a string's UTF-8 bytes was added; as {@link #estimate(long)}.
     *
     * @param key the characters
     * @return the estimate, never below the truth unless saturated
     * @throws IllegalStateException if the sketch is closed
     */
    public long estimate(CharSequence key) {
        return estimateHash(hasher.hash(key));
    }

    /**
     * Estimates how often the key of the bytes of a segment slice was added; as {@link #estimate(long)}.
     *
     * @param key the segment
     * @param offset first byte
     * @param length number of bytes
     * @return the estimate, never below the truth unless saturated
     * @throws IndexOutOfBoundsException if the range is outside the segment
     * @throws IllegalStateException if the sketch is closed
     */
    public long estimate(MemorySegment key, long offset, long length) {
        return estimateHash(hasher.hash(key, offset, length));
    }

    /**
     * Tells whether a key's estimate is saturated: it equals {@link #maxEstimate()}, so the true
     * count may be larger (the one case in which an estimate may be below the truth). Cost: as
     * {@link #estimate(long)}.
     *
     * @param key the key
     * @return {@code true} if the estimate is at its largest value
     * @throws IllegalStateException if the sketch is closed
     */
    public boolean isSaturated(long key) {
        return estimate(key) == maxEstimate();
    }

    /**
     * Tells whether the estimate of the key of a string's UTF-8 bytes is saturated; as {@link #isSaturated(long)}.
     *
     * @param key the characters
     * @return {@code true} if the estimate is at its largest value
     * @throws IllegalStateException if the sketch is closed
     */
    public boolean isSaturated(CharSequence key) {
        return estimate(key) == maxEstimate();
    }

    /**
     * Tells whether the estimate of the key of the bytes {@code key[offset, offset + length)} is
     * saturated; as {@link #isSaturated(long)}.
     *
     * @param key the array
     * @param offset first byte
     * @param length number of bytes
     * @return {@code true} if the estimate is at its largest value
     * @throws IndexOutOfBoundsException if the range is outside the array
     * @throws IllegalStateException if the sketch is closed
     */
    public boolean isSaturated(byte[] key, int offset, int length) {
        return estimate(key, offset, length) == maxEstimate();
    }

    /**
     * Tells whether the estimate of the key of the bytes of a segment slice is saturated; as
     * {@link #isSaturated(long)}.
     *
     * @param key the segment
     * @param offset first byte
     * @param length number of bytes
     * @return {@code true} if the estimate is at its largest value
     * @throws IndexOutOfBoundsException if the range is outside the segment
     * @throws IllegalStateException if the sketch is closed
     */
    public boolean isSaturated(MemorySegment key, long offset, long length) {
        return estimate(key, offset, length) == maxEstimate();
    }

    /**
     * Returns the largest estimate: {@code 2^32 - 1} for 32-bit counters, {@code 2^63 - 1} for
     * 64-bit counters (whose counters go on to {@code 2^64 - 1}, but an estimate is a {@code long}).
     * An estimate at this value is saturated.
     *
     * @return the largest estimate
     */
    public long maxEstimate() {
        return counterBytes == Integer.BYTES ? MAX_32 : Long.MAX_VALUE;
    }

    /**
     * Returns the additive error bound {@code ceil(epsilon N)}: an estimate exceeds the truth by
     * more than this with probability at most {@code delta} (for conservative sketches too, whose
     * overestimates are smaller). Cost: one read of N ({@link #totalWeight()}).
     *
     * @return the bound, at least 0
     * @throws IllegalStateException if the sketch is closed
     */
    public long errorBound() {
        return (long) Math.ceil(epsilon * totalWeight());
    }

    /**
     * Returns N, the sum of all counts added by all writers in every process, merges included.
     * Cost: one acquire load of the header's live counter; the {@code EXCLUSIVE} writer answers from
     * the copy it keeps, and stores N in the file plainly with every add, so other processes see it at
     * once.
     *
     * @return N
     * @throws IllegalStateException if the sketch is closed
     */
    public long totalWeight() {
        return weightAdded();
    }

    /**
     * Returns epsilon, the error as a fraction of N, stored in the header.
     *
     * @return epsilon, in (0, 1)
     */
    public double epsilon() {
        return epsilon;
    }

    /**
     * Returns delta, the probability that an estimate exceeds {@link #errorBound()}.
     *
     * @return delta, in (0, 1)
     */
    public double delta() {
        return delta;
    }

    /**
     * Returns w, the counters per row: {@code ceil(e / epsilon)}.
     *
     * @return w
     */
    public int width() {
        return width;
    }

    /**
     * Returns d, the rows: {@code ceil(ln(1 / delta))}.
     *
     * @return d
     */
    public int depth() {
        return depth;
    }

    /**
     * Returns the bytes of the counter matrix: d rows of w counters, each row padded to 64 bytes.
     * For a Count-Min sketch this is {@link #memoryBytes()}; a Top-K sketch adds its candidates.
     *
     * @return the counters' bytes
     */
    public long counterMemoryBytes() {
        return shape.counterBytesTotal();
    }

    /**
     * Returns the counter width in bits.
     *
     * @return 32 or 64
     */
    public int counterBits() {
        return counterBytes * Byte.SIZE;
    }

    /**
     * Tells whether this sketch uses conservative update (smaller overestimates; see the class
     * description for what it gives up).
     *
     * @return {@code true} if conservative
     */
    public boolean isConservative() {
        return conservative;
    }

    // ---------------------------------------------------------------- merge

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
        if (times < 1) {
            throw new IllegalArgumentException("weight = " + times + ", must be in [1, " + Long.MAX_VALUE + "]");
        }
        requireWritable();
        requireCompatible(other, CountMinFormat.SHAPE);
        rows.requireSameScheme(other.rows);
        long weight = other.totalWeight();
        long high = Math.multiplyHigh(weight, times);
        long scaled = weight * times;
        admitWeight(
                high != 0 || scaled < 0 ? Long.MAX_VALUE : scaled,
                times == 1 ? "the other sketch's total weight" : "the other sketch's total weight times " + times);
        long items = other.itemsAdded();
        counters.addAllTimes(other.counters, times);
        countAdmitted(
                Math.multiplyHigh(items, times) != 0 || items * times < 0 ? Long.MAX_VALUE : items * times, scaled);
    }

    /** The shape in the question's terms and as counters, the update rule, memory and the error bound. */
    @Override
    protected void putFigures(Map<String, Object> figures) {
        figures.put("epsilon", epsilon);
        figures.put("delta", delta);
        figures.put("width", width);
        figures.put("depth", depth);
        figures.put("counter bits", counterBits());
        figures.put("conservative update", conservative);
        super.putFigures(figures);
        figures.put("error bound", errorBound());
    }

    /** Width, depth, counter width, update rule and N, for {@code toString}. */
    final String shapeText() {
        return width + " x " + depth + " x " + counterBits() + "-bit" + (conservative ? ", conservative" : "") + ", N "
                + totalWeight();
    }
}
