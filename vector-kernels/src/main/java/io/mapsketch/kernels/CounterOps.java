package io.mapsketch.kernels;

import java.lang.foreign.MemorySegment;

/**
 * Counter kernels over slices of little-endian unsigned counters. Offsets are in bytes, lengths in
 * counters; arguments are trusted (the facade {@link CounterKernels} checks them).
 */
interface CounterOps {

    /** {@code dst[i] = min(dst[i] + src[i], 2^32 - 1)}, unsigned 32-bit counters. */
    void addSaturatingInts(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long counters);

    /** {@code dst[i] = min(dst[i] + src[i], 2^64 - 1)}, unsigned 64-bit counters. */
    void addSaturatingLongs(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long counters);
}
