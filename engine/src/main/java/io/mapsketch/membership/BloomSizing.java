package io.mapsketch.membership;

import static io.mapsketch.internal.Arguments.requireOpenUnit;
import static io.mapsketch.internal.Arguments.requirePositive;

/**
 * The sizing formulas of the classic layouts, the Bloom filter's bits and the counting Bloom
 * filter's counters, so that the builders, the documentation and the {@code mapsketch} command
 * state the same size for the same question.
 *
 * <p>Pure arithmetic, no allocation. Arguments out of range throw {@link IllegalArgumentException}
 * naming the parameter, its value and the valid range; the limits and how they were found are in
 * {@code docs/design/sizing.md}.
 */
public final class BloomSizing {

    /**
     * The lowest rate a classic or counting Bloom filter is sized for: 2^-64. A rate p takes about
     * {@code log2(1 / p)} probes per key, and the format allows at most 64.
     */
    public static final double LOWEST_RATE = 0x1p-64;

    private static final double LN2 = Math.log(2);

    private BloomSizing() {}

    /**
     * Bits of a classic Bloom filter for {@code n} items at false-positive rate {@code p}:
     * {@code m = ceil(-n ln p / (ln 2)^2)}. 10,000 items at 1% give 95,851 bits.
     *
     * @param expectedItems n, at least 1
     * @param falsePositiveRate p, in (0, 1)
     * @return m, in bits
     * @throws IllegalArgumentException if an argument is out of range or m exceeds 2^63 - 1
     */
    static long bits(long expectedItems, double falsePositiveRate) {
        requirePositive("expectedItems", expectedItems);
        requireOpenUnit("falsePositiveRate", falsePositiveRate);
        double bits = cells(expectedItems, falsePositiveRate);
        if (bits >= Long.MAX_VALUE) {
            throw new IllegalArgumentException("expectedItems = " + expectedItems + " at falsePositiveRate = "
                    + falsePositiveRate + " needs " + bits + " bits, more than 2^63 - 1");
        }
        return (long) bits;
    }

    /**
     * The most items a classic layout of at most {@code maxCells} cells (bits or counters) is sized
     * for at rate p: the largest n whose {@link #bits} is at most {@code maxCells}, or 0 if even one
     * item needs more. Cost: a binary search, at most 63 evaluations of the formula.
     *
     * @throws IllegalArgumentException if p is not in (0, 1) or {@code maxCells} is below 1
     */
    static long maxItems(double falsePositiveRate, long maxCells) {
        requireOpenUnit("falsePositiveRate", falsePositiveRate);
        requirePositive("maxCells", maxCells);
        long low = 0;
        long high = Long.MAX_VALUE;
        while (low < high) {
            long middle = (low + high + 1) >>> 1;
            if (cells(middle, falsePositiveRate) <= maxCells) {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        return low;
    }

    /** {@code ceil(-n ln p / (ln 2)^2)} in double precision, unchecked. */
    static double cells(long expectedItems, double falsePositiveRate) {
        return Math.ceil(-expectedItems * Math.log(falsePositiveRate) / (LN2 * LN2));
    }

    /**
     * Hash functions of a classic Bloom filter: {@code k = round((m / n) ln 2)}, at least 1. 95,851
     * bits for 10,000 items give 7.
     *
     * @throws IllegalArgumentException if m or n is below 1
     */
    static int hashes(long bits, long expectedItems) {
        requirePositive("bits", bits);
        requirePositive("expectedItems", expectedItems);
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.round((double) bits / expectedItems * LN2)));
    }

    /**
     * Expected false-positive rate of a classic Bloom filter holding {@code n} items:
     * {@code (1 - e^(-k n / m))^k}.
     *
     * @param bits m, at least 1
     * @param hashes k, at least 1
     * @param items n, at least 0
     * @return the probability that an absent key tests positive
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static double falsePositiveRate(long bits, int hashes, long items) {
        requirePositive("bits", bits);
        requirePositive("hashes", hashes);
        if (items < 0) {
            throw new IllegalArgumentException("items = " + items + ", must be >= 0");
        }
        return Math.pow(-Math.expm1(-(double) hashes * items / bits), hashes);
    }
}
