package io.mapsketch.jmh;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The key streams the benchmarks share, all from fixed seeds so that every run and every
 * implementation sees the same keys: the key space ({@link #key}), Zipf-distributed streams over it
 * ({@link #zipf}) and a seeded shuffle.
 */
final class KeyStreams {

    private static final long KEY_SEED = 0x2545_F491_4F6C_DD1DL;

    private KeyStreams() {}

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

    /**
     * A stream of {@code count} keys whose ranks follow Zipf's law: rank {@code r} in
     * {@code [1, ranks]} is drawn with probability proportional to {@code r^-exponent}, and stands
     * for {@link #key key(r - 1)}. Exact inverse-transform sampling: sorted uniform draws are matched
     * against the cumulative weights in one pass, then the stream is shuffled.
     */
    static long[] zipf(int count, int ranks, double exponent, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double total = 0;
        for (int r = 1; r <= ranks; r++) {
            total += Math.pow(r, -exponent);
        }
        double[] draws = new double[count];
        for (int i = 0; i < count; i++) {
            draws[i] = random.nextDouble() * total;
        }
        Arrays.sort(draws);
        long[] keys = new long[count];
        int rank = 1;
        double cumulative = 1;
        for (int i = 0; i < count; i++) {
            while (draws[i] >= cumulative && rank < ranks) {
                rank++;
                cumulative += Math.pow(rank, -exponent);
            }
            keys[i] = key(rank - 1);
        }
        shuffle(keys, random);
        return keys;
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
