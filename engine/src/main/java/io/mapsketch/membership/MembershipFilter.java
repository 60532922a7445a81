package io.mapsketch.membership;

import io.mapsketch.IncompatibleSketchFileException;
import io.mapsketch.OpenMode;
import io.mapsketch.internal.KeyHasher;
import io.mapsketch.internal.KeyedSketch;
import io.mapsketch.internal.SketchOpener;
import io.mapsketch.kernels.BitSetKernels;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * A filter that answers "is X in the set?" with false positives only: a key that was added is
 * always reported present; a key that was not is reported present with probability
 * {@link #expectedFalsePositiveRate()}.
 *
 * <p>Keys arrive in {@linkplain io.mapsketch##keys every key form}, and the same bytes give the same
 * answer whichever form added them. Batch methods hash whole arrays with the SIMD hash kernel and probe
 * in phases, and update the items counter once per batch step.
 */
// The mechanics every sketch shares sit in the unexported package; their public methods are this type's.
@SuppressWarnings("exports")
public abstract sealed class MembershipFilter extends KeyedSketch
        permits BloomFilter, BlockedBloomFilter, RemovableFilter, ScalableBloomFilter {

    private final long expectedItems;
    private final double targetFalsePositiveRate;

    MembershipFilter(SketchRegion region, long expectedItems, double targetFalsePositiveRate) {
        super(region);
        this.expectedItems = expectedItems;
        this.targetFalsePositiveRate = targetFalsePositiveRate;
    }

    /**
     * Opens any membership filter from its path, choosing the layout from the file's header: a
     * directory is a {@link ScalableBloomFilter}; a file is a classic, blocked or counting Bloom
     * filter or a cuckoo filter, as its kind says.
     *
     * @param path a filter file, or a scalable filter's directory
     * @param mode read-only, shared writer or exclusive writer
     * @return the open filter
     * @throws IncompatibleSketchFileException if the file holds a sketch that is not a membership filter
     * @throws io.mapsketch.SketchFileException if the file is not valid or is locked
     * @throws IOException if the file cannot be read
     */
    public static MembershipFilter open(Path path, OpenMode mode) throws IOException {
        return SketchOpener.open(
                path,
                mode,
                MembershipFilter.class,
                "a membership filter (BLOOM, BLOCKED_BLOOM, COUNTING_BLOOM or CUCKOO)");
    }

    abstract boolean containsHash(long hash);

    /** Looks up {@code hashes[0, count)} into {@code results[resultsFrom, resultsFrom + count)}. */
    abstract void containsHashes(long[] hashes, int count, boolean[] results, int resultsFrom);

    /**
     * Returns the probability that a key never added is reported present, at the current load.
     *
     * @return the current false-positive rate
     */
    public abstract double expectedFalsePositiveRate();

    /**
     * Returns the capacity the filter was sized for.
     *
     * @return n
     */
    public final long expectedItems() {
        return expectedItems;
    }

    /**
     * Returns the false-positive rate the filter was sized for, at {@link #expectedItems()} items.
     *
     * @return p
     */
    public final double targetFalsePositiveRate() {
        return targetFalsePositiveRate;
    }

    /**
     * Tells whether the filter holds more than it was sized for: more distinct keys than
     * {@link #expectedItems()} by {@link #estimatedItems()} (keys added again do not count), or a current
     * false-positive rate above the target. Cost: two passes over the payload.
     *
     * @return {@code true} once past capacity
     */
    public boolean isOverCapacity() {
        return estimatedItems() > expectedItems || expectedFalsePositiveRate() > targetFalsePositiveRate;
    }

    /**
     * Returns how many keys the filter holds, estimated from its fill, so that a key added twice counts
     * once (unlike {@link #itemsAdded()}): {@code -(m / k) ln(1 - fill)} for m bits or counters and k
     * probes per key, within about 1% at capacity; a cuckoo filter counts its occupied slots (each copy of
     * a key added again takes one). Cost: as {@link #fillRatio()}.
     *
     * @return the estimate, {@code Long.MAX_VALUE} once every cell is set
     * @throws IllegalStateException if the filter is closed
     */
    public abstract long estimatedItems();

    /** {@code -(cells / probes) ln(1 - fill)}, the keys that set a fraction {@code fill} of the cells. */
    static long itemsOfFill(double cells, int probes, double fill) {
        return fill >= 1 ? Long.MAX_VALUE : Math.round(-cells / probes * Math.log1p(-fill));
    }

    /** Adds the layout's own figures (its shape), which come first in {@link #putFigures}. */
    abstract void putShape(Map<String, Object> figures);

    /**
     * The layout's shape, then memory, capacity, the target rate, the fill, the keys it holds as estimated
     * from the fill, the memory per key of capacity, the current rate and whether it is over capacity.
     */
    @Override
    protected final void putFigures(Map<String, Object> figures) {
        putShape(figures);
        figures.put("memory bytes", memoryBytes());
        figures.put("expected items", expectedItems);
        figures.put("target false-positive rate", targetFalsePositiveRate);
        figures.put("fill ratio", fillRatio());
        figures.put("estimated items", estimatedItems());
        figures.put("bits per key", (double) memoryBytes() * Byte.SIZE / expectedItems);
        figures.put("current false-positive rate", expectedFalsePositiveRate());
        figures.put("over capacity", isOverCapacity());
    }

    /**
     * Tells whether a key, as its {@linkplain io.mapsketch##keys bytes}, may have been added: never
     * {@code false} for an added key.
     *
     * @param key the key
     * @return {@code false} if certainly absent, {@code true} if present or a false positive
     * @throws IllegalStateException if the filter is closed
     */
    public boolean mightContain(long key) {
        return containsHash(hasher.hash(key));
    }

    /**
     * Tells whether the key of the bytes {@code key[offset, offset + length)} may have been added; as
     * {@link #mightContain(long)}.
     *
     * @param key the array
     * @param offset first byte
     * @param length number of bytes
     * @return {@code false} if certainly absent
     * @throws IndexOutOfBoundsException if the range is outside the array
     * @throws IllegalStateException if the filter is closed
     */
    public boolean mightContain(byte[] key, int offset, int length) {
        return containsHash(hasher.hash(key, offset, length));
    }

    /**
     * Tells whether the key of a string's UTF-8 bytes may have been added; as {@link #mightContain(long)}.
     *
     * @param key the characters
     * @return {@code false} if certainly absent
     * @throws IllegalStateException if the filter is closed
     */
    public boolean mightContain(CharSequence key) {
        return containsHash(hasher.hash(key));
    }

    /**
     * Tells whether the key of the bytes of a segment slice may have been added; as
     * {@link #mightContain(long)}.
     *
     * @param key the segment
     * @param offset first byte
     * @param length number of bytes
     * @return {@code false} if certainly absent
     * @throws IndexOutOfBoundsException if the range is outside the segment
     * @throws IllegalStateException if the filter is closed
     */
    public boolean mightContain(MemorySegment key, long offset, long length) {
        return containsHash(hasher.hash(key, offset, length));
    }

    /**
     * Looks up every key of an array, as {@link #mightContain(long)} would one by one. Cost: the keys
     * are hashed with the SIMD kernel {@value KeyHasher#BATCH} at a time and looked up as a batch (in
     * phases, so that out of cache the misses of many keys are in flight at once).
     *
     * @param keys the keys
     * @param results receives, at index i, {@link #mightContain(long)} of {@code keys[i]}
     * @throws IllegalArgumentException if {@code results} is shorter than {@code keys}
     * @throws IllegalStateException if the filter is closed
     */
    public void mightContainAll(long[] keys, boolean[] results) {
        requireAnswerRoom("results", results.length, keys.length);
        hasher.forEachBatch(keys, (hashes, first, count) -> containsHashes(hashes, count, results, (int) first));
    }

    /**
     * Looks up {@code count} keys of bytes, key {@code i} being
     * {@code data[offsets[i], offsets[i] + lengths[i])}, writing the answer for key {@code i} to
     * {@code results[i]}, as {@link #mightContain(byte[], int, int)} would one by one; as
     * {@link #mightContainAll(long[], boolean[])}, each key hashed with XXH3 of its bytes.
     *
     * @param data the bytes of the keys
     * @param offsets where each key starts
     * @param lengths each key's byte count
     * @param count how many keys, at most the length of the three arrays
     * @param results where the answers go
     * @throws IndexOutOfBoundsException if {@code count} exceeds an array or a key is outside {@code data}
     * @throws IllegalStateException if the filter is closed
     */
    public void mightContainAll(byte[] data, int[] offsets, int[] lengths, int count, boolean[] results) {
        Objects.checkFromIndexSize(0, count, results.length);
        hasher.forEachBatch(
                data, offsets, lengths, count, (hashes, first, n) -> containsHashes(hashes, n, results, (int) first));
    }

    /**
     * Sets {@code mask} in the word at {@code wordOffset}; returns whether a bit was clear. Shared
     * writers OR atomically, and only when a bit is missing. The exclusive writer stores the OR
     * whether or not it changes the word: a branch on the word, whose outcome is as random as the
     * keys, mispredicted about every other probe of a half-full filter and cost more than the store
     * (a page of a mapped file that no add changed can so become dirty and be written back once).
     */
    final boolean setBits(long wordOffset, long mask) {
        long word = payload.getLong(wordOffset);
        if (!sharedWriters) {
            payload.putLong(wordOffset, word | mask);
            return (word & mask) != mask;
        }
        if ((word & mask) == mask) {
            return false;
        }
        return (payload.getAndOrLong(wordOffset, mask) & mask) != mask;
    }

    /**
     * ORs another filter's bits into this one, so that this filter answers for the union of both key
     * sets. Shared writers OR word by word atomically (only words that gain bits); an exclusive writer
     * uses the SIMD kernel. The caller has checked that the other filter is mergeable.
     */
    final void orIn(MembershipFilter other) {
        requireWritable();
        long words = payload.byteSize() / Long.BYTES;
        if (sharedWriters) {
            for (long offset = 0; offset < words * Long.BYTES; offset += Long.BYTES) {
                long incoming = other.payload.getLongAcquire(offset);
                if ((incoming & ~payload.getLong(offset)) != 0) {
                    payload.getAndOrLong(offset, incoming);
                }
            }
        } else {
            BitSetKernels.or(payload.segment(), 0, other.payload.segment(), 0, words);
        }
        countItems(other.itemsAdded());
    }

    /**
     * Returns how full the filter is: the fraction of its bits that are set (for a counting filter,
     * of its counters that are not zero). Cost: one pass over the payload (SIMD for bit arrays).
     *
     * @return a fraction in [0, 1]
     * @throws IllegalStateException if the filter is closed
     */
    public abstract double fillRatio();

    /** The fraction of set bits among the first {@code bits} bits of the payload (the rest is never set). */
    final double bitFillRatio(long bits) {
        return (double) BitSetKernels.popcount(payload.segment(), 0, payload.byteSize() / Long.BYTES) / bits;
    }
}
