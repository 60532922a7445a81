package io.mapsketch.kernels;

import java.lang.foreign.MemorySegment;

/**
 * Register kernels: the merge of HyperLogLog byte registers (unsigned maximum), the merge of
 * MinHash signatures (unsigned minimum of 64-bit values), the histogram of register values, and the
 * one-pass summary (empty and saturated registers, sum of powers of two) from which a HyperLogLog
 * estimator needs nothing else.
 *
 * <p><b>Slices.</b> A slice is a segment, a byte offset into it and a length in registers (bytes)
 * or values (64-bit, little-endian). Any byte offset is allowed. The two slices of a merge may be
 * the same slice; if they overlap otherwise, the result is unspecified.
 *
 * <p><b>Errors.</b> Arguments are checked before memory is touched: a negative length is an
 * {@link IllegalArgumentException}, a slice or array range outside its bounds an
 * {@link IndexOutOfBoundsException}, a read-only destination an {@link IllegalArgumentException};
 * each message names the parameter, its value and the valid range.
 *
 * <p><b>Cost.</b> No allocation. Merges make one branch-free pass. Not atomic: use the merges
 * where one writer owns the destination.
 */
public final class RegisterKernels {

    /** Length a histogram array needs at least: one bucket for each register value 0 to 64. */
    public static final int HISTOGRAM_LENGTH = RegisterOps.HISTOGRAM_LENGTH;

    /** Length a summary array needs at least. */
    public static final int SUMMARY_LENGTH = RegisterOps.SUMMARY_LENGTH;
    /** Index in a summary: the number of registers equal to 0. */
    public static final int ZEROS = RegisterOps.ZEROS;
    /** Index in a summary: the number of registers equal to {@code top}. */
    public static final int AT_TOP = RegisterOps.AT_TOP;
    /** Index in a summary: the number of registers above {@code top}. */
    public static final int ABOVE_TOP = RegisterOps.ABOVE_TOP;
    /** Index in a summary: the sum of {@code 2^(top - 1 - r)} over the registers r with {@code 0 < r < top}. */
    public static final int POWER_SUM = RegisterOps.POWER_SUM;
    /** The largest {@code top} of a summary. */
    public static final int MAX_TOP = RegisterOps.MAX_TOP;

    private static final RegisterOps OPS = KernelProvider.active().registers();

    private RegisterKernels() {}

    /**
     * Merges byte registers: {@code dst[i] = max(dst[i], src[i])}, comparing the bytes as unsigned
     * values 0 to 255, so that the merge of two HyperLogLog sketches of the same precision equals the
     * sketch of the union.
     *
     * @param dst the segment written
     * @param dstOffset byte offset of the first destination register
     * @param src the segment read
     * @param srcOffset byte offset of the first source register
     * @param registers number of byte registers, {@code >= 0}
     * @throws IllegalArgumentException if {@code registers < 0} or {@code dst} is read-only
     * @throws IndexOutOfBoundsException if a slice does not lie inside its segment
     */
    public static void maxUnsignedBytes(
            MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long registers) {
        checkMerge(dst, dstOffset, src, srcOffset, "registers", registers, Byte.BYTES);
        OPS.maxUnsignedBytes(dst, dstOffset, src, srcOffset, registers);
    }

    /**
     * Finds where a register maximum would change {@code dst}: the smallest {@code i} with
     * {@code src[i] > dst[i]}, comparing the bytes as unsigned values, or {@code registers} if there
     * is none. A merge that must update registers atomically (writers in other threads or processes)
     * scans with this and updates only around the registers it returns: a register that is already at
     * least the source's stays so, since HyperLogLog registers only grow. Reads only; with concurrent
     * writers each byte is read once, at some value it held during the call.
     *
     * <p>Cost: one read of both slices up to the answer; the Vector API implementation compares a
     * vector of registers per step.
     *
     * @param dst the registers a merge would write
     * @param dstOffset byte offset of the first of them
     * @param src the registers a merge would read
     * @param srcOffset byte offset of the first of them
     * @param registers number of byte registers, {@code >= 0}
     * @return the index of the first register that would grow, in {@code [0, registers]}
     * @throws IllegalArgumentException if {@code registers < 0}
     * @throws IndexOutOfBoundsException if a slice does not lie inside its segment
     */
    public static long firstRaised(
            MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long registers) {
        Checks.slice("dst", dst, "dstOffset", dstOffset, "registers", registers, Byte.BYTES);
        Checks.slice("src", src, "srcOffset", srcOffset, "registers", registers, Byte.BYTES);
        return OPS.firstRaised(dst, dstOffset, src, srcOffset, registers);
    }

    /** The low bits of a packed sparse entry that hold its value; the bits above them hold its register. */
    public static final int ENTRY_VALUE_BITS = 6;

    /**
     * Finds the first packed sparse register entry, of the {@code count} 64-bit little-endian words from
     * byte {@code offset}, that is empty (0) or holds {@code register}. Each word packs
     * {@code 64 / entryBits} entries of {@code entryBits} bits, entry j at bits {@code [j * entryBits,
     * (j + 1) * entryBits)}, each {@code (register << ENTRY_VALUE_BITS) | value}; entry i of the list is entry
     * {@code i % perWord} of word {@code i / perWord}. Returns the smallest such i, or {@code count * perWord}
     * if there is none. A sparse list that writers fill in order, each register in at most one entry, finds a
     * register's entry or the place to claim for it so. Reads only; with concurrent writers each word is read
     * once, at some value it held during the call, so a caller that writes re-reads the word it got.
     *
     * <p>Cost: a read of the words up to the answer; the Vector API implementation tests a vector of words
     * per step, each of its entry positions in turn.
     *
     * @param words the segment of the words
     * @param offset byte offset of the first word
     * @param count number of words, {@code >= 0}
     * @param entryBits bits per entry, in [7, 32]
     * @param register the register looked for, {@code >= 0}
     * @return the index of the first empty entry or entry of {@code register}, in {@code [0, count * perWord]}
     * @throws IllegalArgumentException if {@code count < 0} or {@code entryBits} is outside [7, 32]
     * @throws IndexOutOfBoundsException if the words do not lie inside the segment
     */
    public static int firstEntryOf(MemorySegment words, long offset, int count, int entryBits, int register) {
        Checks.slice("words", words, "offset", offset, "count", count, Long.BYTES);
        if (entryBits < ENTRY_VALUE_BITS + 1 || entryBits > Integer.SIZE) {
            throw new IllegalArgumentException("entryBits = " + entryBits + ", must be in [7, 32]");
        }
        return OPS.firstEntryOf(words, offset, count, entryBits, register);
    }

    /**
     * Returns, for each of the eight bytes of two words, the larger one compared as unsigned values:
     * the register maximum of eight registers at once, for writers that update a word with a
     * compare-and-set. Branch-free.
     *
     * @param a eight byte registers
     * @param b eight byte registers
     * @return their byte-wise unsigned maximum
     */
    public static long maxOfUnsignedBytes(long a, long b) {
        return ScalarRegisterOps.maxOfBytes(a, b);
    }

    /**
     * Merges 64-bit values by their <em>unsigned</em> minimum: {@code dst[i] = min(dst[i], src[i])}
     * with both read as values 0 to 2^64 - 1 (so {@code -1L} is the largest and never wins against
     * another value), as MinHash signatures of hash values need.
     *
     * @param dst the segment written
     * @param dstOffset byte offset of the first destination value
     * @param src the segment read
     * @param srcOffset byte offset of the first source value
     * @param values number of 64-bit values, {@code >= 0}
     * @throws IllegalArgumentException if {@code values < 0} or {@code dst} is read-only
     * @throws IndexOutOfBoundsException if a slice does not lie inside its segment
     */
    public static void minUnsignedLongs(
            MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long values) {
        checkMerge(dst, dstOffset, src, srcOffset, "values", values, Long.BYTES);
        OPS.minUnsignedLongs(dst, dstOffset, src, srcOffset, values);
    }

    /**
     * Counts, in one pass, how many byte registers hold each value 0 to 64: afterwards
     * {@code counts[v]} is the number of registers equal to {@code v} for every {@code v} in
     * {@code 0..64} ({@code counts[0]} is the count of empty registers). Elements of {@code counts}
     * from index 65 on are left alone. Registers above 64 cannot occur in a well-formed HyperLogLog
     * sketch; they are not counted, and their number is returned so that the caller can refuse a
     * corrupt sketch.
     *
     * <p>Cost: one read of the registers from memory. The Vector API implementation then rescans
     * each chunk of about 2 KiB from the L1 cache once per four values between the chunk's smallest
     * and largest register, so it is fastest when values are clustered, as they are in a
     * HyperLogLog sketch (a few scans per chunk), and slowest when a chunk holds every value from 0
     * to 64 (17 scans).
     *
     * @param registers the segment read
     * @param offset byte offset of the first register
     * @param count number of byte registers, {@code >= 0}
     * @param counts receives the histogram; at least {@value #HISTOGRAM_LENGTH} long
     * @return the number of registers holding a value above 64 (0 for a well-formed sketch)
     * @throws IllegalArgumentException if {@code count < 0} or {@code counts} is shorter than
     *     {@value #HISTOGRAM_LENGTH}
     * @throws IndexOutOfBoundsException if the slice does not lie inside the segment
     */
    public static long histogram(MemorySegment registers, long offset, long count, long[] counts) {
        Checks.slice("registers", registers, "offset", offset, "count", count, Byte.BYTES);
        if (counts.length < HISTOGRAM_LENGTH) {
            throw new IllegalArgumentException("counts.length = " + counts.length + ", must be >= " + HISTOGRAM_LENGTH
                    + " (one bucket for each register value 0 to 64)");
        }
        return OPS.histogram(registers, offset, count, counts);
    }

    /**
     * Summarises byte registers in one pass for a HyperLogLog estimator, which needs nothing else:
     * afterwards {@code summary[ZEROS]}, {@code summary[AT_TOP]} and {@code summary[ABOVE_TOP]} are the
     * numbers of registers equal to 0, equal to {@code top} and above {@code top} (compared unsigned),
     * and {@code summary[POWER_SUM]} is the sum of {@code 2^(top - 1 - r)} over the registers r with
     * {@code 0 < r < top}, an exact integer: the sum of {@code 2^-r} scaled by {@code 2^(top - 1)}. The
     * sum is taken modulo 2^64, so it is exact while {@code count * 2^(top - 2) < 2^64}, which holds for
     * the {@code 2^p} registers of a HyperLogLog sketch with {@code top = 65 - p}. Elements of
     * {@code summary} from index {@value #SUMMARY_LENGTH} on are left alone.
     *
     * <p>Error: none; every implementation returns the same four integers. Cost: one read of the
     * registers; per 64 registers, a few compares into byte counters and eight shifts and adds of
     * widened lanes in the Vector API implementation.
     *
     * @param registers the segment read
     * @param offset byte offset of the first register
     * @param count number of byte registers, {@code >= 0}
     * @param top the largest valid register value, in 1..{@value #MAX_TOP}
     * @param summary receives the summary; at least {@value #SUMMARY_LENGTH} long
     * @throws IllegalArgumentException if {@code count < 0}, {@code top} is outside 1..{@value #MAX_TOP}
     *     or {@code summary} is shorter than {@value #SUMMARY_LENGTH}
     * @throws IndexOutOfBoundsException if the slice does not lie inside the segment
     */
    public static void summary(MemorySegment registers, long offset, long count, int top, long[] summary) {
        Checks.slice("registers", registers, "offset", offset, "count", count, Byte.BYTES);
        if (top < 1 || top > MAX_TOP) {
            throw new IllegalArgumentException("top = " + top + ", must be in [1, " + MAX_TOP + "]");
        }
        if (summary.length < SUMMARY_LENGTH) {
            throw new IllegalArgumentException("summary.length = " + summary.length + ", must be >= " + SUMMARY_LENGTH
                    + " (zeros, at top, above top, power sum)");
        }
        OPS.summary(registers, offset, count, top, summary);
    }

    private static void checkMerge(
            MemorySegment dst,
            long dstOffset,
            MemorySegment src,
            long srcOffset,
            String countName,
            long count,
            int elementBytes) {
        Checks.slice("dst", dst, "dstOffset", dstOffset, countName, count, elementBytes);
        Checks.slice("src", src, "srcOffset", srcOffset, countName, count, elementBytes);
        Checks.writable("dst", dst);
    }
}
