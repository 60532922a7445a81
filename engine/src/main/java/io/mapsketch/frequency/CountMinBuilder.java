package io.mapsketch.frequency;

import io.mapsketch.SketchBuilder;

/**
 * What the builders of Count-Min sketches and of Top-K sketches (a Count-Min sketch plus
 * candidates) share: epsilon and delta, the counter width and conservative update.
 *
 * @param <B> the concrete builder, returned by the chaining methods
 * @param <S> the sketch it builds
 */
public abstract sealed class CountMinBuilder<B extends CountMinBuilder<B, S>, S extends FrequencySketch>
        extends SketchBuilder<B, S> permits CountMinSketch.Builder, TopK.Builder {

    private double epsilon;
    private double delta;
    private int counterBits = 32;
    private boolean conservative;

    CountMinBuilder() {}

    /**
     * Sets epsilon, the error as a fraction of the total weight N: width {@code ceil(e / epsilon)}.
     * Required.
     *
     * @param epsilon in (0, 1); 0.001 gives 2,719 counters per row
     * @return this builder
     * @throws IllegalArgumentException if out of range or the width would pass 2^31 - 1
     */
    public B epsilon(double epsilon) {
        CountMinSizing.width(epsilon);
        this.epsilon = epsilon;
        return self();
    }

    /**
     * Sets delta, the probability that an estimate exceeds {@code ceil(epsilon N)}: depth
     * {@code ceil(ln(1 / delta))}. Required. Creation refuses a delta below
     * {@link CountMinSizing#lowestDelta(double) 2^-64 / epsilon}, which the 64-bit hash cannot honour.
     *
     * @param delta in (0, 1); 0.01 gives 5 rows
     * @return this builder
     * @throws IllegalArgumentException if out of range
     */
    public B delta(double delta) {
        CountMinSizing.depth(delta);
        this.delta = delta;
        return self();
    }

    /**
     * Sets the counter matrix's shape directly, as RedisBloom's CMS.INITBYDIM does, in place of
     * {@link #epsilon} and {@link #delta}: the file records the epsilon and delta that size to exactly
     * {@code width} x {@code depth} (epsilon about e / width, delta about e^-depth).
     *
     * @param width counters per row, in [3, 2^31 - 1] (epsilon must stay below 1)
     * @param depth rows, in [1, {@value FrequencySketch#MAX_DEPTH}]
     * @return this builder
     * @throws IllegalArgumentException if either is out of range
     */
    public B dimensions(int width, int depth) {
        double e = CountMinSizing.epsilonOfWidth(width);
        this.delta = CountMinSizing.deltaOfDepth(depth);
        this.epsilon = e;
        return self();
    }

    /**
     * Sets the counter width: 32 bits (saturate at {@code 2^32 - 1}, half the memory) or 64
     * bits. Default 32.
     *
     * @param bits 32 or 64
     * @return this builder
     * @throws IllegalArgumentException if neither
     */
    public B counterBits(int bits) {
        CountMinFormat.requireCounterBits(bits);
        this.counterBits = bits;
        return self();
    }

    /**
     * Chooses conservative update: smaller overestimates, still never an undercount; merges and
     * concurrent updates lose exactness (see {@link CountMinSketch}). Default off.
     *
     * @param conservative {@code true} for conservative update
     * @return this builder
     */
    public B conservativeUpdate(boolean conservative) {
        this.conservative = conservative;
        return self();
    }

    /** The Count-Min shape asked for; refuses a build whose epsilon or delta is missing. */
    final CountMinFormat countMinFormat() {
        requireSet("epsilon", epsilon != 0);
        requireSet("delta", delta != 0);
        return CountMinFormat.of(epsilon, delta, counterBits, conservative);
    }
}
