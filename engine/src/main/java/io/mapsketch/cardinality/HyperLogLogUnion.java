package io.mapsketch.cardinality;

import io.mapsketch.kernels.RegisterKernels;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * The estimate of the union of several HyperLogLog sketches without modifying any
 * ({@link HyperLogLog#estimateUnion}): their registers folded into a heap scratch at the lowest precision
 * among them, by register maximum, then summarised and estimated as a sketch of that precision would be.
 * Folding is exact ({@code docs/design/cardinality.md}), so the answer is the estimate of the merge of them all.
 */
final class HyperLogLogUnion {

    private HyperLogLogUnion() {}

    /**
     * The union's estimate, by the sketches' estimator; of a single sketch, its own estimate.
     *
     * @throws IllegalArgumentException if no sketch is given
     * @throws io.mapsketch.IncompatibleSketchException if the kinds, hash schemes or seeds differ
     * @throws IllegalStateException if a sketch is closed or the union holds a register above the largest rank
     */
    static double estimate(HyperLogLog[] sketches) {
        if (sketches.length == 0) {
            throw new IllegalArgumentException("sketches is empty; the union needs at least one sketch");
        }
        if (sketches.length == 1) {
            return Objects.requireNonNull(sketches[0], "sketch").estimate();
        }
        HyperLogLogRegisters[] sources = new HyperLogLogRegisters[sketches.length];
        for (int s = 0; s < sketches.length; s++) {
            sketches[0].requireSameHashing(Objects.requireNonNull(sketches[s], "sketch"));
            sources[s] = sketches[s].registers;
        }
        return estimate(sources, sketches[0].estimator);
    }

    /**
     * The estimate, by {@code estimator}, of the union of register arrays, folded to the lowest precision
     * among them. Cost: a heap scratch of m bytes, one pass over every source (SIMD for those at the lowest
     * precision) and one summary pass.
     */
    private static double estimate(HyperLogLogRegisters[] sources, CardinalityEstimator estimator) {
        int precision = HyperLogLog.MAX_DATASKETCHES_PRECISION;
        for (HyperLogLogRegisters source : sources) {
            precision = Math.min(precision, source.precision());
        }
        int m = 1 << precision;
        MemorySegment union = MemorySegment.ofArray(new byte[m]);
        for (HyperLogLogRegisters source : sources) {
            int d = source.precision() - precision;
            MemorySegment view = source.view();
            if (d == 0) {
                RegisterKernels.maxUnsignedBytes(union, 0, view, 0, m);
                continue;
            }
            for (long register = 0; register < m; register++) {
                int value = source.foldedValue(view, register, precision);
                if (value > union.get(ValueLayout.JAVA_BYTE, register)) {
                    union.set(ValueLayout.JAVA_BYTE, register, (byte) value);
                }
            }
        }
        int top = sources[0].top(precision);
        long[] summary = HyperLogLogEstimates.summary(union, precision, top);
        if (summary[RegisterKernels.ABOVE_TOP] != 0) {
            throw new IllegalStateException("the union has " + summary[RegisterKernels.ABOVE_TOP]
                    + " registers above the largest rank " + top + "; a sketch's file was corrupted while open");
        }
        return switch (estimator) {
            case IMPROVED -> HyperLogLogEstimates.improved(summary, precision);
            case REDIS_PFCOUNT -> RedisCountEstimator.count(union, 0);
            case DATASKETCHES_HIP, DATASKETCHES_COMPOSITE, DATASKETCHES_COUPON ->
                DataSketchesHip.composite(union, precision);
        };
    }
}
