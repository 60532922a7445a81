package io.mapsketch.cardinality;

import io.mapsketch.kernels.RegisterKernels;
import java.lang.foreign.MemorySegment;

/**
 * Redis's {@code PFCOUNT} of 16,384 registers, as {@code hllCount} computes it: the register histogram
 * {@code C}, then {@code z = m tau((m - C_51) / m)}, then for {@code j} from 50 down to 1 {@code z = (z + C_j) / 2},
 * then {@code z += m sigma(C_0 / m)}, and the count is {@code alpha_inf m^2 / z} rounded half away from
 * zero. The same series ({@link HyperLogLogEstimator#tau}, {@link HyperLogLogEstimator#sigma}) and the
 * same order of double operations as Redis, so the same integer; the Horner form rounds at each step,
 * which is why it is not {@link HyperLogLogEstimator#improved} of the exact power sum (the two can differ
 * by units in the last place, and so, rarely, in the rounded integer). Cost: one histogram pass over the
 * registers and O(64) arithmetic.
 */
final class RedisCountEstimator {

    /** Redis's registers: precision 14. */
    static final int PRECISION = 14;
    /** Redis's largest rank: 64 - 14 + 1. */
    private static final int TOP = Long.SIZE - PRECISION + 1;
    /** Redis's {@code HLL_ALPHA_INF}, the literal it writes for 1 / (2 ln 2). */
    private static final double ALPHA_INF = 0.721347520444481703680;

    private RedisCountEstimator() {}

    /** The {@code PFCOUNT} of the 2^14 one-byte registers from {@code offset} of {@code registers}. */
    static long count(MemorySegment registers, long offset) {
        long[] histogram = new long[RegisterKernels.HISTOGRAM_LENGTH];
        RegisterKernels.histogram(registers, offset, 1L << PRECISION, histogram);
        return count(histogram);
    }

    /** The {@code PFCOUNT} of a register histogram: {@code histogram[r]} registers hold r. */
    static long count(long[] histogram) {
        double m = 1 << PRECISION;
        double z = m * HyperLogLogEstimator.tau((m - histogram[TOP]) / m);
        for (int j = TOP - 1; j >= 1; j--) {
            z += histogram[j];
            z *= 0.5;
        }
        z += m * HyperLogLogEstimator.sigma(histogram[0] / m);
        return Math.round(ALPHA_INF * m * m / z);
    }
}
