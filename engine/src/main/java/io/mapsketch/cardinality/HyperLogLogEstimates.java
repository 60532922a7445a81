package io.mapsketch.cardinality;

import io.mapsketch.internal.DataSketchesCoupons;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.kernels.RegisterKernels;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;

/**
 * Where the estimator inputs of one open HyperLogLog come from: the snapshot cached at the summary
 * line's guard, the summary line, the numbers the {@code EXCLUSIVE} writer keeps (whose snapshot the
 * sketch itself holds, so that its repeated estimate is two dependent loads), or a pass of the
 * register summary kernel. Every source gives the same numbers for the same registers, so the same
 * estimate, bit for bit. Why each source may be trusted is in {@code docs/design/cardinality.md}.
 *
 * <p>Cost: a cached snapshot is a load of the guard and a compare;
 * the line or the kept numbers, four loads and O(64) arithmetic; the pass, one SIMD scan of the m
 * registers.
 */
final class HyperLogLogEstimates {

    private static final VarHandle CACHED;

    static {
        try {
            CACHED = MethodHandles.lookup().findVarHandle(HyperLogLogEstimates.class, "cached", Snapshot.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final SketchRegion region;
    /** The sketch as messages name it. */
    private final String name;

    private final MemorySegment registers;
    private final int precision;
    /** The largest register value of the sketch's scheme. */
    private final int top;
    /** The sketch's registers, which make the estimates of a foreign scheme. */
    private final HyperLogLogRegisters sketchRegisters;
    /** The summary line, or {@code null} in a file of format version 1. */
    private final HyperLogLogSummaryLine line;
    /** Whether the sketch is the {@code EXCLUSIVE} writer of a file with a summary line. */
    private final boolean soleWriter;

    /** The estimator a snapshot's estimate is made by. */
    private final CardinalityEstimator estimator;
    /**
     * The last estimate computed from a trusted line, with its guard; replaced, never changed. Published
     * by compare-and-set. Not used by the sole writer.
     */
    @SuppressWarnings("unused")
    private Snapshot cached;
    /**
     * The estimate sources of the registers of {@code region}, whose snapshots carry the estimate by
     * {@code estimator} (Redis's reads the registers once per snapshot, not the line; DataSketches' asks
     * {@code sketchRegisters}). The sole writer takes its line
     * ({@link HyperLogLogSummaryLine#attach}) until {@link #close}, and keeps its own snapshot of the
     * numbers it keeps ({@link #keptSnapshot}).
     */
    HyperLogLogEstimates(
            SketchRegion region,
            String name,
            int precision,
            HyperLogLogSummaryLine line,
            boolean soleWriter,
            CardinalityEstimator estimator,
            HyperLogLogRegisters sketchRegisters) {
        this.region = region;
        this.top = HyperLogLogLayout.maxRank(region.header().hashScheme(), precision);
        this.sketchRegisters = sketchRegisters;
        this.estimator = estimator;
        this.name = name;
        this.registers = region.payload().segment();
        this.precision = precision;
        this.line = line;
        this.soleWriter = soleWriter;
        if (soleWriter) {
            line.attach();
        }
    }

    /**
     * The open-time check of the registers and of the summary line against them
     * ({@link HyperLogLogSummaryLine#checkOnOpen}); a file of format version 1 has its registers checked
     * for valid ranks.
     */
    static void checkOnOpen(SketchRegion region, boolean soleWriter) throws IOException {
        HyperLogLogFormat format = HyperLogLogFormat.read(HeaderReader.of(region));
        int precision = format.precision();
        int top = HyperLogLogLayout.maxRank(region.header().hashScheme(), precision);
        MemorySegment registers = region.payload().segment();
        Path file = region.file().orElse(null);
        HyperLogLogSummaryLine line = HyperLogLogSummaryLine.of(region, precision);
        DataSketchesCoupons coupons = format.couponArea() ? line.coupons(registers, precision) : null;
        if (coupons != null) {
            coupons.check(file, false);
            if (soleWriter) {
                coupons.recover();
            }
            coupons.check(file, soleWriter || region.wasCleanlyClosed());
            if (!soleWriter && DataSketchesCoupons.mode(coupons.word()) != DataSketchesCoupons.HLL) {
                return; // the registers are the sole writer's scratch until the coupons are promoted
            }
        }
        if (line != null) {
            line.checkOnOpen(registers, soleWriter, region.wasCleanlyClosed(), file);
            if (coupons != null && soleWriter) {
                DataSketchesCouponReads.promoteOnOpen(registers, precision, line);
            }
        } else {
            HyperLogLogLayout.requireValidRanks(summary(registers, precision, top), top, file);
        }
    }

    /**
     * Reads the numbers the sole writer keeps into {@code summary} (the layout of
     * {@link HyperLogLogSummaryLine#read}); returns whether they may be trusted ({@code false} in other
     * modes).
     */
    boolean readKept(long[] summary) {
        return soleWriter && line.readKept(summary);
    }

    /**
     * The estimator inputs now, for a sketch that is not the sole writer: the cached snapshot while the
     * line's guard has not moved, else a new one ({@link #snapshot}).
     *
     * @throws IllegalStateException if the sketch is closed or a register holds an impossible rank
     */
    Snapshot current() {
        Snapshot last = (Snapshot) CACHED.getAcquire(this);
        if (last != null && line.guard() == last.stamp()) {
            return last;
        }
        return snapshot(last);
    }

    /**
     * Before the sketch closes: the sole writer gives its line back ({@link HyperLogLogSummaryLine#detach}),
     * and the snapshots are dropped, so that an estimate after the close fails.
     */
    void close() {
        if (soleWriter && !region.isClosed()) {
            sketchRegisters.storeKept();
            line.detach();
        }
        CACHED.setVolatile(this, null);
    }

    /**
     * Reads the summary line if it may be trusted and caches the result in place of {@code seen}, the
     * cache's content before; otherwise summarises the registers in one pass.
     */
    private Snapshot snapshot(Snapshot seen) {
        long[] summary = new long[RegisterKernels.SUMMARY_LENGTH];
        long guard = line == null ? HyperLogLogSummaryLine.UNTRUSTED : line.read(summary);
        if (guard == HyperLogLogSummaryLine.UNTRUSTED) {
            return pass();
        }
        Snapshot snapshot = snapshotOf(guard, summary, false);
        CACHED.compareAndSet(this, seen, snapshot);
        return snapshot;
    }

    /**
     * The sole writer's inputs from the numbers it keeps, or {@code null} if this thread may not read
     * them: only the opener and the thread that made the last change ({@code changer}) read them (their
     * own stores, in their own order), and no thread while a merge of damaged registers leaves them
     * untrusted. The sketch keeps the result until a change.
     *
     * @throws IllegalStateException if the sketch is closed
     */
    Snapshot keptSnapshot(boolean changer) {
        if (region.isClosed()) {
            throw new IllegalStateException(name + " is closed");
        }
        long[] summary = new long[RegisterKernels.SUMMARY_LENGTH];
        return changer && line.readKept(summary) ? snapshotOf(HyperLogLogSummaryLine.UNTRUSTED, summary, true) : null;
    }

    /**
     * Summarises the registers in one pass, refusing registers above the largest rank.
     *
     * @throws IllegalStateException if the sketch is closed or a register holds an impossible rank
     */
    Snapshot pass() {
        long[] summary = summary(registers, precision, top);
        if (summary[RegisterKernels.ABOVE_TOP] != 0) {
            throw new IllegalStateException(name + " has " + summary[RegisterKernels.ABOVE_TOP]
                    + " registers above the largest rank " + top + "; the file was corrupted while open");
        }
        return snapshotOf(HyperLogLogSummaryLine.UNTRUSTED, summary, false);
    }

    /**
     * The snapshot of a summary with its estimate; {@code kept} tells that the summary is the sole
     * writer's own numbers, read by a thread that may read the rest of what it keeps.
     */
    private Snapshot snapshotOf(long stamp, long[] summary, boolean kept) {
        if (estimator != CardinalityEstimator.IMPROVED) {
            return foreignSnapshot(stamp, summary, kept);
        }
        return new Snapshot(
                stamp,
                summary[RegisterKernels.ZEROS],
                summary[RegisterKernels.AT_TOP],
                summary[RegisterKernels.POWER_SUM],
                improved(summary, precision),
                estimator);
    }

    /** The snapshot of a foreign scheme: Redis's count of the registers, or DataSketches' estimate. */
    private Snapshot foreignSnapshot(long stamp, long[] summary, boolean kept) {
        HyperLogLogRegisters.ForeignEstimate foreign =
                sketchRegisters.foreignEstimate(kept, stamp != HyperLogLogSummaryLine.UNTRUSTED);
        return new Snapshot(
                stamp,
                summary[RegisterKernels.ZEROS],
                summary[RegisterKernels.AT_TOP],
                summary[RegisterKernels.POWER_SUM],
                foreign.estimate(),
                foreign.estimator());
    }

    /**
     * What the estimators need, taken at one moment, with the estimate of it and the estimator that made it.
     *
     * @param stamp the summary line's guard it was read at, which identifies that state of the line; or
     *     {@link HyperLogLogSummaryLine#UNTRUSTED} if it comes from a pass over the registers or from the
     *     numbers the sole writer keeps (whose cache a raise clears instead)
     */
    record Snapshot(
            long stamp, long zeros, long saturated, long powerSum, double estimate, CardinalityEstimator estimator) {}

    /**
     * Summarises 2^p registers with the largest rank {@code top}: empty and saturated registers, the
     * registers above the largest rank (a corrupt file), and the power sum of the others.
     */
    static long[] summary(MemorySegment registers, int precision, int top) {
        long[] summary = new long[RegisterKernels.SUMMARY_LENGTH];
        RegisterKernels.summary(registers, 0, 1L << precision, top, summary);
        return summary;
    }

    /** Ertl's improved estimate of a summary at precision p. */
    static double improved(long[] summary, int precision) {
        return HyperLogLogEstimator.improved(
                summary[RegisterKernels.ZEROS],
                summary[RegisterKernels.AT_TOP],
                summary[RegisterKernels.POWER_SUM],
                precision);
    }
}
