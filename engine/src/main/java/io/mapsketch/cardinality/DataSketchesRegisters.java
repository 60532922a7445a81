package io.mapsketch.cardinality;

import io.mapsketch.internal.DataSketchesCoupons;
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
 * {@code SHARED} writer, any fold and any merge of two sketches in HLL mode mark the accumulator out of
 * order: from then on the sketch answers DataSketches' composite estimate, as a union's result does. The
 * sole writer's other merges keep the HIP state as DataSketches' union does ({@link #merge(HyperLogLogRegisters)}).
 * Why, and what it costs, is in {@code docs/design/datasketches-hll.md}.
 *
 * <p>Coupon modes: a file with a coupon area ({@link DataSketchesCoupons}) starts as DataSketches does, in
 * LIST mode; its {@code EXCLUSIVE} writer adds coupons as DataSketches does and promotes them to the
 * registers at DataSketches' count, the HIP accumulator starting at the coupon estimate. Until then every
 * opener answers DataSketches' coupon estimate from the coupons. A {@code SHARED} writer's add, its merge
 * of a sketch that is not empty and any such fold promote first (a {@code SHARED} writer's promotion leaves
 * the accumulator out of order, as its raises do); the sole writer's merges stay in the coupon modes where
 * DataSketches' union does.
 *
 * <p>Cost: an add that raises nothing is a load and a compare, as for the native scheme; a raise of the
 * sole writer adds a division and a few additions; a composite estimate outside the sole writer is one
 * histogram pass over the registers.
 */
final class DataSketchesRegisters extends HyperLogLogRegisters {

    /** Where a coupon's value starts. */
    private static final int VALUE_SHIFT = 26;

    private final long slotMask;
    /** Whether this sketch keeps the HIP state: the sole writer. */
    private final boolean keepsHip;
    /** The sole writer's HIP state, or {@code null}. */
    private final DataSketchesHip hip;
    /** Whether this {@code SHARED} writer has marked the line's accumulator out of order. */
    private boolean marked;
    /** The coupon area, or {@code null} in a file without one. */
    private final DataSketchesCoupons coupons;
    /** Whether this writer adds coupons: the file was in a coupon mode when it last looked. */
    private boolean couponMode;
    /** The coupon-mode estimates, or {@code null} in a file without a coupon area. */
    private final DataSketchesCouponReads couponReads;

    private DataSketchesRegisters(
            AtomicSegment words,
            int precision,
            boolean shared,
            HyperLogLogSummaryLine line,
            boolean soleWriter,
            HyperLogLog sketch,
            boolean couponArea) {
        super(words, precision, shared, line, soleWriter, sketch);
        this.slotMask = (1L << precision) - 1;
        this.keepsHip = soleWriter;
        this.coupons = couponArea ? line.coupons(bytes, precision) : null;
        this.couponMode = couponArea && DataSketchesCoupons.mode(coupons.word()) != DataSketchesCoupons.HLL;
        this.couponReads = couponArea ? new DataSketchesCouponReads(coupons, precision) : null;
        this.hip = soleWriter ? new DataSketchesHip(precision) : null;
        if (keepsHip) {
            hip.accumulator = line.hipAccumulator();
            hip.outOfOrder = !line.hipInOrder();
            hip.recount(bytes);
        }
    }

    /** The registers of a sketch of this scheme, typed as the base class so that naming this method loads nothing. */
    static HyperLogLogRegisters create(
            AtomicSegment words,
            int precision,
            boolean shared,
            HyperLogLogSummaryLine line,
            boolean soleWriter,
            HyperLogLog sketch,
            boolean couponArea) {
        return new DataSketchesRegisters(words, precision, shared, line, soleWriter, sketch, couponArea);
    }

    /** Raises the coupon's slot to its value if it is lower; returns whether it was. */
    @Override
    boolean add(long coupon) {
        if (couponMode && (coupon >>> VALUE_SHIFT == 0 || keepsHip)) {
            return coupon >>> VALUE_SHIFT != 0 && addCoupon((int) coupon);
        }
        if (couponMode) {
            promoteShared();
        }
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
            hip.raise(current, value);
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

    /** The sole writer's add in a coupon mode, as DataSketches adds; returns whether the coupon was new. */
    private boolean addCoupon(int coupon) {
        int added = coupons.insert(coupon);
        if (added == DataSketchesCoupons.HELD) {
            return false;
        }
        if (added == DataSketchesCoupons.PROMOTE) {
            promote();
        }
        sketch.noteChange();
        return true;
    }

    /**
     * The sole writer's promotion, as DataSketches promotes: the coupons raise their slots, the HIP accumulator
     * starts, in order, at the coupon estimate of their count, and the kept numbers are recounted.
     */
    private void promote() {
        int[] held = coupons.coupons();
        DataSketchesCouponReads.raise(bytes, held, precision);
        hip.accumulator = DataSketchesHllEstimators.couponEstimate(held.length);
        hip.outOfOrder = false;
        hip.recount(bytes);
        line.replace(HyperLogLogEstimates.summary(bytes, precision, line.top()));
        coupons.finish();
        couponMode = false;
        sketch.noteChange();
    }

    /**
     * A {@code SHARED} writer's promotion: the coupons raise their slots atomically, as adds would, then the
     * word leaves the coupon modes. Other writers do not change the coupons (only the sole writer does), so
     * two such promotions raise the same registers; readers answer from the coupons until the word moves.
     */
    private void promoteShared() {
        int[] held = coupons.coupons();
        if (held != null) {
            for (int coupon : held) {
                raiseShared(coupon & slotMask, coupon >>> VALUE_SHIFT);
            }
            coupons.finishShared();
        }
        couponMode = false;
    }

    /** Before a merge or fold of a sketch that is not empty: a sketch in a coupon mode promotes. */
    private void promoteFirst() {
        if (!couponMode) {
            return;
        }
        if (keepsHip) {
            promote();
        } else if (shared) {
            promoteShared();
        }
    }

    /** The coupon-mode estimate inputs ({@link DataSketchesCouponReads#snapshot}), or {@code null}. */
    @Override
    HyperLogLogEstimates.Snapshot couponSnapshot() {
        return couponReads == null ? null : couponReads.snapshot();
    }

    /** The registers a merge or fold reads: the coupons' in a coupon mode. */
    @Override
    MemorySegment view() {
        MemorySegment raised = couponReads == null ? null : couponReads.registers();
        return raised == null ? bytes : raised;
    }

    /** The coupon table a LIST or SET image holds, or {@code null} once the file answers from its registers. */
    @Override
    int[] couponTable() {
        return coupons == null ? null : coupons.table();
    }

    /**
     * Starts a new sketch in a coupon mode: an empty LIST, or DataSketches' table ({@link DataSketchesCoupons#start}).
     *
     * @throws IllegalArgumentException if the file has no coupon area or the table is not DataSketches'
     */
    void startCoupons(int[] table) {
        if (coupons == null) {
            throw new IllegalArgumentException("coupons: the sketch has no coupon area");
        }
        if (table == null) {
            coupons.startList();
        } else {
            coupons.start(table);
        }
        couponMode = true;
        sketch.noteChange();
    }

    /** A merge, a fold or a {@code SHARED} raise: the accumulator no longer answers. */
    @Override
    void changing() {
        if (keepsHip) {
            hip.outOfOrder = true;
        } else if (!marked) {
            line.markOutOfOrder();
            marked = true;
        }
    }

    /**
     * Merges a sketch of this scheme and precision. The sole writer merges as DataSketches' union takes a sketch
     * of its lgK into its gadget: a source in a coupon mode adds its coupons in table order (the HIP accumulator
     * goes on as for adds); a source in HLL mode into this sketch in a coupon mode leaves the source's registers
     * and HIP state (in order or not) with this sketch's coupons then added; HLL mode into HLL mode takes the
     * register maximum, out of order. Other writers promote first and take the register maximum, out of order.
     */
    @Override
    boolean merge(HyperLogLogRegisters source) {
        if (!keepsHip || !(source instanceof DataSketchesRegisters other)) {
            return merge(source.view());
        }
        int[] table = other.couponTable();
        if (table != null) {
            boolean changed = false;
            for (int coupon : table) {
                if (coupon != 0) {
                    changed |= add(Integer.toUnsignedLong(coupon));
                }
            }
            return changed;
        }
        if (!couponMode || DataSketchesCouponReads.isEmpty(other.view(), registers)) {
            return merge(other.view());
        }
        int[] held = coupons.coupons();
        double accumulator = other.accumulatorAfter(held);
        boolean inOrder = other.sketch.estimator() == CardinalityEstimator.DATASKETCHES_HIP;
        promote();
        merge(other.view());
        hip.accumulator = accumulator;
        hip.outOfOrder = !inOrder;
        sketch.noteChange();
        return true;
    }

    /**
     * The HIP accumulator this sketch's HLL_8 copy reaches after further coupons, in order, as DataSketches
     * updates one. Cost: a heap copy of the registers and one histogram pass.
     */
    private double accumulatorAfter(int[] further) {
        MemorySegment copy = MemorySegment.ofArray(view().asSlice(0, registers).toArray(ValueLayout.JAVA_BYTE));
        DataSketchesHip state = new DataSketchesHip(precision);
        state.recount(copy);
        state.accumulator = hipAccumulator();
        for (int coupon : further) {
            long slot = coupon & slotMask;
            int value = coupon >>> VALUE_SHIFT;
            int current = copy.get(ValueLayout.JAVA_BYTE, slot);
            if (value > current) {
                state.raise(current, value);
                copy.set(ValueLayout.JAVA_BYTE, slot, (byte) value);
            }
        }
        return state.accumulator;
    }

    @Override
    boolean merge(MemorySegment source) {
        if (couponMode && !DataSketchesCouponReads.isEmpty(source, registers)) {
            promoteFirst();
        }
        boolean changed = super.merge(source);
        if (changed && keepsHip) {
            hip.recount(bytes);
        }
        return changed;
    }

    @Override
    boolean fold(HyperLogLogRegisters source) {
        if (couponMode && source.precision >= precision && !DataSketchesCouponReads.isEmpty(source.view(), registers)) {
            promoteFirst();
        }
        boolean changed = super.fold(source);
        if (changed && keepsHip) {
            hip.recount(bytes);
        }
        return changed;
    }

    /** DataSketches folds a larger sketch by slot: the largest of the registers whose low p bits are the slot. */
    @Override
    int foldedValue(MemorySegment view, long register, int precision) {
        return HyperLogLogLayout.foldedSlotValue(view, register, precision, this.precision - precision);
    }

    @Override
    int top(int precision) {
        return HyperLogLogLayout.DATASKETCHES_MAX_VALUE;
    }

    /**
     * The classic estimate from a histogram pass: with values to 63 at every precision the summary's power
     * sum wraps modulo 2^64, so the sum of {@code 2^-value} is taken from the registers. In LIST or SET mode
     * no register holds a key yet: the coupon estimate answers.
     */
    @Override
    double classicEstimate(HyperLogLogEstimates.Snapshot snapshot) {
        if (couponTable() != null) {
            return snapshot.estimate();
        }
        long[] histogram = new long[RegisterKernels.HISTOGRAM_LENGTH];
        RegisterKernels.histogram(bytes, 0, registers, histogram);
        return HyperLogLogEstimator.classicOfSum(
                DataSketchesHip.kxqHalf(histogram, 0, HyperLogLogLayout.DATASKETCHES_MAX_VALUE + 1),
                histogram[0],
                precision);
    }

    /** The sole writer's accumulator, any other sketch's the line's. */
    @Override
    double hipAccumulator() {
        return keepsHip ? hip.accumulator : line.hipAccumulator();
    }

    /** Stores the sole writer's accumulator and order into the line, before it detaches. */
    @Override
    void storeKept() {
        line.storeHip(hip.accumulator, hip.outOfOrder);
    }

    /**
     * Starts the accumulator at {@code accumulator}, in order: an imported sketch's, after its registers
     * were raised (which marked it out of order). The sole writer's change makes its kept snapshot stale.
     */
    void resume(double accumulator) {
        if (keepsHip) {
            hip.accumulator = accumulator;
            hip.outOfOrder = false;
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
            return hip.outOfOrder
                    ? new ForeignEstimate(CardinalityEstimator.DATASKETCHES_COMPOSITE, hip.composite())
                    : new ForeignEstimate(CardinalityEstimator.DATASKETCHES_HIP, hip.accumulator);
        }
        if (lineTrusted && line.hipInOrder()) {
            return new ForeignEstimate(CardinalityEstimator.DATASKETCHES_HIP, line.hipAccumulator());
        }
        return new ForeignEstimate(
                CardinalityEstimator.DATASKETCHES_COMPOSITE, DataSketchesHip.composite(bytes, precision));
    }
}
