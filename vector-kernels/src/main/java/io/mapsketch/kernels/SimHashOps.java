package io.mapsketch.kernels;

import java.lang.foreign.MemorySegment;

/**
 * SimHash kernels: the weighted bit sums of a fingerprint, and Hamming-distance scans of 64-bit
 * fingerprints; arguments are trusted (the facade {@link SimHashKernels} checks them).
 */
interface SimHashOps {

    /** For j in 0..63: {@code sums[j] += weight} if bit j of {@code hash} is one, else {@code sums[j] -= weight}. */
    void accumulate(double[] sums, long hash, double weight);

    /** For i in 0..7: {@code lanes[i] += (hash >>> i) & 0x0101010101010101L}, each byte of a lane a counter. */
    void countOnes(long[] lanes, long hash);

    /**
     * Writes to {@code matches}, from {@code matchesFrom} on and in ascending order, every index
     * {@code i < count} whose fingerprint at {@code offset + 8 i} differs from {@code query} in at most
     * {@code maxDistance} bits; returns how many it wrote.
     */
    int within(
            MemorySegment table, long offset, int count, long query, int maxDistance, int[] matches, int matchesFrom);
}
