package io.mapsketch.cardinality;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.kernels.RegisterKernels;
import io.mapsketch.memory.AtomicSegment;
import io.mapsketch.memory.SketchFileLayout;
import java.nio.file.Path;

/**
 * The byte layout of a HyperLogLog file's summary line (format version 2 on) and its arithmetic: where
 * each number sits, how the change guard counts changes, how the two register counts share one word,
 * and which stored bytes no writer leaves. The line is the header's summary line
 * ({@link SketchFileLayout#SUMMARY_OFFSET}), drawn in {@code docs/file-format.md}; who writes it when is
 * {@link HyperLogLogSummaryLine}'s.
 *
 * <pre>
 * offset  size  field
 *      0     8  change guard: bits 0..19 changes in flight, bits 20..63 changes completed
 *      8     4  non-empty registers
 *     12     4  saturated registers, those at the largest rank top (65 - p; 63 for DataSketches' scheme)
 *     16     8  power sum S: the sum of 2^(top - 1 - r) over the registers r with 0 &lt; r &lt; top,
 *               unsigned (RegisterKernels.POWER_SUM), modulo 2^64
 *     24    40  zero; in a file of DataSketches' scheme (DATASKETCHES_MURMUR3_128):
 *     24     8    the HIP accumulator, a double
 *     32     8    0 while the HIP accumulator answers, 1 once it no longer does (out of order)
 *     40     8    the coupon word of a file with DataSketches' coupon area (DataSketchesCoupons), else zero
 *     48    16    zero
 * </pre>
 *
 * <p>An all-zero line is the line of empty registers, so a new file needs nothing written. A raise of a
 * register from a to b changes the numbers by {@code [a = 0]}, {@code [b = top]} and
 * {@code power(b) - power(a)} ({@link RegisterDeltas}); the two counts share one 64-bit word, so one
 * addition updates both.
 *
 * <p>Every change adds 1 to the guard before it touches a register and {@link #END} once its deltas
 * are in: in flight down, completed up. Both additions are positive, so the guard grows with every step
 * and two equal reads of it mean that nothing happened between them. At most {@code 2^20 - 1} changes
 * may be in flight at once.
 */
final class SummaryLineLayout {

    static final int GUARD = 0;
    static final int COUNTS = 8;
    static final int POWER_SUM = 16;
    static final int RESERVED = 24;
    /** DataSketches' scheme: the HIP accumulator's bits. */
    static final int HIP = 24;
    /** DataSketches' scheme: 0 while the HIP accumulator answers, 1 once it does not. */
    static final int OUT_OF_ORDER = 32;
    /** DataSketches' scheme: the coupon word of a file with a coupon area. */
    static final int COUPON_WORD = 40;
    /** DataSketches' scheme: the first reserved byte. */
    static final int HIP_RESERVED = 48;
    /** The line's length: one cache line. */
    static final int LINE = SketchFileLayout.CACHE_LINE;

    static final int IN_FLIGHT_BITS = 20;
    /** The guard's bits that count changes in flight. */
    static final long IN_FLIGHT = (1L << IN_FLIGHT_BITS) - 1;
    /** What the end of a change adds to the guard: one completed, one fewer in flight. */
    static final long END = (1L << IN_FLIGHT_BITS) - 1;
    /** The counts word's unit of saturated registers (its high half). */
    static final long SATURATED = 1L << Integer.SIZE;

    private SummaryLineLayout() {}

    /**
     * The counts word of a register summary ({@link RegisterKernels#summary}) of {@code registers}
     * registers: non-empty registers in the low half, saturated ones in the high half.
     */
    static long countsWord(long registers, long[] summary) {
        return registers - summary[RegisterKernels.ZEROS] + summary[RegisterKernels.AT_TOP] * SATURATED;
    }

    /** The non-empty registers of a counts word: its low half. */
    static long nonEmpty(long counts) {
        return counts & 0xFFFF_FFFFL;
    }

    /** The saturated registers of a counts word: its high half. */
    static long saturated(long counts) {
        return counts >>> Integer.SIZE;
    }

    /**
     * The guard a recomputed line is published at: the next multiple of 2^20 above {@code guard}, with
     * no change in flight and above every value the guard held before.
     */
    static long guardAfterRepair(long guard) {
        return ((guard >>> IN_FLIGHT_BITS) + 1) << IN_FLIGHT_BITS;
    }

    /**
     * Refuses stored bytes that no writer leaves: a reserved byte that is not zero and, in a line of
     * DataSketches' scheme ({@code hip}), a negative or non-finite HIP accumulator or an order word
     * other than 0 or 1; the coupon word is reserved too unless the file has a coupon area ({@code coupons},
     * whose word {@code DataSketchesCoupons} checks).
     *
     * @throws CorruptSketchFileException naming {@code file}, the byte's offset and its value
     */
    static void requireValidBytes(AtomicSegment line, boolean hip, boolean coupons, Path file)
            throws CorruptSketchFileException {
        if (hip) {
            requireValidHip(line, file);
        }
        for (int offset = hip ? COUPON_WORD : RESERVED; offset < LINE; offset += Long.BYTES) {
            if (offset == COUPON_WORD && coupons) {
                continue;
            }
            long value = line.getLong(offset);
            if (value != 0) {
                throw new CorruptSketchFileException(
                        file,
                        "summary line byte " + offset + " (header offset "
                                + (SketchFileLayout.SUMMARY_OFFSET + offset) + ") is 0x" + Long.toHexString(value)
                                + ", expected 0 (reserved)");
            }
        }
    }

    private static void requireValidHip(AtomicSegment line, Path file) throws CorruptSketchFileException {
        double accumulator = Double.longBitsToDouble(line.getLongAcquire(HIP));
        long order = line.getLong(OUT_OF_ORDER);
        if (!(accumulator >= 0 && accumulator < Double.POSITIVE_INFINITY)) {
            throw new CorruptSketchFileException(
                    file,
                    "summary line byte " + HIP + " (header offset " + (SketchFileLayout.SUMMARY_OFFSET + HIP)
                            + ") holds the HIP accumulator " + accumulator + ", expected a finite value >= 0");
        }
        if (order != 0 && order != 1) {
            throw new CorruptSketchFileException(
                    file,
                    "summary line byte " + OUT_OF_ORDER + " (header offset "
                            + (SketchFileLayout.SUMMARY_OFFSET + OUT_OF_ORDER) + ") is " + order
                            + ", expected 0 (HIP in order) or 1 (out of order)");
        }
    }
}
