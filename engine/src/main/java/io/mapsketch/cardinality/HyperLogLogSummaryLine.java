package io.mapsketch.cardinality;

import static io.mapsketch.cardinality.SummaryLineLayout.COUNTS;
import static io.mapsketch.cardinality.SummaryLineLayout.END;
import static io.mapsketch.cardinality.SummaryLineLayout.GUARD;
import static io.mapsketch.cardinality.SummaryLineLayout.HIP;
import static io.mapsketch.cardinality.SummaryLineLayout.IN_FLIGHT;
import static io.mapsketch.cardinality.SummaryLineLayout.OUT_OF_ORDER;
import static io.mapsketch.cardinality.SummaryLineLayout.POWER_SUM;
import static io.mapsketch.cardinality.SummaryLineLayout.countsWord;
import static io.mapsketch.cardinality.SummaryLineLayout.nonEmpty;
import static io.mapsketch.cardinality.SummaryLineLayout.saturated;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.OpenMode;
import io.mapsketch.internal.DataSketchesCoupons;
import io.mapsketch.internal.Regions;
import io.mapsketch.kernels.RegisterKernels;
import io.mapsketch.memory.AtomicSegment;
import io.mapsketch.memory.HashScheme;
import io.mapsketch.memory.SketchFileLayout;
import io.mapsketch.memory.SketchRegion;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * The summary line of a HyperLogLog file of format version 2 or later, as its writers and readers use it:
 * the three numbers both estimators need ({@link HyperLogLogEstimator}), kept up to date by every writer,
 * so that an estimate reads a few words instead of every register, and a change guard that tells a reader
 * whether it may trust them. Its bytes and their arithmetic are {@link SummaryLineLayout}'s.
 *
 * <p><b>Changes.</b> Every change (a raise and its deltas, a merge, a fold, a repair) is marked in the
 * guard from before it touches a register until its deltas are in ({@link #begin}, {@link #end}).
 * {@code SHARED} writers mark it atomically. The {@code EXCLUSIVE} writer holds one change in flight from
 * its open to its close ({@link #attach}, {@link #detach}) and keeps the numbers in its own memory
 * meanwhile; why both are exact is in {@code docs/design/cardinality.md}. The changes in flight count
 * those of writers that died since the line was last repaired.
 *
 * <p><b>The exclusive writer's numbers</b> ({@link #readKept}) are updated plainly, so only a thread
 * that the writer's changes happen before may read them; {@link HyperLogLogEstimates} sees to that.
 *
 * <p><b>Readers</b> ({@link #read}) load the guard, the numbers and the guard again, and trust the
 * numbers only if no change was in flight and the guard did not move; otherwise the caller summarises
 * the registers itself. A writer that dies or throws inside a change leaves its change in flight for
 * good, so nobody trusts a line that may be stale or torn until the next writer that opens the file as
 * its only writer recomputes it ({@link #checkOnOpen}).
 */
final class HyperLogLogSummaryLine {

    /** A little-endian word of an image's summary line, which may be an unaligned heap array. */
    private static final ValueLayout.OfLong IMAGE_WORD =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** What {@link #read} returns when the line may not be trusted; no trusted guard is -1. */
    static final long UNTRUSTED = -1;

    private final AtomicSegment line;
    private final boolean shared;
    private final long registers;
    private final int top;
    /** Whether the line keeps DataSketches' HIP state (bytes 24 to 39). */
    private final boolean hip;
    /** Whether the file has DataSketches' coupon area, whose word is at byte 40. */
    private final boolean couponArea;
    /** The {@code EXCLUSIVE} writer's numbers: the counts word and S, as the file's line would hold them. */
    private long keptCounts;

    private long keptPowerSum;
    /** The {@code EXCLUSIVE} writer's changes in flight (a merge or fold; for good if it left damage). */
    private int keptInFlight;
    /** The guard the {@code EXCLUSIVE} writer stored when it attached: its change in flight. */
    private long heldGuard;

    /**
     * Wraps the summary line of a sketch of {@code registers} registers whose largest rank is {@code top},
     * opened in {@code mode}: {@code SHARED} writers update it atomically, the {@code EXCLUSIVE} writer
     * in its own memory once it has {@link #attach attached}, readers only read it.
     */
    HyperLogLogSummaryLine(AtomicSegment line, OpenMode mode, long registers, int top, boolean hip) {
        this(line, mode, registers, top, hip, false);
    }

    /** As the constructor above, for a file that has DataSketches' coupon area ({@code couponArea}) or not. */
    HyperLogLogSummaryLine(
            AtomicSegment line, OpenMode mode, long registers, int top, boolean hip, boolean couponArea) {
        this.line = line;
        this.hip = hip;
        this.couponArea = couponArea;
        this.shared = mode == OpenMode.SHARED;
        this.registers = registers;
        this.top = top;
    }

    /**
     * The summary line of a HyperLogLog region of precision p opened in its mode, or {@code null} if its
     * file (format version 1) has none.
     */
    static HyperLogLogSummaryLine of(SketchRegion region, int precision) {
        HashScheme scheme = region.header().hashScheme();
        return region.header().hasSummaryLine()
                ? new HyperLogLogSummaryLine(
                        region.summaryLine(),
                        Regions.openMode(region),
                        1L << precision,
                        HyperLogLogLayout.maxRank(scheme, precision),
                        scheme == HashScheme.DATASKETCHES_MURMUR3_128,
                        region.payload().byteSize() > HyperLogLogLayout.payloadBytes(precision))
                : null;
    }

    /**
     * Writes the summary line of a sketch file image from its registers, as a sole writer's close leaves it: the
     * guard at zero changes and none in flight, the counts and the power sum; the HIP state of DataSketches'
     * scheme is kept, and marked out of order if a change was in flight when the image was taken (the
     * accumulator may then lag the registers). Cost: one pass over the registers.
     */
    static void settleImage(MemorySegment imageLine, MemorySegment registers, HashScheme scheme, int precision) {
        long count = 1L << precision;
        long[] summary = new long[RegisterKernels.SUMMARY_LENGTH];
        RegisterKernels.summary(registers, 0, count, HyperLogLogLayout.maxRank(scheme, precision), summary);
        long guard = imageLine.get(IMAGE_WORD, GUARD);
        imageLine.set(IMAGE_WORD, GUARD, 0L);
        imageLine.set(IMAGE_WORD, SummaryLineLayout.COUNTS, countsWord(count, summary));
        imageLine.set(IMAGE_WORD, SummaryLineLayout.POWER_SUM, summary[RegisterKernels.POWER_SUM]);
        if (scheme == HashScheme.DATASKETCHES_MURMUR3_128 && (guard & SummaryLineLayout.IN_FLIGHT) != 0) {
            imageLine.set(IMAGE_WORD, SummaryLineLayout.OUT_OF_ORDER, 1L);
        }
    }

    /** The largest rank of the registers this line sums. */
    int top() {
        return top;
    }

    /** DataSketches' scheme: whether the HIP accumulator answers (acquire). */
    boolean hipInOrder() {
        return line.getLongAcquire(OUT_OF_ORDER) == 0;
    }

    /** DataSketches' scheme: the HIP accumulator (acquire). */
    double hipAccumulator() {
        return Double.longBitsToDouble(line.getLongAcquire(HIP));
    }

    /**
     * DataSketches' scheme: the coupons of a sketch of precision p whose payload ({@code payload}, registers
     * first) has a coupon area, with their word in this line.
     */
    DataSketchesCoupons coupons(MemorySegment payload, int precision) {
        return new DataSketchesCoupons(line, payload, HyperLogLogLayout.payloadBytes(precision), precision);
    }

    /**
     * Recomputes the line from the registers as the only writer at its open, before it attaches: for
     * registers it has just raised from DataSketches' coupons.
     */
    void recompute(MemorySegment registersSegment) {
        long[] summary = new long[RegisterKernels.SUMMARY_LENGTH];
        RegisterKernels.summary(registersSegment, 0, registers, top, summary);
        repair(summary);
    }

    /**
     * DataSketches' scheme: marks the HIP accumulator as no longer answering, atomically, inside a change
     * ({@link #begin}) of a {@code SHARED} writer or of a repair.
     */
    void markOutOfOrder() {
        line.getAndOrLong(OUT_OF_ORDER, 1);
    }

    /**
     * DataSketches' scheme: stores the HIP state, plainly, for the {@code EXCLUSIVE} writer before it
     * detaches (whose release store publishes it) or for a new sketch no other opener sees yet.
     */
    void storeHip(double accumulator, boolean outOfOrder) {
        line.putLong(HIP, Double.doubleToRawLongBits(accumulator));
        line.putLong(OUT_OF_ORDER, outOfOrder ? 1 : 0);
    }

    /**
     * Takes the line as the {@code EXCLUSIVE} writer, after {@link #checkOnOpen} has made it trusted:
     * loads its numbers into this writer's memory and begins the change that stays in flight until
     * {@link #detach}.
     */
    void attach() {
        long guard = line.getLong(GUARD);
        keptCounts = line.getLong(COUNTS);
        keptPowerSum = line.getLong(POWER_SUM);
        keptInFlight = (guard & IN_FLIGHT) == 0 ? 0 : 1;
        heldGuard = guard + 1;
        line.putLongBeforeStores(GUARD, heldGuard);
    }

    /**
     * Gives the line back when the {@code EXCLUSIVE} writer closes: stores its numbers and ends its
     * change (a release store), unless a change of its own is still in flight (a merge of damaged
     * registers), which then stays so for the next sole writer to repair.
     */
    void detach() {
        if (keptInFlight != 0) {
            return;
        }
        store(keptCounts, keptPowerSum);
        line.putLongRelease(GUARD, heldGuard + END);
    }

    /** Returns the change guard in the file (acquire): equal values mean an unchanged line; see {@link #read}. */
    long guard() {
        return line.getLongAcquire(GUARD);
    }

    /**
     * Starts a change: from here until {@link #end} no reader trusts the line (for the {@code EXCLUSIVE}
     * writer, its own numbers).
     */
    void begin() {
        if (shared) {
            line.getAndAddLong(GUARD, 1);
        } else {
            keptInFlight++;
        }
    }

    /**
     * Adds a change's deltas to the numbers: {@code counts} to the counts word (non-empty registers in
     * the low half, saturated in the high half), {@code powerSum} to S (modulo 2^64). The
     * {@code EXCLUSIVE} writer adds them to its own numbers, plainly, without {@link #begin}: a raise of
     * a single register by that writer is this call alone.
     */
    void add(long counts, long powerSum) {
        if (shared) {
            if (counts != 0) {
                line.getAndAddLong(COUNTS, counts);
            }
            line.getAndAddLong(POWER_SUM, powerSum);
        } else {
            addKept(counts, powerSum);
        }
    }

    /**
     * Adds a single raise's deltas to the {@code EXCLUSIVE} writer's numbers, as {@link #add} does, in a
     * method small enough for the JIT compiler to inline into a raise however rarely it runs.
     */
    void addKept(long counts, long powerSum) {
        keptCounts += counts;
        keptPowerSum += powerSum;
    }

    /** Ends a change begun by {@link #begin}. */
    void end() {
        if (shared) {
            line.getAndAddLong(GUARD, END);
        } else {
            keptInFlight--;
        }
    }

    /**
     * Replaces the {@code EXCLUSIVE} writer's numbers by a register summary ({@link RegisterKernels#summary}
     * with this line's top), inside a change: its merges recompute the numbers so.
     */
    void replace(long[] summary) {
        keptCounts = countsWord(registers, summary);
        keptPowerSum = summary[RegisterKernels.POWER_SUM];
    }

    /**
     * Reads the {@code EXCLUSIVE} writer's numbers into {@code summary}, in the layout of {@link #read},
     * if no change of its own is in flight.
     *
     * @return whether the numbers may be trusted
     */
    boolean readKept(long[] summary) {
        if (keptInFlight != 0) {
            return false;
        }
        summary[RegisterKernels.ZEROS] = registers - nonEmpty(keptCounts);
        summary[RegisterKernels.AT_TOP] = saturated(keptCounts);
        summary[RegisterKernels.ABOVE_TOP] = 0;
        summary[RegisterKernels.POWER_SUM] = keptPowerSum;
        return true;
    }

    private void store(long counts, long powerSum) {
        line.putLong(COUNTS, counts);
        line.putLong(POWER_SUM, powerSum);
    }

    /**
     * Reads the numbers into {@code summary} in the layout of {@link RegisterKernels#summary}
     * ({@code ZEROS}, {@code AT_TOP}, {@code ABOVE_TOP} = 0 and {@code POWER_SUM}) if the line may be
     * trusted: no change in flight, the guard the same before and after, and counts that a sketch of
     * this size can hold. Cost: three loads and one more of the guard.
     *
     * @return the guard read, which identifies this state of the line, or {@link #UNTRUSTED}
     */
    long read(long[] summary) {
        long guard = line.getLongAcquire(GUARD);
        if ((guard & IN_FLIGHT) != 0) {
            return UNTRUSTED;
        }
        long counts = line.getLongAcquire(COUNTS);
        long powerSum = line.getLongAcquire(POWER_SUM);
        if (line.getLongAfterLoads(GUARD) != guard) {
            return UNTRUSTED;
        }
        long nonEmpty = nonEmpty(counts);
        long saturated = saturated(counts);
        if (nonEmpty > registers || saturated > nonEmpty) {
            return UNTRUSTED;
        }
        summary[RegisterKernels.ZEROS] = registers - nonEmpty;
        summary[RegisterKernels.AT_TOP] = saturated;
        summary[RegisterKernels.ABOVE_TOP] = 0;
        summary[RegisterKernels.POWER_SUM] = powerSum;
        return guard;
    }

    /**
     * Checks the line against the registers when a file is opened, and repairs it when this opener may:
     * the registers are summarised between two reads of the guard, so with no change in flight and an
     * unmoved guard the line and the summary describe the same moment.
     * <ul>
     *   <li>They agree, or a change is in flight and this opener is not the only writer (writers are at
     *       work, or one died; estimates then summarise the registers until a sole writer repairs it):
     *       nothing to do.</li>
     *   <li>The only writer finds a change in flight, or a disagreement in a file that was not closed
     *       cleanly (its pages may have reached the disk out of order in a system crash): it recomputes
     *       the line ({@link #repair}).</li>
     *   <li>Otherwise the line was trusted and wrong: no writer leaves it so, and the file is refused.</li>
     * </ul>
     *
     * @param registersSegment the 2^p registers
     * @param soleWriter whether this opener is the only writer, in any process
     * @param cleanlyClosed whether every writer closed the file before this open (exact for a sole writer)
     * @param file the file, for messages
     * @throws CorruptSketchFileException if a register is above the largest rank, the line's reserved
     *     bytes are not zero, or a trusted line disagrees with the registers (a sole writer of a file that
     *     was not closed cleanly repairs it instead)
     */
    void checkOnOpen(MemorySegment registersSegment, boolean soleWriter, boolean cleanlyClosed, Path file)
            throws CorruptSketchFileException {
        SummaryLineLayout.requireValidBytes(line, hip, couponArea, file);
        long[] actual = new long[RegisterKernels.SUMMARY_LENGTH];
        long before = line.getLongAcquire(GUARD);
        long counts = line.getLongAcquire(COUNTS);
        long powerSum = line.getLongAcquire(POWER_SUM);
        RegisterKernels.summary(registersSegment, 0, registers, top, actual);
        boolean trusted = (before & IN_FLIGHT) == 0 && line.getLongAfterLoads(GUARD) == before;
        HyperLogLogLayout.requireValidRanks(actual, top, file);
        boolean agrees = counts == countsWord(registers, actual) && powerSum == actual[RegisterKernels.POWER_SUM];
        if (trusted && agrees) {
            return;
        }
        if (soleWriter && (!trusted || !cleanlyClosed)) {
            repair(actual);
            return;
        }
        if (trusted) {
            throw new CorruptSketchFileException(
                    file,
                    "the summary line (header offset "
                            + SketchFileLayout.SUMMARY_OFFSET + ") disagrees with the registers: it holds "
                            + nonEmpty(counts) + " non-empty and " + saturated(counts)
                            + " saturated registers and power sum " + Long.toUnsignedString(powerSum)
                            + " at change guard 0x" + Long.toHexString(before) + ", the registers give "
                            + (registers - actual[RegisterKernels.ZEROS]) + ", " + actual[RegisterKernels.AT_TOP]
                            + " and "
                            + Long.toUnsignedString(actual[RegisterKernels.POWER_SUM])
                            + (cleanlyClosed
                                    ? "; the file was changed by something other than mapsketch"
                                    : "; the file was not closed cleanly: opening it as its only writer recomputes the line"));
        }
    }

    /**
     * Recomputes the line from a register summary as the only writer, and clears the changes left in
     * flight: the guard is marked in flight, the numbers are stored, and the guard moves to the next
     * multiple of 2^20, above every value it held before, so no reader's cached estimate matches it.
     */
    private void repair(long[] summary) {
        long guard = line.getLong(GUARD);
        line.putLongBeforeStores(GUARD, guard | 1);
        store(countsWord(registers, summary), summary[RegisterKernels.POWER_SUM]);
        if (hip) {
            // The registers moved after the accumulator was last stored: it no longer answers for them.
            line.putLong(OUT_OF_ORDER, 1);
        }
        line.putLongRelease(GUARD, SummaryLineLayout.guardAfterRepair(guard));
    }
}
