package io.mapsketch.jmh;

import java.util.SplittableRandom;

/**
 * The lookup keys of the filter benchmarks: an array of {@value #PROBES} keys (128 MiB, far larger than
 * the caches), its first half drawn at random among the keys present in the filter (key indices
 * {@code 0 .. items - 1} of {@link KeyStreams#key}), its second half absent keys (indices from
 * {@code items} on); {@link KeyStreams#shuffle} mixes them.
 */
final class LookupProbes {

    /** Probe keys per benchmark, a power of two so a cursor wraps with a mask. */
    static final int PROBES = 1 << 24;

    private LookupProbes() {}

    /** Present keys in {@code [0, PROBES / 2)}, absent keys after, not yet shuffled. */
    static long[] halfPresent(long items, SplittableRandom random) {
        long[] probes = new long[PROBES];
        for (int i = 0; i < PROBES / 2; i++) {
            probes[i] = KeyStreams.key(random.nextLong(items));
            probes[PROBES / 2 + i] = KeyStreams.key(items + i);
        }
        return probes;
    }

    /** {@value #PROBES} keys drawn at random among the present keys (indices {@code 0 .. items - 1}). */
    static long[] allPresent(long items, SplittableRandom random) {
        long[] probes = new long[PROBES];
        for (int i = 0; i < PROBES; i++) {
            probes[i] = KeyStreams.key(random.nextLong(items));
        }
        return probes;
    }
}
