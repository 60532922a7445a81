package io.mapsketch.cardinality;

import io.mapsketch.internal.DataSketchesCoupons;
import io.mapsketch.internal.DataSketchesHllEstimators;
import io.mapsketch.kernels.RegisterKernels;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * What a HyperLogLog of DataSketches' scheme answers while its file is in DataSketches' LIST or SET mode
 * ({@link DataSketchesCoupons}), for any opener: DataSketches' coupon estimate of the coupon count, beside
 * the summary of the registers the coupons would raise, and those registers for a merge, a fold or a union;
 * and the raise of registers by coupons that a promotion makes. Cost: a snapshot is a load of the coupon
 * word while it has not moved, else a copy of the table and a pass over the {@code 2^p} registers it raises.
 */
final class DataSketchesCouponReads {

    /** Where a coupon's value starts. */
    private static final int VALUE_SHIFT = 26;

    private final DataSketchesCoupons coupons;
    private final int precision;
    /** The last snapshot, with the coupon word it was taken at; replaced, never changed. */
    private volatile CouponSnapshot last;

    DataSketchesCouponReads(DataSketchesCoupons coupons, int precision) {
        this.coupons = coupons;
        this.precision = precision;
    }

    /**
     * The coupon-mode estimate inputs, or {@code null} once the file answers from its registers: the coupon
     * estimate of the count, and the summary of the registers the coupons would raise; taken again only
     * when the coupon word moved.
     */
    HyperLogLogEstimates.Snapshot snapshot() {
        long word = coupons.word();
        if (DataSketchesCoupons.mode(word) == DataSketchesCoupons.HLL) {
            return null;
        }
        CouponSnapshot seen = last;
        if (seen != null && seen.word() == word) {
            return seen.snapshot();
        }
        int[] held = coupons.coupons();
        if (held == null) {
            return null;
        }
        MemorySegment raised = MemorySegment.ofArray(new byte[1 << precision]);
        raise(raised, held, precision);
        long[] summary = HyperLogLogEstimates.summary(raised, precision, HyperLogLogLayout.DATASKETCHES_MAX_VALUE);
        HyperLogLogEstimates.Snapshot snapshot = new HyperLogLogEstimates.Snapshot(
                HyperLogLogSummaryLine.UNTRUSTED,
                summary[RegisterKernels.ZEROS],
                summary[RegisterKernels.AT_TOP],
                summary[RegisterKernels.POWER_SUM],
                DataSketchesHllEstimators.couponEstimate(held.length),
                CardinalityEstimator.DATASKETCHES_COUPON);
        if (coupons.word() == word) {
            last = new CouponSnapshot(word, snapshot);
        }
        return snapshot;
    }

    /** A snapshot and the coupon word it was taken at. */
    private record CouponSnapshot(long word, HyperLogLogEstimates.Snapshot snapshot) {}

    /** The registers the coupons raise, on the heap, or {@code null} once the file answers from its registers. */
    MemorySegment registers() {
        int[] held = coupons.coupons();
        if (held == null) {
            return null;
        }
        MemorySegment raised = MemorySegment.ofArray(new byte[1 << precision]);
        raise(raised, held, precision);
        return raised;
    }

    /** Raises registers of precision p to the coupons' values, plainly. */
    static void raise(MemorySegment registers, int[] coupons, int precision) {
        long slotMask = (1L << precision) - 1;
        for (int coupon : coupons) {
            long slot = coupon & slotMask;
            int value = coupon >>> VALUE_SHIFT;
            if (registers.get(ValueLayout.JAVA_BYTE, slot) < value) {
                registers.set(ValueLayout.JAVA_BYTE, slot, (byte) value);
            }
        }
    }

    /**
     * The only writer's open of a file whose coupons reached DataSketches' promotion count (a writer died
     * promoting them): promotes them as the sole writer's add does, into the file's registers and line, the
     * HIP accumulator starting, in order, at the coupon estimate.
     */
    static void promoteOnOpen(MemorySegment registers, int precision, HyperLogLogSummaryLine line) {
        DataSketchesCoupons coupons = line.coupons(registers, precision);
        if (!coupons.promotionDue()) {
            return;
        }
        int[] held = coupons.coupons();
        raise(registers, held, precision);
        line.recompute(registers);
        line.storeHip(DataSketchesHllEstimators.couponEstimate(held.length), false);
        coupons.finish();
    }

    /** Whether the first {@code count} registers of a segment are all 0 ({@code count} a multiple of 8). */
    static boolean isEmpty(MemorySegment source, long count) {
        for (long offset = 0; offset < count; offset += Long.BYTES) {
            if (source.get(ValueLayout.JAVA_LONG_UNALIGNED, offset) != 0) {
                return false;
            }
        }
        return true;
    }
}
