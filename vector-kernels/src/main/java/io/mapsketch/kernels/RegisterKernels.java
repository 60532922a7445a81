package io.mapsketch.kernels;

import java.lang.foreign.MemorySegment;

/**
 * Register kernels: the merge of HyperLogLog byte registers (unsigned maximum), the merge of
 * MinHash signatures (unsigned minimum of 64-bit values), and the histogram of register values from
 * which a HyperLogLog estimator needs nothing else.
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

    private static final RegisterOps OPS = KernelProvider.active().registers();

    private RegisterKernels() {
    }

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
    public static void maxUnsignedBytes(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset,
            long registers) {
        checkMerge(dst, dstOffset, src, srcOffset, "registers", registers, Byte.BYTES);
        OPS.maxUnsignedBytes(dst, dstOffset, src, srcOffset, registers);
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
    public static void minUnsignedLongs(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset,
            long values) {
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
            throw new IllegalArgumentException("counts.length = " + counts.length + ", must be >= "
                    + HISTOGRAM_LENGTH + " (one bucket for each register value 0 to 64)");
        }
        return OPS.histogram(registers, offset, count, counts);
    }

    private static void checkMerge(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset,
            String countName, long count, int elementBytes) {
        Checks.slice("dst", dst, "dstOffset", dstOffset, countName, count, elementBytes);
        Checks.slice("src", src, "srcOffset", srcOffset, countName, count, elementBytes);
        Checks.writable("dst", dst);
    }
}
