package io.mapsketch.enginetesting;

import java.util.SplittableRandom;

/**
 * A seeded Zipf sampler over ranks 0..n-1 with exponent s (inverse CDF by binary search), and the keys
 * of its ranks. Its streams are tens of thousands of events that a test and its child JVMs derive from
 * the same seed, and the seed's demo streams.
 */
public final class Zipf {

    /** Ranks of the demo streams: 10,000 keys. */
    public static final int DEMO_RANKS = 10_000;

    private final double[] cdf;
    private final SplittableRandom random;

    /** A sampler over ranks {@code 0..n-1}, rank r drawn with probability proportional to {@code (r + 1)^-s}. */
    public Zipf(int n, double s, long seed) {
        cdf = new double[n];
        double sum = 0;
        for (int k = 0; k < n; k++) {
            sum += 1 / Math.pow(k + 1, s);
            cdf[k] = sum;
        }
        for (int k = 0; k < n; k++) {
            cdf[k] /= sum;
        }
        random = new SplittableRandom(seed);
    }

    /** The next rank. */
    public int next() {
        double u = random.nextDouble();
        int lo = 0;
        int hi = cdf.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cdf[mid] < u) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The key of Zipf rank r: spread out so that keys are not small consecutive integers. */
    public static long zipfKey(int rank) {
        return rank * 0x9E3779B97F4A7C15L + 12345;
    }

    /** {@code events} keys of a seeded Zipf(1.0) stream over {@value #DEMO_RANKS} ranks. */
    public static long[] zipfStream(long seed, int events) {
        Zipf zipf = new Zipf(DEMO_RANKS, 1.0, seed);
        long[] stream = new long[events];
        for (int i = 0; i < events; i++) {
            stream[i] = zipfKey(zipf.next());
        }
        return stream;
    }
}
