package io.mapsketch.jmh;

import java.util.SplittableRandom;

/**
 * The lookup keys of the filter benchmarks: an array of {@value #PROBES} keys (128 MiB, far larger than
 * the caches), its first half drawn at random among the keys present in the filter (key indices
 * {@code 0 .. items - 1} of {@link BloomBenchmark#key}), its second half absent keys (indices from
 * {@code items} on); {@link #shuffle} mixes them with the same generator.
 */
final class LookupProbes {

    /** Probe keys per benchmark, a power of two so a cursor wraps with a mask. */
    static final int PROBES = 1 << 24;

    private LookupProbes() {
    }

    /** Present keys in {@code [0, PROBES / 2)}, absent keys after, not yet shuffled. */
    static long[] halfPresent(long items, SplittableRandom random) {
        long[] probes = new long[PROBES];
        for (int i = 0; i < PROBES / 2; i++) {
            probes[i] = BloomBenchmark.key(random.nextLong(items));
            probes[PROBES / 2 + i] = BloomBenchmark.key(items + i);
        }
        return probes;
    }

    /** Fisher-Yates shuffle with the given generator. */
    static void shuffle(long[] probes, SplittableRandom random) {
        for (int i = probes.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            long swap = probes[i];
            probes[i] = probes[j];
            probes[j] = swap;
        }
    }
}
