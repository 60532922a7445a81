package io.mapsketch.frequency;

import io.mapsketch.internal.KeyTableBuilder;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;

/**
 * Builds a Count-Min table from its key capacity, every key's shape (epsilon and delta, or width and depth
 * directly, and the counter width, as {@link CountMinSketch#builder()} takes them) and the heap bytes per key
 * (at least 16, {@value #DEFAULT_BYTES_PER_KEY} when not set). Each key's sketch is d rows of w counters,
 * each row rounded up to 64 bytes (epsilon 0.01 and delta 0.01: 272 x 5 32-bit counters, 5,440 bytes); the
 * heap holds each key's record, 16 bytes and its bytes padded to 8, so the default takes keys of up to 48
 * bytes. The file is about {@code N x (bytesPerKey + the sketch's bytes)} plus 11 to 22 bytes of key index
 * per key ({@code docs/design/tables.md}).
 */
@SuppressWarnings("exports")
public final class CountMinTableBuilder extends KeyTableBuilder<CountMinTableBuilder, CountMinTable> {

    /** The heap bytes per key when none are set: the record of a key of up to 48 bytes. */
    public static final long DEFAULT_BYTES_PER_KEY = 64;

    private double epsilon;
    private double delta;
    private int counterBits = 32;

    CountMinTableBuilder() {
        super(DEFAULT_BYTES_PER_KEY, 16);
    }

    /**
     * Sets epsilon, each key's error as a fraction of its total weight: width {@code ceil(e / epsilon)}.
     * Required, or {@link #dimensions}.
     *
     * @param epsilon in (0, 1)
     * @return this builder
     * @throws IllegalArgumentException if out of range or the width would pass 2^31 - 1
     */
    public CountMinTableBuilder epsilon(double epsilon) {
        CountMinSizing.width(epsilon);
        this.epsilon = epsilon;
        return this;
    }

    /**
     * Sets delta, the probability that a key's estimate exceeds its error bound: depth
     * {@code ceil(ln(1 / delta))}. Required, or {@link #dimensions}.
     *
     * @param delta in (0, 1)
     * @return this builder
     * @throws IllegalArgumentException if out of range
     */
    public CountMinTableBuilder delta(double delta) {
        CountMinSizing.depth(delta);
        this.delta = delta;
        return this;
    }

    /**
     * Sets every key's counter shape directly, as {@link CountMinSketch.Builder#dimensions} does, in place of
     * {@link #epsilon} and {@link #delta}.
     *
     * @param width counters per row, in [3, 2^31 - 1]
     * @param depth rows, in [1, {@value FrequencySketch#MAX_DEPTH}]
     * @return this builder
     * @throws IllegalArgumentException if either is out of range
     */
    public CountMinTableBuilder dimensions(int width, int depth) {
        double e = CountMinSizing.epsilonOfWidth(width);
        this.delta = CountMinSizing.deltaOfDepth(depth);
        this.epsilon = e;
        return this;
    }

    /**
     * Sets the counter width: 32 bits (saturate at {@code 2^32 - 1}) or 64 bits. Default 32.
     *
     * @param bits 32 or 64
     * @return this builder
     * @throws IllegalArgumentException if neither
     */
    public CountMinTableBuilder counterBits(int bits) {
        CountMinFormat.requireCounterBits(bits);
        this.counterBits = bits;
        return this;
    }

    @Override
    protected CountMinTableBuilder self() {
        return this;
    }

    /**
     * The table's shape.
     *
     * @throws IllegalArgumentException if a key's sketch would pass 1 GiB, or delta is below what the 64-bit
     *     hash honours at this epsilon
     */
    @Override
    protected CountMinTableFormat format() {
        requireSet("epsilon", epsilon != 0);
        requireSet("delta", delta != 0);
        return CountMinTableFormat.sized(CountMinFormat.of(epsilon, delta, counterBits, false), tableParameters());
    }

    @Override
    protected CountMinTable wrap(SketchRegion region) throws IOException {
        return CountMinTable.read(region);
    }
}
