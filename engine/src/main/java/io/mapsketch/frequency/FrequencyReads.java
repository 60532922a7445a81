package io.mapsketch.frequency;

import io.mapsketch.internal.KeyHasher;
import io.mapsketch.internal.RegionSketch;
import io.mapsketch.memory.SketchRegion;
import java.lang.foreign.MemorySegment;

/**
 * The read side of every frequency sketch ({@link FrequencySketch}): a key's estimate in every key form
 * and in batches, saturation, the shape of the counter matrix and the error bound. Nothing here changes
 * a counter; the adds are {@link FrequencySketch}'s. Its public methods are {@code FrequencySketch}'s API.
 */
// The mechanics every sketch shares sit in the unexported package.
@SuppressWarnings("exports")
abstract sealed class FrequencyReads extends RegionSketch permits FrequencySketch {

    /** The header parameters of the counters: width, depth, counter width, update rule, epsilon, delta. */
    final CountMinFormat shape;
    /** The d rows of w counters over the payload. */
    final CounterMatrix counters;
    /** Which counter a key takes in each row, by the file's format version. */
    final CountMinRows rows;
    /** A key's estimate from its counters, one key or a batch. */
    final CountMinEstimates estimates;
    /** The rows d, kept here with the matrix and rows so that a single-key estimate loads them from this object. */
    private final int depth;
    /** The largest estimate, kept here for the same reason. */
    private final long maxEstimate;

    FrequencyReads(SketchRegion region, CountMinFormat shape) {
        super(region);
        this.shape = shape;
        this.counters = CounterMatrix.of(payload, shape.width(), shape.depth(), shape.counterBytes(), sharedWriters);
        this.rows = CountMinRows.of(region.header().formatVersion());
        this.estimates = new CountMinEstimates(counters, rows, shape);
        this.depth = shape.depth();
        this.maxEstimate = estimates.max();
    }

    /** The estimate of the key of this hash, as {@link CountMinEstimates#of(long)}. */
    private long estimateOf(long hash) {
        return CountMinEstimates.cap(CountMinEstimates.raw(counters, rows, depth, 0, hash), maxEstimate);
    }

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
        return estimateOf(hasher.hash(key));
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
        hasher.forEachBatch(keys, (hashes, first, n) -> this.estimates.of(hashes, n, estimates, (int) first));
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
        return estimateOf(hasher.hash(key, offset, length));
    }

    /**
     * Estimates how often the key of a string's UTF-8 bytes was added; as {@link #estimate(long)}.
     *
     * @param key the characters
     * @return the estimate, never below the truth unless saturated
     * @throws IllegalStateException if the sketch is closed
     */
    public long estimate(CharSequence key) {
        return estimateOf(hasher.hash(key));
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
        return estimateOf(hasher.hash(key, offset, length));
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
        return estimates.max();
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
        return (long) Math.ceil(shape.epsilon() * totalWeight());
    }

    /**
     * Returns how many counters are at or above {@link #maxEstimate()}: a key whose d counters are all
     * among them has a saturated estimate. No counter exceeds N ({@link #totalWeight()}), so while N is
     * below {@code maxEstimate()} (always, for 64-bit counters) the answer is 0 without reading a
     * counter; otherwise one pass over the counters.
     *
     * @return saturated counters, in [0, w d]
     * @throws IllegalStateException if the sketch is closed
     */
    public long saturatedCounters() {
        return totalWeight() < maxEstimate ? 0 : counters.countAtLeast(maxEstimate);
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
        return shape.epsilon();
    }

    /**
     * Returns delta, the probability that an estimate exceeds {@link #errorBound()}.
     *
     * @return delta, in (0, 1)
     */
    public double delta() {
        return shape.delta();
    }

    /**
     * Returns w, the counters per row: {@code ceil(e / epsilon)}.
     *
     * @return w
     */
    public int width() {
        return shape.width();
    }

    /**
     * Returns d, the rows: {@code ceil(ln(1 / delta))}.
     *
     * @return d
     */
    public int depth() {
        return shape.depth();
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
        return shape.counterBytes() * Byte.SIZE;
    }

    /**
     * Tells whether this sketch uses conservative update (smaller overestimates; {@link FrequencySketch}
     * says what it gives up).
     *
     * @return {@code true} if conservative
     */
    public boolean isConservative() {
        return shape.conservative();
    }

    /** Estimate of the key of this hash: the minimum of its counters, capped at {@link #maxEstimate()}. */
    final long estimateHash(long hash) {
        return estimateOf(hash);
    }

    /** Reads counter {@code column} of {@code row}, unsigned; for tests and the file format. */
    final long counter(int row, long column) {
        return counters.counter(row, column);
    }

    /** Width, depth, counter width, update rule and N, for {@code toString}. */
    final String shapeText() {
        return shape.width() + " x " + shape.depth() + " x " + counterBits() + "-bit"
                + (shape.conservative() ? ", conservative" : "") + ", N " + totalWeight();
    }
}
