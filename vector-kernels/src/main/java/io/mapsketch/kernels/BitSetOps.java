package io.mapsketch.kernels;

import java.lang.foreign.MemorySegment;

/**
 * Bit-array kernels over slices of little-endian 64-bit words. Offsets are in bytes, lengths in
 * words; arguments are trusted (the facade {@link BitSetKernels} checks them).
 */
interface BitSetOps {

    /** {@code dst[i] |= src[i]} for {@code words} words. */
    void or(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long words);

    /** {@code dst[i] &= src[i]} for {@code words} words. */
    void and(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long words);

    /** {@code dst[i] ^= src[i]} for {@code words} words. */
    void xor(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long words);

    /** {@code dst[i] &= ~src[i]} for {@code words} words. */
    void andNot(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long words);

    /** Number of one bits in {@code words} words. */
    long popcount(MemorySegment a, long aOffset, long words);

    /** Number of one bits in {@code a[i] & b[i]}. */
    long popcountAnd(MemorySegment a, long aOffset, MemorySegment b, long bOffset, long words);

    /** Number of one bits in {@code a[i] | b[i]}. */
    long popcountOr(MemorySegment a, long aOffset, MemorySegment b, long bOffset, long words);
}
