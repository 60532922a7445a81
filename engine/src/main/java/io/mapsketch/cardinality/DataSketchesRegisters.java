package io.mapsketch.cardinality;

import io.mapsketch.internal.DataSketchesHllEstimators;
import io.mapsketch.kernels.RegisterKernels;
import io.mapsketch.memory.AtomicSegment;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The registers of a HyperLogLog of DataSketches' scheme ({@code DATASKETCHES_MURMUR3_128}): the hash of
 * a key is DataSketches' coupon, {@code value << 26 | address}, whose slot is the low p bits and whose
 * value (1 to 63) is the register's candidate. The {@code EXCLUSIVE} writer keeps DataSketches' HIP state
 * as an HLL_8 sketch does: before each raise the HIP accumulator grows by {@code 2^p / (kxq0 + kxq1)},
 * then the register's term {@code 2^-value} moves between the two exact halves of the sum (values below
 * 32 in kxq0); it stores the accumulator in the summary line when it closes. Any change by a
 * {@code SHARED} writer, and any merge or fold, marks the accumulator out of order: from then on the
 * sketch answers DataSketches' composite estimate, as a union's result does. Why, and what it costs,
 * is in {@code docs/design/datasketches-hll.md}.
 *
 * <p>Cost: an add that raises nothing is a load and a compare, as for the native scheme; a raise of the
 * sole writer adds a division and a few additions; a composite estimate outside the sole writer is one
 * histogram pass over the registers.
 */
final class DataSketchesRegisters extends HyperLogLogRegisters {

    /** Where a coupon's value starts. */
    private static final int VALUE_SHIFT = 26;
    /** Values below this go to kxq0, the others to kxq1. */
    private static final int KXQ0_VALUES = 32;

    private final long slotMask;
    /** The number of registers, as the HIP increment's numerator. */
    private final double k;
    /** Whether this sketch keeps the HIP state: the sole writer. */
    private final boolean keepsHip;
    /** The sole writer's HIP accumulator. */
    private double hip;
    /** The sole writer's sum of {@code 2^-value} over the registers below 32, exact. */
    private double kxq0;
    /** The sole writer's sum of {@code 2^-value} over the registers of 32 and more, exact. */
    private double kxq1;
    /** The sole writer's number of registers at 0. */
    private long zeros;
    /** Whether the sole writer's accumulator no longer answers. */
    private boolean outOfOrder;
    /** Whether this {@code SHARED} writer has marked the line's accumulator out of order. */
    private boolean marked;

    private DataSketchesRegisters(
            AtomicSegment words,
            int precision,
            boolean shared,
            HyperLogLogSummaryLine line,
            boolean soleWriter,
            HyperLogLog sketch) {
        super(words, precision, shared, line, soleWriter, sketch);
        this.slotMask = (1L << precision) - 1;
        this.k = 1 << precision;
        this.keepsHip = soleWriter;
        if (keepsHip) {
            hip = line.hipAccumulator();
            outOfOrder = !line.hipInOrder();
            recount();
        }
    }

    /** The registers of a sketch of this scheme, typed as the base class so that naming this method loads nothing. */
    static HyperLogLogRegisters create(
            AtomicSegment words,
            int precision,
            boolean shared,
            HyperLogLogSummaryLine line,
            boolean soleWriter,
            HyperLogLog sketch) {
        return new DataSketchesRegisters(words, precision, shared, line, soleWriter, sketch);
    }

    /** Raises the coupon's slot to its value if it is lower; returns whether it was. */
    @Override
    boolean add(long coupon) {
        long index = coupon & slotMask;
        int value = (int) (coupon >>> VALUE_SHIFT);
        int current = bytes.get(ValueLayout.JAVA_BYTE, index);
        if (current >= value) {
            return false;
        }
        if (shared) {
            return raiseShared(index, value);
        }
        if (keepsHip) {
            raiseKept(current, value);
        }
        bytes.set(ValueLayout.JAVA_BYTE, index, (byte) value);
        if (line != null) {
            int top = line.top();
            line.addKept(RegisterDeltas.counts(current, value, top), RegisterDeltas.powerSum(current, value, top));
            sketch.noteChange();
        }
        return true;
    }

    /** Raises the registers of a batch of coupons, in order, as {@link #add} does one at a time. */
    @Override
    void addAll(long[] coupons, int from, int count) {
        for (int i = from; i < from + count; i++) {
            add(coupons[i]);
        }
    }

    /** The HIP accumulator's growth and the kxq sums' move of one raise, before the register changes. */
    private void raiseKept(int current, int value) {
        hip += k / (kxq0 + kxq1);
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

    /** A merge, a fold or a {@code SHARED} raise: the accumulator no longer answers. */
    @Override
    void changing() {
        if (keepsHip) {
            outOfOrder = true;
        } else if (!marked) {
            line.markOutOfOrder();
            marked = true;
        }
    }

    @Override
    boolean merge(MemorySegment source) {
        boolean changed = super.merge(source);
        if (changed && keepsHip) {
            recount();
        }
        return changed;
    }

    @Override
    boolean fold(HyperLogLogRegisters source) {
        boolean changed = super.fold(source);
        if (changed && keepsHip) {
            recount();
        }
        return changed;
    }

    /** DataSketches folds a larger sketch by slot: the largest of the registers whose low p bits are the slot. */
    @Override
    int foldedValue(long register, int precision) {
        return HyperLogLogLayout.foldedSlotValue(bytes, register, precision, this.precision - precision);
    }

    @Override
    int top(int precision) {
        return HyperLogLogLayout.DATASKETCHES_MAX_VALUE;
    }

    /**
     * The classic estimate from a histogram pass: with values to 63 at every precision the summary's power
     * sum wraps modulo 2^64, so the sum of {@code 2^-value} is taken from the registers.
     */
    @Override
    double classicEstimate(HyperLogLogEstimates.Snapshot snapshot) {
        long[] histogram = new long[RegisterKernels.HISTOGRAM_LENGTH];
        RegisterKernels.histogram(bytes, 0, registers, histogram);
        return HyperLogLogEstimator.classicOfSum(
                kxqHalf(histogram, 0, HyperLogLogLayout.DATASKETCHES_MAX_VALUE + 1), histogram[0], precision);
    }

    /** The sole writer's accumulator, any other sketch's the line's. */
    @Override
    double hipAccumulator() {
        return keepsHip ? hip : line.hipAccumulator();
    }

    /** Stores the sole writer's accumulator and order into the line, before it detaches. */
    @Override
    void storeKept() {
        line.storeHip(hip, outOfOrder);
    }

    /**
     * Starts the accumulator at {@code accumulator}, in order: an imported sketch's, after its registers
     * were raised (which marked it out of order). The sole writer's change makes its kept snapshot stale.
     */
    void resume(double accumulator) {
        if (keepsHip) {
            hip = accumulator;
            outOfOrder = false;
            sketch.noteChange();
        } else {
            line.storeHip(accumulator, false);
            marked = false;
        }
    }

    /**
     * DataSketches' estimate: the sole writer's accumulator while in order, else the composite estimate of
     * its sums; another sketch answers the line's accumulator while the line is trusted and in order, else
     * the composite estimate of a histogram pass.
     */
    @Override
    ForeignEstimate foreignEstimate(boolean kept, boolean lineTrusted) {
        if (kept) {
            return outOfOrder
                    ? new ForeignEstimate(CardinalityEstimator.DATASKETCHES_COMPOSITE, composite(kxq0 + kxq1, zeros))
                    : new ForeignEstimate(CardinalityEstimator.DATASKETCHES_HIP, hip);
        }
        if (lineTrusted && line.hipInOrder()) {
            return new ForeignEstimate(CardinalityEstimator.DATASKETCHES_HIP, line.hipAccumulator());
        }
        return new ForeignEstimate(CardinalityEstimator.DATASKETCHES_COMPOSITE, composite(bytes, precision));
    }

    /** DataSketches' composite estimate of 2^p registers, from one histogram pass. */
    static double composite(MemorySegment registers, int precision) {
        long[] histogram = new long[RegisterKernels.HISTOGRAM_LENGTH];
        RegisterKernels.histogram(registers, 0, 1L << precision, histogram);
        return DataSketchesHllEstimators.compositeEstimate(
                precision,
                kxqHalf(histogram, 0, KXQ0_VALUES)
                        + kxqHalf(histogram, KXQ0_VALUES, HyperLogLogLayout.DATASKETCHES_MAX_VALUE + 1),
                0,
                (int) histogram[0]);
    }

    /**
     * The sum of {@code 2^-value} over the registers of values {@code [from, to)} of a histogram, exact
     * for either half of DataSketches' split (every term of a half is a multiple of its smallest power).
     */
    private static double kxqHalf(long[] histogram, int from, int to) {
        double sum = 0;
        for (int value = from; value < to; value++) {
            sum += Math.scalb((double) histogram[value], -value);
        }
        return sum;
    }

    private double composite(double kxqSum, long zeroRegisters) {
        return DataSketchesHllEstimators.compositeEstimate(precision, kxqSum, 0, (int) zeroRegisters);
    }

    /** Recounts the sole writer's sums and zeros from the registers. */
    private void recount() {
        long[] histogram = new long[RegisterKernels.HISTOGRAM_LENGTH];
        RegisterKernels.histogram(bytes, 0, registers, histogram);
        kxq0 = kxqHalf(histogram, 0, KXQ0_VALUES);
        kxq1 = kxqHalf(histogram, KXQ0_VALUES, HyperLogLogLayout.DATASKETCHES_MAX_VALUE + 1);
        zeros = histogram[0];
    }

    /** {@code 2^-value}, exactly. */
    private static double inversePowerOfTwo(int value) {
        return Double.longBitsToDouble((1023L - value) << 52);
    }
}
