package io.mapsketch.membership;

import static io.mapsketch.internal.Arguments.requireOpenUnit;
import static io.mapsketch.internal.Arguments.requirePositive;

import io.mapsketch.memory.SketchHeader;

/**
 * The sizing formulas of the blocked Bloom filter: 512-bit blocks of eight 64-bit words, each key
 * setting one bit per word (8 bits per key) or two that may coincide (16).
 *
 * <p>Pure arithmetic, no allocation; each method states its cost where it is not constant.
 * Arguments out of range, and rates no file of the format reaches, throw
 * {@link IllegalArgumentException} naming the parameter, its value and the valid range. The rate
 * model (a Poisson mixture over block loads) and the lowest rate are explained in
 * {@code docs/design/sizing.md}.
 */
public final class BlockedBloomSizing {

    /** The most blocks: the most 64-byte blocks a file's payload can hold, 2^57 - 65. */
    static final long MAX_BLOCKS = SketchHeader.MAX_PAYLOAD_LENGTH / 64;

    /** Lanczos coefficients of {@link #logGamma}. */
    private static final double[] LANCZOS = {
        676.5203681218851,
        -1259.1392167224028,
        771.32342877765313,
        -176.61502916214059,
        12.507343278686905,
        -0.13857109526572012,
        9.9843695780195716e-6,
        1.5056327351493116e-7
    };

    private BlockedBloomSizing() {}

    /**
     * Expected false-positive rate of a blocked Bloom filter holding {@code n} items: the mixture,
     * over the Poisson distribution of keys per block (mean n / blocks), of the rate of a block of
     * each load. It is higher than the classic formula's for the same bits.
     *
     * <p>Cost: O(sqrt(n / blocks)) terms plus a constant, never more than a few thousand.
     *
     * @param blocks number of 512-bit blocks, at least 1
     * @param bitsPerKey 8 or 16
     * @param items n, at least 0
     * @return the probability that an absent key tests positive
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static double falsePositiveRate(long blocks, int bitsPerKey, long items) {
        requirePositive("blocks", blocks);
        if (bitsPerKey != 8 && bitsPerKey != 16) {
            throw new IllegalArgumentException("bitsPerKey = " + bitsPerKey + ", must be 8 or 16");
        }
        if (items < 0) {
            throw new IllegalArgumentException("items = " + items + ", must be >= 0");
        }
        double mean = (double) items / blocks;
        long last = (long) Math.ceil(mean + 12 * Math.sqrt(mean) + 30);
        long first = Math.max(0, (long) Math.floor(mean - 12 * Math.sqrt(mean) - 30));
        double logMean = Math.log(mean);
        double rate = 0;
        double mass = 0;
        for (long load = first; load <= last; load++) {
            double logPoisson =
                    mean == 0 ? (load == 0 ? 0 : Double.NEGATIVE_INFINITY) : load * logMean - mean - logFactorial(load);
            double blockRate = blockFalsePositiveRate(bitsPerKey, load);
            if (blockRate == 1) {
                // Every heavier block answers yes too: the rest of the probability counts whole.
                return rate + Math.max(0, 1 - mass);
            }
            double poisson = Math.exp(logPoisson);
            rate += poisson * blockRate;
            mass += poisson;
        }
        return rate;
    }

    /** The rate of a block holding {@code load} keys; its eight words are independent given the load. */
    private static double blockFalsePositiveRate(int bitsPerKey, long load) {
        double oneBitClear = Math.pow(63.0 / 64, bitsPerKey / 8 * (double) load);
        double perWord;
        if (bitsPerKey == 8) {
            perWord = 1 - oneBitClear;
        } else {
            double twoBitsClear = Math.pow(62.0 / 64, 2.0 * load);
            perWord = (1 - oneBitClear) / 64 + 63.0 / 64 * (1 - 2 * oneBitClear + twoBitsClear);
        }
        return Math.pow(perWord, 8);
    }

    private static double logFactorial(long n) {
        return n < 2 ? 0 : logGamma(n + 1.0);
    }

    /** Lanczos approximation of ln Gamma(x) for x >= 1, accurate to about 1e-14 relative. */
    private static double logGamma(double x) {
        double z = x - 1;
        double sum = 0.99999999999980993;
        for (int i = 0; i < LANCZOS.length; i++) {
            sum += LANCZOS[i] / (z + i + 1);
        }
        double t = z + LANCZOS.length - 0.5;
        return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
    }

    /**
     * Blocks for {@code n} items at false-positive rate {@code p}: the fewest whose
     * {@link #falsePositiveRate} at n items is at most p, at most {@link #MAX_BLOCKS}. 10,000 items at
     * 1% with 8 bits per key take about 10.1 bits per item. Cost: a binary search, O(log n)
     * evaluations of the rate.
     *
     * @throws IllegalArgumentException if an argument is out of range: p below
     *     {@link #lowestRate(long, int)}
     */
    static long blocks(long expectedItems, double falsePositiveRate, int bitsPerKey) {
        requirePositive("expectedItems", expectedItems);
        requireOpenUnit("falsePositiveRate", falsePositiveRate);
        double lowest = lowestRate(expectedItems, bitsPerKey);
        if (falsePositiveRate < lowest) {
            throw rateRefused(expectedItems, falsePositiveRate, lowest, bitsPerKey + " bits per key");
        }
        long low = 1;
        long high = (long) Math.min(
                MAX_BLOCKS, Math.max(1, Math.ceil(BloomSizing.cells(expectedItems, falsePositiveRate) / 512)));
        while (falsePositiveRate(high, bitsPerKey, expectedItems) > falsePositiveRate) {
            low = high + 1;
            high = Math.min(MAX_BLOCKS, 2 * high);
        }
        while (low < high) {
            long middle = low + (high - low) / 2;
            if (falsePositiveRate(middle, bitsPerKey, expectedItems) <= falsePositiveRate) {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        return low;
    }

    /**
     * The lowest false-positive rate a blocked Bloom filter of n items reaches: its rate with the most
     * blocks a file holds, 2^57 - 65. About {@code 5e-40} for 100 items with 16 bits per key; more
     * items, higher.
     *
     * @param expectedItems n, at least 1
     * @param bitsPerKey 8 or 16
     * @return the rate
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static double lowestRate(long expectedItems, int bitsPerKey) {
        requirePositive("expectedItems", expectedItems);
        return falsePositiveRate(MAX_BLOCKS, bitsPerKey, expectedItems);
    }

    /**
     * The lowest false-positive rate a blocked Bloom filter of n items reaches with either probe
     * pattern: the lower of {@link #lowestRate(long, int)} at 8 and at 16 bits per key.
     *
     * @param expectedItems n, at least 1
     * @return the rate
     * @throws IllegalArgumentException if n is out of range
     */
    public static double lowestRate(long expectedItems) {
        return Math.min(lowestRate(expectedItems, 8), lowestRate(expectedItems, 16));
    }

    private static IllegalArgumentException rateRefused(
            long expectedItems, double falsePositiveRate, double lowest, String pattern) {
        return new IllegalArgumentException("falsePositiveRate = " + falsePositiveRate + ", must be in [" + lowest
                + ", 1) for a blocked Bloom filter of expectedItems = " + expectedItems + " with " + pattern
                + " (the rate of " + MAX_BLOCKS + " blocks, the most a file holds); fewer items"
                + " reach lower rates");
    }

    /**
     * The probe pattern that needs fewer blocks for {@code n} items at rate {@code p}: 8 bits per key
     * or 16; ties go to 8, which costs fewer memory operations, and a rate only 16 reach gets 16.
     *
     * @throws IllegalArgumentException if an argument is out of range, or neither pattern reaches p
     */
    static int bitsPerKey(long expectedItems, double falsePositiveRate) {
        requirePositive("expectedItems", expectedItems);
        requireOpenUnit("falsePositiveRate", falsePositiveRate);
        double lowestOfEight = lowestRate(expectedItems, 8);
        double lowestOfSixteen = lowestRate(expectedItems, 16);
        double lowest = Math.min(lowestOfEight, lowestOfSixteen);
        if (falsePositiveRate < lowest) {
            throw rateRefused(expectedItems, falsePositiveRate, lowest, "8 or 16 bits per key");
        }
        if (falsePositiveRate < lowestOfEight) {
            return 16;
        }
        if (falsePositiveRate < lowestOfSixteen) {
            return 8;
        }
        long eight = blocks(expectedItems, falsePositiveRate, 8);
        long sixteen = blocks(expectedItems, falsePositiveRate, 16);
        return sixteen < eight ? 16 : 8;
    }
}
