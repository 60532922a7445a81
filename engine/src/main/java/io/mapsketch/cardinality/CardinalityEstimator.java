package io.mapsketch.cardinality;

/**
 * Which estimator answers {@link HyperLogLog#estimate()}: the one the sketch's hash scheme calls for,
 * so that a sketch imported from another system counts as that system does.
 */
public enum CardinalityEstimator {
    /**
     * Ertl's improved estimator (2017) over the exact power sum of the registers, as a {@code double}:
     * the estimator of sketches that hash with the native scheme.
     */
    IMPROVED,
    /**
     * Redis's {@code PFCOUNT} ({@code hllCount} of Redis 5 and later): Ertl's improved estimator evaluated
     * as Redis evaluates it, in Horner form over the register histogram, rounded to the nearest integer,
     * so that the answer equals {@code PFCOUNT} of the same registers exactly: the estimator of sketches
     * that hash as Redis does.
     */
    REDIS_PFCOUNT
}
