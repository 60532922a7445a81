package io.mapsketch.cardinality;

/**
 * The two cardinality estimators of {@link HyperLogLog}, as pure functions of a register summary
 * ({@code RegisterKernels.summary} with {@code top = q + 1}, where {@code q = 64 - p}; a register holds
 * the rank of the 64 - p hash bits after the index, their leading zeros plus one, at most
 * {@code q + 1}): the number of empty registers {@code C_0}, the number of saturated registers
 * {@code C_(q+1)}, and the power sum {@code S = sum_{k=1..q} C_k 2^(q-k)}, which is the sum of
 * {@code 2^-r} over the other registers scaled by {@code 2^q}: an exact integer below 2^64. Nothing
 * else of the register histogram enters either estimator.
 *
 * <p>{@link #improved} is the estimator of O. Ertl, "New cardinality estimation algorithms for
 * HyperLogLog sketches" (2017): it replaces the classic estimator's switch to linear counting (and
 * its bias tables) by two series, sigma for the empty registers and tau for the saturated ones, and
 * is nearly unbiased from 0 to far beyond 10^9 distinct items with no jump anywhere. {@link #classic}
 * is the estimator of Flajolet et al. (2007): the raw harmonic mean, replaced by linear counting
 * {@code m ln(m / V)} while the raw value is at most {@code 2.5 m} and some register {@code V} is
 * empty; it is kept for comparison. With a 64-bit hash no large-range correction is needed.
 *
 * <p>Rounding: the paper evaluates {@code sum_k C_k 2^-k} in Horner form, rounding at each of q
 * steps; here the sum is the exact integer S, rounded once when it is converted to a double, so the
 * estimate differs from the Horner form's by a few units in the last place at most (tested within a
 * relative 1e-14) and is, if anything, the more accurate.
 *
 * <p>Cost: O(1) arithmetic plus two series that converge in at most about 60 steps; no allocation.
 */
final class HyperLogLogEstimator {

    /** The limit of the bias-correction constant alpha_m for large m: 1 / (2 ln 2). */
    static final double ALPHA_INFINITY = 1 / (2 * Math.log(2));

    private HyperLogLogEstimator() {}

    /**
     * Ertl's improved estimator: {@code alpha_inf m^2 / (m sigma(C_0 / m) + (S + m tau(1 - C_{q+1} / m))
     * 2^-q)}. Returns 0 for an empty sketch and positive infinity when every register is saturated.
     *
     * @param zeros {@code C_0}, the empty registers
     * @param saturated {@code C_(q+1)}, the registers at the largest rank
     * @param powerSum S, read as unsigned
     */
    static double improved(long zeros, long saturated, long powerSum, int precision) {
        int m = 1 << precision;
        int q = Long.SIZE - precision;
        double z = Math.scalb(m * tau(1 - (double) saturated / m) + unsignedToDouble(powerSum), -q);
        z += m * sigma((double) zeros / m);
        return ALPHA_INFINITY * m * m / z;
    }

    /**
     * The classic estimator: {@code E = alpha_m m^2 / sum_j 2^-M_j}, the sum being
     * {@code C_0 + (S + C_(q+1) / 2) 2^-q}; if {@code E <= 2.5 m} and {@code V = C_0 > 0} registers are
     * empty, linear counting {@code m ln(m / V)} instead. Biased by a few percent just above the switch,
     * which the improved estimator is not.
     */
    static double classic(long zeros, long saturated, long powerSum, int precision) {
        return classicOfSum(
                zeros + Math.scalb(unsignedToDouble(powerSum) + 0.5 * saturated, precision - Long.SIZE),
                zeros,
                precision);
    }

    /**
     * The classic estimator from the sum {@code sum_j 2^-M_j} itself, for registers whose power sum does not
     * fit 64 bits (DataSketches' values run to 63 at every precision).
     */
    static double classicOfSum(double sum, long zeros, int precision) {
        int m = 1 << precision;
        double raw = alpha(m) * m * m / sum;
        if (raw <= 2.5 * m && zeros > 0) {
            return m * Math.log((double) m / zeros);
        }
        return raw;
    }

    /** The unsigned value of {@code x}, rounded to the nearest double. */
    static double unsignedToDouble(long x) {
        if (x >= 0) {
            return x;
        }
        return 2.0 * ((x >>> 1) | (x & 1));
    }

    /** The classic bias-correction constant alpha_m of Flajolet et al. */
    static double alpha(int m) {
        return switch (m) {
            case 16 -> 0.673;
            case 32 -> 0.697;
            case 64 -> 0.709;
            default -> 0.7213 / (1 + 1.079 / m);
        };
    }

    /** {@code sigma(x) = x + sum_{k>=1} x^(2^k) 2^(k-1)}, infinite at x = 1 (an empty sketch). */
    static double sigma(double x) {
        if (x == 1) {
            return Double.POSITIVE_INFINITY;
        }
        double power = x;
        double weight = 1;
        double sum = x;
        double previous;
        do {
            power *= power;
            previous = sum;
            sum += power * weight;
            weight += weight;
        } while (sum != previous);
        return sum;
    }

    /** {@code tau(x) = (1 - x - sum_{k>=1} (1 - x^(2^-k))^2 2^-k) / 3}; zero at x = 0 and x = 1. */
    static double tau(double x) {
        if (x == 0 || x == 1) {
            return 0;
        }
        double root = x;
        double weight = 1;
        double sum = 1 - x;
        double previous;
        do {
            root = Math.sqrt(root);
            previous = sum;
            weight *= 0.5;
            double gap = 1 - root;
            sum -= gap * gap * weight;
        } while (sum != previous);
        return sum / 3;
    }
}
