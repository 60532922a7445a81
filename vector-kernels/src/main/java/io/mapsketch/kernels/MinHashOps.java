package io.mapsketch.kernels;

import java.lang.foreign.MemorySegment;

/**
 * MinHash signature kernels; arguments are trusted (the facade {@link MinHashKernels} checks them).
 * Offsets are in bytes, lengths in 64-bit slots.
 */
interface MinHashOps {

    /**
     * For slot {@code s} in {@code firstSlot .. firstSlot + slots - 1}, stored at byte
     * {@code offset + 8 (s - firstSlot)}: the slot becomes the unsigned minimum of itself and
     * {@link MinHashKernels#derive}{@code (h, s)} over the hashes {@code h} of
     * {@code hashes[from, from + count)}.
     */
    void update(MemorySegment signature, long offset, int firstSlot, int slots, long[] hashes, int from, int count);

    /** The number of indices {@code i < values} at which the two slices hold equal 64-bit values. */
    long countEqual(MemorySegment a, long aOffset, MemorySegment b, long bOffset, long values);
}
