package io.mapsketch.similarity;

import io.mapsketch.kernels.MinHashKernels;
import java.util.Arrays;

/**
 * SuperMinHash as its definition reads, for tests: every item runs all k steps of its shuffle on a
 * permutation of its own, with no bound and no lazy permutation, and each slot keeps the smallest
 * value offered.
 */
final class SuperMinHashReference {

    private SuperMinHashReference() {}

    static long[] signature(long[] hashes, int k) {
        long[] signature = new long[k];
        Arrays.fill(signature, MinHashSignature.EMPTY_SLOT);
        int[] permutation = new int[k];
        for (long hash : hashes) {
            for (int i = 0; i < k; i++) {
                permutation[i] = i;
            }
            for (int j = 0; j < k; j++) {
                long value = (long) j << 48 | MinHashKernels.derive(hash, 2 * j) >>> 16;
                int swap = j + (int) Math.unsignedMultiplyHigh(MinHashKernels.derive(hash, 2 * j + 1), k - j);
                int slot = permutation[swap];
                permutation[swap] = permutation[j];
                permutation[j] = slot;
                if (Long.compareUnsigned(value, signature[slot]) < 0) {
                    signature[slot] = value;
                }
            }
        }
        return signature;
    }
}
