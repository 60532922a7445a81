package io.mapsketch.kernels;

import java.lang.foreign.MemorySegment;

/**
 * Counter kernels: the saturating sum {@code dst += src} of unsigned 32-bit and 64-bit counters,
 * the merge of Count-Min sketches and counting Bloom filters. A sum that would pass the largest
 * value stops there ({@code 0xFFFFFFFF}, or {@code 0xFFFFFFFFFFFFFFFF}); it never wraps, so a merged
 * count never undercounts.
 *
 * <p><b>Slices.</b> A slice is a segment, a byte offset into it and a length in counters.
 * Counters are little-endian and may start at any byte offset. The two slices of one call may be
 * the same slice (each counter then doubles, saturating); if they overlap otherwise, the result is
 * unspecified.
 *
 * <p><b>Errors.</b> Arguments are checked before memory is touched: a negative length is an
 * {@link IllegalArgumentException}, a slice outside its segment an
 * {@link IndexOutOfBoundsException}, a read-only destination an {@link IllegalArgumentException};
 * each message names the parameter, its value and the valid range.
 *
 * <p><b>Cost.</b> No allocation, one pass, branch-free (saturation costs nothing extra). Not
 * atomic: use these where one writer owns the destination.
 */
public final class CounterKernels {

    private static final CounterOps OPS = KernelProvider.active().counters();

    private CounterKernels() {}

    /**
     * Adds unsigned 32-bit counters, saturating at {@code 0xFFFFFFFF}:
     * {@code dst[i] = min(dst[i] + src[i], 2^32 - 1)}.
     *
     * @param dst the segment written
     * @param dstOffset byte offset of the first destination counter
     * @param src the segment read
     * @param srcOffset byte offset of the first source counter
     * @param counters number of 32-bit counters, {@code >= 0}
     * @throws IllegalArgumentException if {@code counters < 0} or {@code dst} is read-only
     * @throws IndexOutOfBoundsException if a slice does not lie inside its segment
     */
    public static void addSaturatingUnsignedInts(
            MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long counters) {
        check(dst, dstOffset, src, srcOffset, counters, Integer.BYTES);
        OPS.addSaturatingInts(dst, dstOffset, src, srcOffset, counters);
    }

    /**
     * Adds unsigned 64-bit counters, saturating at {@code 0xFFFFFFFFFFFFFFFF} (that is, {@code -1L}):
     * {@code dst[i] = min(dst[i] + src[i], 2^64 - 1)}.
     *
     * @param dst the segment written
     * @param dstOffset byte offset of the first destination counter
     * @param src the segment read
     * @param srcOffset byte offset of the first source counter
     * @param counters number of 64-bit counters, {@code >= 0}
     * @throws IllegalArgumentException if {@code counters < 0} or {@code dst} is read-only
     * @throws IndexOutOfBoundsException if a slice does not lie inside its segment
     */
    public static void addSaturatingUnsignedLongs(
            MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long counters) {
        check(dst, dstOffset, src, srcOffset, counters, Long.BYTES);
        OPS.addSaturatingLongs(dst, dstOffset, src, srcOffset, counters);
    }

    private static void check(
            MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long counters, int counterBytes) {
        Checks.slice("dst", dst, "dstOffset", dstOffset, "counters", counters, counterBytes);
        Checks.slice("src", src, "srcOffset", srcOffset, "counters", counters, counterBytes);
        Checks.writable("dst", dst);
    }
}
