package io.mapsketch.engine;

/**
 * The sizing formulas of every sketch, in one place, so that a builder, the documentation and
 * the {@code mapsketch} command all state the same size for the same question.
 *
 * <p>Every method is pure arithmetic: no allocation, constant time. Arguments out of range throw
 * {@link IllegalArgumentException} naming the parameter, its value and the valid range.
 */
public final class SketchSizing {

    private static final double LN2 = Math.log(2);

    private SketchSizing() {
    }

    /**
     * Bits of a classic Bloom filter for {@code n} items at false-positive rate {@code p}:
     * {@code m = ceil(-n ln p / (ln 2)^2)}. 10,000 items at 1% give 95,851 bits.
     *
     * @param expectedItems n, at least 1
     * @param falsePositiveRate p, in (0, 1)
     * @return m, in bits
     * @throws IllegalArgumentException if an argument is out of range or m exceeds 2^63 - 1
     */
    public static long bloomBits(long expectedItems, double falsePositiveRate) {
        requirePositive("expectedItems", expectedItems);
        requireOpenUnit("falsePositiveRate", falsePositiveRate);
        double bits = Math.ceil(-expectedItems * Math.log(falsePositiveRate) / (LN2 * LN2));
        if (bits >= Long.MAX_VALUE) {
            throw new IllegalArgumentException("expectedItems = " + expectedItems + " at falsePositiveRate = "
                    + falsePositiveRate + " needs " + bits + " bits, more than 2^63 - 1");
        }
        return (long) bits;
    }

    /**
     * Hash functions of a classic Bloom filter: {@code k = round((m / n) ln 2)}, at least 1.
     * 95,851 bits for 10,000 items give 7.
     *
     * @param bits m, at least 1
     * @param expectedItems n, at least 1
     * @return k
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static int bloomHashes(long bits, long expectedItems) {
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
    public static double bloomFalsePositiveRate(long bits, int hashes, long items) {
        requirePositive("bits", bits);
        requirePositive("hashes", hashes);
        if (items < 0) {
            throw new IllegalArgumentException("items = " + items + ", must be >= 0");
        }
        return Math.pow(-Math.expm1(-(double) hashes * items / bits), hashes);
    }

    /**
     * Width of a Count-Min sketch: {@code w = ceil(e / epsilon)}. Epsilon 0.001 gives 2,719.
     *
     * @param epsilon the error as a fraction of the total weight, in (0, 1)
     * @return w, counters per row
     * @throws IllegalArgumentException if epsilon is out of range
     */
    public static int countMinWidth(double epsilon) {
        requireOpenUnit("epsilon", epsilon);
        double width = Math.ceil(Math.E / epsilon);
        if (width > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("epsilon = " + epsilon + " needs " + width
                    + " counters per row, more than 2^31 - 1; epsilon must be at least " + (Math.E / Integer.MAX_VALUE));
        }
        return (int) width;
    }

    /**
     * Depth of a Count-Min sketch: {@code d = ceil(ln(1 / delta))}. Delta 0.01 gives 5.
     *
     * @param delta the probability that an estimate exceeds the bound, in (0, 1)
     * @return d, rows (at least 1)
     * @throws IllegalArgumentException if delta is out of range
     */
    public static int countMinDepth(double delta) {
        requireOpenUnit("delta", delta);
        return (int) Math.max(1, Math.ceil(Math.log(1 / delta)));
    }

    /**
     * Registers of a HyperLogLog sketch of precision {@code p}: {@code m = 2^p}, one byte each.
     *
     * @param precision p, in [4, 18]
     * @return m
     * @throws IllegalArgumentException if p is out of range
     */
    public static int hyperLogLogRegisters(int precision) {
        if (precision < 4 || precision > 18) {
            throw new IllegalArgumentException("precision = " + precision + ", must be in [4, 18]");
        }
        return 1 << precision;
    }

    /**
     * Relative standard error of a HyperLogLog sketch: {@code 1.04 / sqrt(m)} (one standard
     * deviation, not a maximum). p = 14 gives 0.8125%.
     *
     * @param precision p, in [4, 18]
     * @return the relative standard error
     * @throws IllegalArgumentException if p is out of range
     */
    public static double hyperLogLogRelativeStandardError(int precision) {
        return 1.04 / Math.sqrt(hyperLogLogRegisters(precision));
    }

    private static void requirePositive(String name, long value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " = " + value + ", must be >= 1");
        }
    }

    private static void requireOpenUnit(String name, double value) {
        if (!(value > 0 && value < 1)) {
            throw new IllegalArgumentException(name + " = " + value + ", must be in (0, 1)");
        }
    }
}
