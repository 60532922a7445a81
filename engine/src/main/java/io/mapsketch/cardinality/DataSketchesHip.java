package io.mapsketch.cardinality;

import io.mapsketch.internal.DataSketchesHllEstimators;
import io.mapsketch.kernels.RegisterKernels;
import java.lang.foreign.MemorySegment;

/**
 * DataSketches' HIP state of an HLL_8 sketch, as its sole writer keeps it: the accumulator, which grows by
 * {@code 2^p / (kxq0 + kxq1)} before each raise, the two exact halves of the sum of {@code 2^-value} over the
 * registers (values below 32 in kxq0) and the number of registers at 0. Cost: a raise is a division and a few
 * additions; a recount one histogram pass.
 */
final class DataSketchesHip {

    /** Values below this go to kxq0, the others to kxq1. */
    private static final int KXQ0_VALUES = 32;

    private final int precision;
    /** The HIP accumulator. */
    double accumulator;
    /** Whether the accumulator no longer answers. */
    boolean outOfOrder;

    private double kxq0;
    private double kxq1;
    private long zeros;

    /** A state of 2^precision registers, its sums to be {@link #recount}ed. */
    DataSketchesHip(int precision) {
        this.precision = precision;
    }

    /** Grows the accumulator and moves the sums for a register raised from {@code current} to {@code value}. */
    void raise(int current, int value) {
        accumulator += (1 << precision) / (kxq0 + kxq1);
        if (current < KXQ0_VALUES) {
            kxq0 -= inversePowerOfTwo(current);
        } else {
            kxq1 -= inversePowerOfTwo(current);
        }
        if (value < KXQ0_VALUES) {
            kxq0 += inversePowerOfTwo(value);
        } else {
            kxq1 += inversePowerOfTwo(value);
        }
        if (current == 0) {
            zeros--;
        }
    }

    /** Recounts the sums and zeros from the registers. */
    void recount(MemorySegment registers) {
        long[] histogram = new long[RegisterKernels.HISTOGRAM_LENGTH];
        RegisterKernels.histogram(registers, 0, 1L << precision, histogram);
        kxq0 = kxqHalf(histogram, 0, KXQ0_VALUES);
        kxq1 = kxqHalf(histogram, KXQ0_VALUES, HyperLogLogLayout.DATASKETCHES_MAX_VALUE + 1);
        zeros = histogram[0];
    }

    /** DataSketches' composite estimate of the sums. */
    double composite() {
        return DataSketchesHllEstimators.compositeEstimate(precision, kxq0 + kxq1, 0, (int) zeros);
    }

    /** DataSketches' composite estimate of 2^p registers, from one histogram pass. */
    static double composite(MemorySegment registers, int precision) {
        DataSketchesHip sums = new DataSketchesHip(precision);
        sums.recount(registers);
        return sums.composite();
    }

    /**
     * The sum of {@code 2^-value} over the registers of values {@code [from, to)} of a histogram, exact
     * for either half of DataSketches' split (every term of a half is a multiple of its smallest power).
     */
    static double kxqHalf(long[] histogram, int from, int to) {
        double sum = 0;
        for (int value = from; value < to; value++) {
            sum += Math.scalb((double) histogram[value], -value);
        }
        return sum;
    }

    /** {@code 2^-value}, exactly. */
    private static double inversePowerOfTwo(int value) {
        return Double.longBitsToDouble((1023L - value) << 52);
    }
}
