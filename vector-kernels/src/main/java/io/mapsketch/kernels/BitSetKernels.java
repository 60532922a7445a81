package io.mapsketch.kernels;

import java.lang.foreign.MemorySegment;

/**
 * Bit-array kernels: merges ({@code dst op= src}) and popcounts over slices of 64-bit words, the
 * bulk paths of Bloom filter unions, intersections and fill ratios.
 *
 * <p><b>Slices.</b> A slice is a segment, a byte offset into it and a length in 64-bit words. Words
 * are little-endian and may start at any byte offset (a multiple of 8 is faster only where it keeps
 * vectors inside cache lines). Anonymous ({@code Arena}), mapped and heap segments all work; the
 * SIMD path is meant for native and mapped memory. Two slices of one call may be the same slice
 * (for example {@code or(s, 0, s, 0, n)}); if they overlap otherwise, the result is unspecified.
 *
 * <p><b>Errors.</b> Every method checks its arguments before touching memory: a negative length is
 * an {@link IllegalArgumentException}, a slice outside its segment an
 * {@link IndexOutOfBoundsException}, a read-only destination an {@link IllegalArgumentException};
 * each message names the parameter, its value and the valid range. A segment whose arena is closed
 * throws {@link IllegalStateException}, as any access to it would.
 *
 * <p><b>Cost.</b> No allocation, one pass: each word is read once from each slice and written once.
 * With the Vector API implementation ({@link Kernels#implementation()}) a step handles one vector
 * (eight words at 512 bits); large merges run at memory bandwidth. The methods are not atomic: a
 * concurrent writer of the same words may see its writes lost. Use them where one writer owns the
 * destination.
 */
public final class BitSetKernels {

    private static final BitSetOps OPS = KernelProvider.active().bitSets();

    private BitSetKernels() {}

    /**
     * Sets {@code dst[i] = dst[i] | src[i]} for each of {@code words} words: the union of two bit
     * arrays, as when merging two Bloom filters of the same shape.
     *
     * @param dst the segment written
     * @param dstOffset byte offset of the first destination word
     * @param src the segment read
     * @param srcOffset byte offset of the first source word
     * @param words number of 64-bit words, {@code >= 0}
     * @throws IllegalArgumentException if {@code words < 0} or {@code dst} is read-only
     * @throws IndexOutOfBoundsException if a slice does not lie inside its segment
     */
    public static void or(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long words) {
        checkMerge(dst, dstOffset, src, srcOffset, words);
        OPS.or(dst, dstOffset, src, srcOffset, words);
    }

    /**
     * Sets {@code dst[i] = dst[i] & src[i]} for each of {@code words} words: the intersection.
     *
     * @param dst the segment written
     * @param dstOffset byte offset of the first destination word
     * @param src the segment read
     * @param srcOffset byte offset of the first source word
     * @param words number of 64-bit words, {@code >= 0}
     * @throws IllegalArgumentException if {@code words < 0} or {@code dst} is read-only
     * @throws IndexOutOfBoundsException if a slice does not lie inside its segment
     */
    public static void and(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long words) {
        checkMerge(dst, dstOffset, src, srcOffset, words);
        OPS.and(dst, dstOffset, src, srcOffset, words);
    }

    /**
     * Sets {@code dst[i] = dst[i] ^ src[i]} for each of {@code words} words: the symmetric
     * difference.
     *
     * @param dst the segment written
     * @param dstOffset byte offset of the first destination word
     * @param src the segment read
     * @param srcOffset byte offset of the first source word
     * @param words number of 64-bit words, {@code >= 0}
     * @throws IllegalArgumentException if {@code words < 0} or {@code dst} is read-only
     * @throws IndexOutOfBoundsException if a slice does not lie inside its segment
     */
    public static void xor(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long words) {
        checkMerge(dst, dstOffset, src, srcOffset, words);
        OPS.xor(dst, dstOffset, src, srcOffset, words);
    }

    /**
     * Sets {@code dst[i] = dst[i] & ~src[i]} for each of {@code words} words: the difference
     * {@code dst \ src}.
     *
     * @param dst the segment written
     * @param dstOffset byte offset of the first destination word
     * @param src the segment read
     * @param srcOffset byte offset of the first source word
     * @param words number of 64-bit words, {@code >= 0}
     * @throws IllegalArgumentException if {@code words < 0} or {@code dst} is read-only
     * @throws IndexOutOfBoundsException if a slice does not lie inside its segment
     */
    public static void andNot(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long words) {
        checkMerge(dst, dstOffset, src, srcOffset, words);
        OPS.andNot(dst, dstOffset, src, srcOffset, words);
    }

    /**
     * Counts the one bits of {@code words} words, as for a Bloom filter's fill ratio.
     *
     * @param bits the segment read
     * @param offset byte offset of the first word
     * @param words number of 64-bit words, {@code >= 0}
     * @return the number of bits set, between 0 and {@code 64 * words}
     * @throws IllegalArgumentException if {@code words < 0}
     * @throws IndexOutOfBoundsException if the slice does not lie inside the segment
     */
    public static long popcount(MemorySegment bits, long offset, long words) {
        Checks.slice("bits", bits, "offset", offset, "words", words, Long.BYTES);
        return OPS.popcount(bits, offset, words);
    }

    /**
     * Counts the one bits of {@code a[i] & b[i]} (the size of the intersection) without writing it.
     *
     * @param a the first segment read
     * @param aOffset byte offset of the first word of {@code a}
     * @param b the second segment read
     * @param bOffset byte offset of the first word of {@code b}
     * @param words number of 64-bit words, {@code >= 0}
     * @return the number of bits set in both, between 0 and {@code 64 * words}
     * @throws IllegalArgumentException if {@code words < 0}
     * @throws IndexOutOfBoundsException if a slice does not lie inside its segment
     */
    public static long popcountAnd(MemorySegment a, long aOffset, MemorySegment b, long bOffset, long words) {
        Checks.slice("a", a, "aOffset", aOffset, "words", words, Long.BYTES);
        Checks.slice("b", b, "bOffset", bOffset, "words", words, Long.BYTES);
        return OPS.popcountAnd(a, aOffset, b, bOffset, words);
    }

    /**
     * Counts the one bits of {@code a[i] | b[i]} (the size of the union) without writing it.
     *
     * @param a the first segment read
     * @param aOffset byte offset of the first word of {@code a}
     * @param b the second segment read
     * @param bOffset byte offset of the first word of {@code b}
     * @param words number of 64-bit words, {@code >= 0}
     * @return the number of bits set in either, between 0 and {@code 64 * words}
     * @throws IllegalArgumentException if {@code words < 0}
     * @throws IndexOutOfBoundsException if a slice does not lie inside its segment
     */
    public static long popcountOr(MemorySegment a, long aOffset, MemorySegment b, long bOffset, long words) {
        Checks.slice("a", a, "aOffset", aOffset, "words", words, Long.BYTES);
        Checks.slice("b", b, "bOffset", bOffset, "words", words, Long.BYTES);
        return OPS.popcountOr(a, aOffset, b, bOffset, words);
    }

    private static void checkMerge(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long words) {
        Checks.slice("dst", dst, "dstOffset", dstOffset, "words", words, Long.BYTES);
        Checks.slice("src", src, "srcOffset", srcOffset, "words", words, Long.BYTES);
        Checks.writable("dst", dst);
    }
}
