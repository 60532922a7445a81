package io.mapsketch.kernels;

import java.lang.foreign.MemorySegment;

/**
 * Hamming-distance scans of 64-bit fingerprints; arguments are trusted (the facade
 * {@link HammingKernels} checks them).
 */
interface HammingOps {

    /**
     * Writes to {@code matches}, from {@code matchesFrom} on and in ascending order, every index
     * {@code i < count} whose fingerprint at {@code offset + 8 i} differs from {@code query} in at most
     * {@code maxDistance} bits; returns how many it wrote.
     */
    int within(MemorySegment table, long offset, int count, long query, int maxDistance, int[] matches,
            int matchesFrom);
}
