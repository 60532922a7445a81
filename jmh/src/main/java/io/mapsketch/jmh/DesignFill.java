package io.mapsketch.jmh;

import io.mapsketch.jmh.FilterBenchmark.Filter;
import java.util.SplittableRandom;

/**
 * Brings a Bloom filter too large to fill by adds to a given fill without adding its keys: measure
 * the fraction of set bits that the same implementation reaches when keys are added to a small
 * filter of the same bits per key ({@link #measure}), then set every bit of the large filter
 * independently with that probability ({@link #draw}). The large filter then has the fill its keys
 * would give, spread evenly rather than clumped in blocks as real keys leave it, which changes no
 * lookup's memory traffic: a blocked filter reads one line whatever its bits, and a classic filter's
 * absent key stops at its first clear bit, whose position depends only on the fill.
 *
 * <p>Cost: {@link #measure} adds {@value #REFERENCE_ITEMS} keys at most; {@link #draw} draws up to
 * eight random words per word of the filter (the fill's binary digits, 1/256 apart).
 */
final class DesignFill {

    /** The keys the reference filter is sized for: about 1.2 MiB at 1%, so it fills in milliseconds. */
    static final long REFERENCE_ITEMS = 1 << 20;

    private static final long REFERENCE_FIRST_INDEX = 1L << 50;

    private DesignFill() {}

    /**
     * The fraction of set bits in a filter of {@code impl} sized for {@value #REFERENCE_ITEMS} keys
     * after {@code share} of them are added.
     *
     * @param impl an implementation with {@link BloomImplementations#words word access}
     * @param share the keys added, as a fraction of the design count, in [0, 1]
     * @return the fill, in [0, 1]
     */
    static double measure(String impl, double share) {
        Filter reference = BloomImplementations.create(impl, REFERENCE_ITEMS, SketchPlacement.ANONYMOUS);
        try {
            long keys = Math.round(REFERENCE_ITEMS * share);
            long[] chunk = new long[1 << 16];
            for (long from = 0; from < keys; from += chunk.length) {
                int count = (int) Math.min(chunk.length, keys - from);
                for (int i = 0; i < count; i++) {
                    chunk[i] = KeyStreams.key(REFERENCE_FIRST_INDEX + from + i);
                }
                reference.addAll(chunk, count);
            }
            return BloomImplementations.words(reference).fill();
        } finally {
            reference.close();
        }
    }

    /**
     * Overwrites every word with random bits, each set with probability {@code fill} rounded to a
     * multiple of 1/256.
     *
     * @param words the filter's words
     * @param fill the probability of a set bit, in [0, 1]
     * @param seed the random source's seed
     */
    static void draw(FilterWords words, double fill, long seed) {
        int digits = (int) Math.round(fill * 256);
        SplittableRandom random = new SplittableRandom(seed);
        long count = words.count();
        if (digits >= 256) {
            for (long i = 0; i < count; i++) {
                words.set(i, -1L);
            }
            return;
        }
        int lowest = digits == 0 ? 8 : Integer.numberOfTrailingZeros(digits);
        for (long i = 0; i < count; i++) {
            // From the lowest binary digit up: OR with a random word for a 1 (p -> (1 + p) / 2), AND for a 0 (p / 2).
            long word = 0;
            for (int digit = lowest; digit < 8; digit++) {
                long r = random.nextLong();
                word = (digits >>> digit & 1) != 0 ? word | r : word & r;
            }
            words.set(i, word);
        }
    }
}
