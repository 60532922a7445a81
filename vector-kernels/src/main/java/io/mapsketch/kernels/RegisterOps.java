package io.mapsketch.kernels;

import java.lang.foreign.MemorySegment;

/**
 * Register kernels: merges of HyperLogLog byte registers and MinHash signatures, and the register
 * histogram. Offsets are in bytes, lengths in registers or values; arguments are trusted (the facade
 * {@link RegisterKernels} checks them).
 */
interface RegisterOps {

    /** Number of histogram buckets: register values 0 to 64. */
    int HISTOGRAM_LENGTH = 65;

    /** {@code dst[i] = max(dst[i], src[i])}, unsigned bytes. */
    void maxUnsignedBytes(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long registers);

    /** {@code dst[i] = min(dst[i], src[i])}, unsigned little-endian 64-bit values. */
    void minUnsignedLongs(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long values);

    /**
     * Sets {@code counts[v]}, for v in 0..64, to the number of registers holding v, and returns the
     * number of registers holding more than 64.
     */
    long histogram(MemorySegment registers, long offset, long count, long[] counts);
}
