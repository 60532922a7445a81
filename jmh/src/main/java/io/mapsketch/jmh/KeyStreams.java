package io.mapsketch.jmh;

import java.util.SplittableRandom;

/**
 * The key streams the benchmarks share, all from fixed seeds so that every run and every
 * implementation sees the same keys: the key space ({@link #key}) and a seeded shuffle.
 */
final class KeyStreams {

    private static final long KEY_SEED = 0x2545_F491_4F6C_DD1DL;

    private KeyStreams() {
    }

    /**
     * Key {@code index} of the benchmarks' key space: SplitMix64's output for that index. A bijection
     * of {@code index}, so different indices give different keys and a key can be named without
     * storing the others.
     */
    static long key(long index) {
        long z = KEY_SEED + (index + 1) * 0x9E37_79B9_7F4A_7C15L;
        z = (z ^ z >>> 30) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ z >>> 27) * 0x94D0_49BB_1331_11EBL;
        return z ^ z >>> 31;
    }

    /** Shuffles {@code keys} in place (Fisher-Yates) with the given generator. */
    static void shuffle(long[] keys, SplittableRandom random) {
        for (int i = keys.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            long swap = keys[i];
            keys[i] = keys[j];
            keys[j] = swap;
        }
    }
}
