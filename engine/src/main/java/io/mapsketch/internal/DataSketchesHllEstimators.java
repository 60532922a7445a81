package io.mapsketch.internal;

import java.math.BigInteger;

/**
 * DataSketches' HLL estimators and bounds, computed as datasketches-java computes them so that an
 * image's estimate here equals its own: the coupon estimator of LIST and SET modes and the composite
 * estimator of HLL mode (the HIP estimate is the image's accumulator itself). The derivations and the
 * origin of each constant are in {@code docs/design/datasketches-hll.md}. Shared by the readers of
 * DataSketches images and the HyperLogLogs that hash as DataSketches does.
 */
public final class DataSketchesHllEstimators {

    /** The smallest lgK; the largest is {@value #MAX_LG_K}. */
    public static final int MIN_LG_K = 4;
    /** The largest lgK. */
    public static final int MAX_LG_K = 21;

    private DataSketchesHllEstimators() {}

    /** Relative standard error of the coupon estimate at its mode switch. */
    private static final double COUPON_RSE = 0.409 / (1 << 13);

    private static final double HIP_RSE_FACTOR = Math.sqrt(Math.log(2.0));
    private static final double NON_HIP_RSE_FACTOR = Math.sqrt(3.0 * Math.log(2.0) - 1.0);

    private static final double EULER_MASCHERONI = 0.577215664901532860606512090082;

    /** Harmonic numbers H(0) to H(24), each the quotient of its exact numerator and denominator. */
    private static final double[] EXACT_HARMONIC = exactHarmonicNumbers(25);

    /**
     * The coupon estimate of a LIST or SET.
     *
     * @param coupons the number of distinct coupons, 0 to 10,200,000
     * @return the estimated cardinality, at least {@code coupons}
     */
    public static double couponEstimate(int coupons) {
        double estimate =
                CubicInterpolation.withYTable(DataSketchesHllTables.COUPON_X, DataSketchesHllTables.COUPON_Y, coupons);
        return Math.max(estimate, coupons);
    }

    /**
     * A bound of the coupon estimate: the estimate over {@code 1 -+ numStdDev * 0.409 / 2^13}, never below
     * the coupon count.
     *
     * @param coupons the number of distinct coupons
     * @param numStdDev 1, 2 or 3 (not checked: see {@link #checkNumStdDev})
     * @param upper the upper bound if true, the lower one if false
     * @return the bound
     */
    public static double couponBound(int coupons, int numStdDev, boolean upper) {
        double estimate =
                CubicInterpolation.withYTable(DataSketchesHllTables.COUPON_X, DataSketchesHllTables.COUPON_Y, coupons);
        double bound = upper ? estimate / (1.0 - numStdDev * COUPON_RSE) : estimate / (1.0 + numStdDev * COUPON_RSE);
        return Math.max(bound, coupons);
    }

    /**
     * The composite (non-HIP) estimate of HLL-mode registers from their stored summaries.
     *
     * @param lgK the sketch's lgK, 4 to 21
     * @param kxqSum {@code kxq0 + kxq1}, the sum of {@code 2^-value} over the registers
     * @param curMin the smallest register value the image records
     * @param numAtCurMin how many registers hold {@code curMin}
     * @return the estimated cardinality
     */
    public static double compositeEstimate(int lgK, double kxqSum, int curMin, int numAtCurMin) {
        double raw = rawEstimate(lgK, kxqSum);
        double[] xs = DataSketchesHllTables.COMPOSITE_X[lgK - MIN_LG_K];
        double yStride = DataSketchesHllTables.COMPOSITE_Y_STRIDE[lgK - MIN_LG_K];
        int last = xs.length - 1;
        if (raw < xs[0]) {
            return 0;
        }
        if (raw > xs[last]) {
            return raw * (yStride * last / xs[last]);
        }
        double adjusted = CubicInterpolation.withYStride(xs, yStride, raw);
        int k = 1 << lgK;
        if (adjusted > 3 * k) {
            return adjusted;
        }
        double linear = linearCountingEstimate(lgK, curMin, numAtCurMin);
        double crossOver = lgK == 4 ? 0.718 : lgK == 5 ? 0.672 : 0.64;
        return (adjusted + linear) / 2.0 > crossOver * k ? adjusted : linear;
    }

    /**
     * A bound of an HLL-mode estimate.
     *
     * @param lgK the sketch's lgK
     * @param estimate the estimate the sketch answers
     * @param outOfOrder whether that estimate is the composite one
     * @param curMin the smallest register value the image records
     * @param numAtCurMin how many registers hold {@code curMin}
     * @param numStdDev 1, 2 or 3
     * @param upper the upper bound if true, the lower one if false
     * @return the bound
     */
    public static double hllBound(
            int lgK, double estimate, boolean outOfOrder, int curMin, int numAtCurMin, int numStdDev, boolean upper) {
        double relativeError = relativeError(upper, outOfOrder, lgK, numStdDev);
        if (upper) {
            return estimate / (1.0 - relativeError);
        }
        int k = 1 << lgK;
        double nonZeros = curMin == 0 ? k - numAtCurMin : k;
        return Math.max(estimate / (1.0 + relativeError), nonZeros);
    }

    /**
     * Refuses a number of standard deviations DataSketches does not give bounds for.
     *
     * @param numStdDev the number asked for
     * @return it, if it is 1, 2 or 3
     * @throws IllegalArgumentException otherwise
     */
    public static int checkNumStdDev(int numStdDev) {
        if (numStdDev < 1 || numStdDev > 3) {
            throw new IllegalArgumentException("numStdDev is " + numStdDev + ", expected 1, 2 or 3");
        }
        return numStdDev;
    }

    private static double relativeError(boolean upper, boolean outOfOrder, int lgK, int numStdDev) {
        if (lgK > 12) {
            double factor = outOfOrder ? NON_HIP_RSE_FACTOR : HIP_RSE_FACTOR;
            return numStdDev * factor / Math.sqrt(1 << lgK);
        }
        double[] table = outOfOrder
                ? (upper ? DataSketchesHllTables.NON_HIP_UPPER : DataSketchesHllTables.NON_HIP_LOWER)
                : (upper ? DataSketchesHllTables.HIP_UPPER : DataSketchesHllTables.HIP_LOWER);
        return Math.abs(table[3 * (lgK - MIN_LG_K) + numStdDev - 1]);
    }

    /** Flajolet et al.'s raw HLL estimate, {@code alpha k^2 / sum(2^-value)}, with DataSketches' alphas. */
    private static double rawEstimate(int lgK, double kxqSum) {
        int k = 1 << lgK;
        double alpha = switch (lgK) {
            case 4 -> 0.673;
            case 5 -> 0.697;
            case 6 -> 0.709;
            default -> 0.7213 / (1.0 + 1.079 / k);
        };
        return alpha * k * k / kxqSum;
    }

    /** Linear counting over the registers still at zero, through the harmonic numbers. */
    private static double linearCountingEstimate(int lgK, int curMin, int numAtCurMin) {
        int k = 1 << lgK;
        int unhit = curMin == 0 ? numAtCurMin : 0;
        if (unhit == 0) {
            return k * Math.log(k / 0.5);
        }
        return k * (harmonic(k) - harmonic(unhit));
    }

    private static double harmonic(long n) {
        if (n < EXACT_HARMONIC.length) {
            return EXACT_HARMONIC[(int) n];
        }
        double x = n;
        double inverseSquare = 1.0 / (x * x);
        double sum = Math.log(x) + EULER_MASCHERONI + 1.0 / (2.0 * x);
        double power = inverseSquare;
        sum -= power * (1.0 / 12.0);
        power *= inverseSquare;
        sum += power * (1.0 / 120.0);
        power *= inverseSquare;
        sum -= power * (1.0 / 252.0);
        power *= inverseSquare;
        sum += power * (1.0 / 240.0);
        return sum;
    }

    private static double[] exactHarmonicNumbers(int count) {
        double[] harmonic = new double[count];
        BigInteger numerator = BigInteger.ZERO;
        BigInteger denominator = BigInteger.ONE;
        for (int n = 1; n < count; n++) {
            BigInteger bigN = BigInteger.valueOf(n);
            numerator = numerator.multiply(bigN).add(denominator);
            denominator = denominator.multiply(bigN);
            BigInteger gcd = numerator.gcd(denominator);
            numerator = numerator.divide(gcd);
            denominator = denominator.divide(gcd);
            harmonic[n] = numerator.doubleValue() / denominator.doubleValue();
        }
        return harmonic;
    }
}
