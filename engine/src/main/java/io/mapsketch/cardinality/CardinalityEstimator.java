package io.mapsketch.cardinality;

import io.mapsketch.memory.HashScheme;

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
    REDIS_PFCOUNT,
    /**
     * DataSketches' HIP estimate (historic inverse probability): the accumulator an HLL sketch grows at every
     * raise of a register, kept by the {@code EXCLUSIVE} writer of a sketch that hashes as DataSketches does,
     * so that it answers DataSketches' {@code getEstimate()} of the same updates in the same order.
     */
    DATASKETCHES_HIP,
    /**
     * DataSketches' composite estimate: the raw HLL estimate corrected through DataSketches' table and
     * pasted with linear counting below about 3k, as DataSketches answers for a sketch out of order (a
     * union's result); a sketch that hashes as DataSketches does answers it once a {@code SHARED} writer,
     * a merge or a fold has changed it, and outside its {@code EXCLUSIVE} writer while that writer is open.
     */
    DATASKETCHES_COMPOSITE,
    /**
     * DataSketches' coupon estimate: the number of distinct coupons (a key's slot address and value) mapped
     * through DataSketches' interpolation table, as DataSketches answers in its LIST and SET modes; a sketch
     * that hashes as DataSketches does answers it until it holds as many coupons as DataSketches promotes at.
     */
    DATASKETCHES_COUPON;

    /** The estimator a hash scheme calls for; for DataSketches', the HIP estimate while its state allows. */
    static CardinalityEstimator of(HashScheme scheme) {
        return switch (scheme) {
            case REDIS_HLL -> REDIS_PFCOUNT;
            case DATASKETCHES_MURMUR3_128 -> DATASKETCHES_HIP;
            default -> IMPROVED;
        };
    }
}
