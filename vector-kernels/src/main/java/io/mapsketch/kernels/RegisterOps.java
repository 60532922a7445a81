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
    /** Summary index: registers equal to 0. */
    int ZEROS = 0;
    /** Summary index: registers equal to {@code top}. */
    int AT_TOP = 1;
    /** Summary index: registers above {@code top}. */
    int ABOVE_TOP = 2;
    /** Summary index: the sum of {@code 2^(top - 1 - r)} over registers r with {@code 0 < r < top}. */
    int POWER_SUM = 3;
    /** Length of a summary array. */
    int SUMMARY_LENGTH = 4;
    /** The largest {@code top} a summary accepts: {@code 2^(top - 1)} must be a positive long. */
    int MAX_TOP = 63;

    /** {@code dst[i] = max(dst[i], src[i])}, unsigned bytes. */
    void maxUnsignedBytes(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long registers);

    /** The smallest i with {@code src[i] > dst[i]} (unsigned bytes), or {@code registers} if there is none. */
    long firstRaised(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long registers);

    /** See {@link RegisterKernels#firstEntryOf}; arguments already checked. */
    int firstEntryOf(MemorySegment words, long offset, int count, int entryBits, int register);

    /** {@code dst[i] = min(dst[i], src[i])}, unsigned little-endian 64-bit values. */
    void minUnsignedLongs(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long values);

    /**
     * Sets {@code counts[v]}, for v in 0..64, to the number of registers holding v, and returns the
     * number of registers holding more than 64.
     */
    long histogram(MemorySegment registers, long offset, long count, long[] counts);

    /**
     * Sets {@code summary[ZEROS]}, {@code [AT_TOP]} and {@code [ABOVE_TOP]} to the number of registers
     * equal to 0, equal to {@code top} and above {@code top} (unsigned), and {@code summary[POWER_SUM]}
     * to the sum, modulo 2^64, of {@code 2^(top - 1 - r)} over the registers r with {@code 0 < r < top};
     * {@code top} is in 1..{@value #MAX_TOP}.
     */
    void summary(MemorySegment registers, long offset, long count, int top, long[] summary);
}
