package io.mapsketch.cardinality;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.Payloads;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The improved estimator's accuracy from 1 to 10^7 distinct keys, measured against
 * {@code 1.04 / sqrt(m)}: at every cardinality the RMS relative error is at most 1.1 times it and
 * the mean relative error (the bias) within a third of it, for p = 10 and p = 14.
 *
 * <p><b>How the sweep stays fast.</b> The estimators read only the register histogram, and with
 * distinct keys (independent uniform hashes) the histogram is a Markov chain of its own: a new hash
 * changes a register holding v with probability {@code 2^-v / m}, so the number of hashes that
 * change nothing before the next change is geometric with success probability
 * {@code z = sum_v C_v 2^-v / m}; the register that changes holds v with probability proportional
 * to {@code C_v 2^-v}, and its new value is {@code v + G}, {@code P(G = g) = 2^-g}, capped at
 * {@code 65 - p}. {@link HistogramChain} draws exactly that, so a trial costs one step per register
 * change (about ten per register up to 10^7 keys) instead of one per key, and every trial runs the
 * whole range from 1 to 10^7. {@link #theChainHasTheExactRegisterDistribution} checks the chain,
 * and the real sketch fed hashed keys, against the exact law {@code P(M <= k) = (1 - 2^-k / m)^n}.
 *
 * <p><b>Why the trial count gives a tight interval.</b> With T independent trials, the relative
 * standard error of a measured RMS is about {@code 1 / sqrt(2 T)} (errors are close to normal): at
 * the default T = {@value #DEFAULT_TRIALS} that is 1.6%, so the asserted bound of 1.1 x 1.04/sqrt(m)
 * lies about 3.7 standard errors of the measurement above the estimator's asymptotic RMS of
 * {@code sqrt(3 ln 2 - 1) / sqrt(m) = 1.0385 / sqrt(m)}. The mean is known to within
 * {@code 1.04 / sqrt(m T)}, 1/45 of the error, so a bias of a third of the error is 15 of its
 * standard errors. The sweep is seeded: the same numbers every run. The system property
 * {@code mapsketch.hll.sweepTrials} changes T (for example 20000 for a tighter interval, about ten
 * times as long); the table of RMS and bias per cardinality, for both estimators, goes to standard
 * output (Surefire keeps it in {@code target/surefire-reports}).
 */
class HyperLogLogAccuracyTest {

    static final int DEFAULT_TRIALS = 2_000;
    private static final int TRIALS = Integer.getInteger("mapsketch.hll.sweepTrials", DEFAULT_TRIALS);
    /** Cardinalities 10^(i/5), rounded, for i = 0..35: five per decade from 1 to 10^7. */
    private static final long[] CARDINALITIES = IntStream.rangeClosed(0, 35)
            .mapToLong(i -> Math.round(Math.pow(10, i / 5.0)))
            .distinct()
            .toArray();

    @ParameterizedTest(name = "p = {0}")
    @ValueSource(ints = {10, 14})
    void improvedEstimatorIsWithinTheStandardErrorAndUnbiasedFromOneToTenMillion(int precision) {
        long[] seeds = new SplittableRandom(2017 + precision).longs(TRIALS).toArray();
        List<double[][]> trials = IntStream.range(0, TRIALS)
                .parallel()
                .mapToObj(trial -> runTrial(precision, seeds[trial]))
                .toList();
        double standardError = HyperLogLogSizing.relativeStandardError(precision);
        StringBuilder table = new StringBuilder(String.format(
                Locale.ROOT,
                "p = %d, %d trials, 1.04/sqrt(m) = %.4f%%%n%12s %12s %12s %12s %12s%n",
                precision,
                TRIALS,
                100 * standardError,
                "n",
                "RMS %",
                "bias %",
                "classic RMS",
                "classic bias"));
        List<String> failures = new ArrayList<>();
        for (int c = 0; c < CARDINALITIES.length; c++) {
            double[] improved = moments(trials, c, 0);
            double[] classic = moments(trials, c, 1);
            table.append(String.format(
                    Locale.ROOT,
                    "%12d %12.4f %12.4f %12.4f %12.4f%n",
                    CARDINALITIES[c],
                    100 * improved[1],
                    100 * improved[0],
                    100 * classic[1],
                    100 * classic[0]));
            if (improved[1] > 1.1 * standardError) {
                failures.add("n = " + CARDINALITIES[c] + ": RMS " + improved[1]);
            }
            if (Math.abs(improved[0]) > standardError / 3) {
                failures.add("n = " + CARDINALITIES[c] + ": bias " + improved[0]);
            }
        }
        System.out.print(table);
        assertTrue(failures.isEmpty(), failures + "\n" + table);
    }

    /** Returns {mean, RMS} of the relative errors of one estimator at one cardinality over all trials. */
    private static double[] moments(List<double[][]> trials, int cardinality, int estimator) {
        double sum = 0;
        double squares = 0;
        for (double[][] trial : trials) {
            double error = trial[estimator][cardinality];
            sum += error;
            squares += error * error;
        }
        return new double[] {sum / trials.size(), Math.sqrt(squares / trials.size())};
    }

    /** One stream of distinct keys from 1 to 10^7: the relative error of both estimators at each cardinality. */
    private static double[][] runTrial(int precision, long seed) {
        HistogramChain chain = new HistogramChain(precision, seed);
        double[][] errors = new double[2][CARDINALITIES.length];
        for (int c = 0; c < CARDINALITIES.length; c++) {
            long n = CARDINALITIES[c];
            chain.advanceTo(n);
            errors[0][c] = HyperLogLogEstimatorTest.improved(chain.counts, precision) / n - 1;
            errors[1][c] = HyperLogLogEstimatorTest.classic(chain.counts, precision) / n - 1;
        }
        return errors;
    }

    @Test
    void theChainHasTheExactRegisterDistribution() throws IOException {
        int precision = 10;
        int trials = 400;
        for (long n : new long[] {1_000, 100_000}) {
            double[] chainMeans = new double[66];
            for (int trial = 0; trial < trials; trial++) {
                HistogramChain chain = new HistogramChain(precision, 31 * n + trial);
                chain.advanceTo(n);
                accumulate(chainMeans, chain.counts, trials);
            }
            assertMatchesExactLaw(chainMeans, precision, n, trials, "chain");
        }
        long n = 10_000;
        double[] sketchMeans = new double[66];
        SplittableRandom random = new SplittableRandom(77);
        for (int trial = 0; trial < trials / 2; trial++) {
            try (HyperLogLog sketch =
                    HyperLogLog.builder().precision(precision).seed(trial).createAnonymous(OpenMode.EXCLUSIVE)) {
                sketch.addAll(random.longs(n).toArray());
                long[] counts = new long[66];
                for (byte register : Payloads.bytes(sketch)) {
                    counts[register]++;
                }
                accumulate(sketchMeans, counts, trials / 2);
            }
        }
        assertMatchesExactLaw(sketchMeans, precision, n, trials / 2, "sketch of hashed keys");
    }

    private static void accumulate(double[] means, long[] counts, int trials) {
        for (int k = 0; k < means.length; k++) {
            means[k] += (double) counts[k] / trials;
        }
    }

    /**
     * Mean register histogram against {@code m (F(k) - F(k - 1))}, {@code F(k) = (1 - 2^-k / m)^n}:
     * the total over all trials within 5 sigma plus 3 registers (for the rare values, whose counts
     * are Poisson with a mean far below one).
     */
    private static void assertMatchesExactLaw(double[] means, int precision, long n, int trials, String what) {
        int m = 1 << precision;
        int top = HyperLogLogLayout.maxRank(precision);
        double below = 0;
        for (int k = 0; k <= top; k++) {
            double atMost = k == top ? 1 : Math.pow(1 - Math.scalb(1.0, -k) / m, n);
            double probability = atMost - below;
            below = atMost;
            double expected = m * probability;
            double tolerance = (5 * Math.sqrt(trials * m * probability * (1 - probability)) + 3) / trials;
            assertTrue(
                    Math.abs(means[k] - expected) <= tolerance,
                    what + ", n = " + n + ", registers holding " + k + ": mean " + means[k] + ", expected " + expected
                            + " +- " + tolerance);
        }
    }

    /**
     * The register histogram of a sketch of precision p fed distinct keys, drawn one register change
     * at a time (see the class comment).
     */
    static final class HistogramChain {

        final long[] counts = new long[66];
        private final int m;
        private final int q;
        private final SplittableRandom random;
        private long keys;
        /** Smallest value some register holds; registers only grow, so it only grows. */
        private int lowest;
        /** Largest value at most q that some register holds. */
        private int highest;

        HistogramChain(int precision, long seed) {
            this.m = 1 << precision;
            this.q = Long.SIZE - precision;
            this.random = new SplittableRandom(seed);
            counts[0] = m;
        }

        void advanceTo(long target) {
            while (keys < target) {
                double weight = 0;
                for (int v = lowest; v <= highest; v++) {
                    weight += Math.scalb((double) counts[v], -v);
                }
                if (weight == 0) {
                    keys = target;
                    return;
                }
                double z = weight / m;
                double unchanged = z >= 1 ? 0 : Math.floor(Math.log(1 - random.nextDouble()) / Math.log1p(-z));
                if (unchanged >= target - keys) {
                    keys = target;
                    return;
                }
                keys += (long) unchanged + 1;
                double pick = random.nextDouble() * weight;
                int from = lowest;
                double cumulative = Math.scalb((double) counts[from], -from);
                while (from < highest && (counts[from] == 0 || pick >= cumulative)) {
                    from++;
                    cumulative += Math.scalb((double) counts[from], -from);
                }
                int to = Math.min(q + 1, from + 1 + Long.numberOfTrailingZeros(random.nextLong() | Long.MIN_VALUE));
                counts[from]--;
                counts[to]++;
                while (lowest <= q && counts[lowest] == 0) {
                    lowest++;
                }
                highest = Math.max(highest, Math.min(to, q));
                while (highest > lowest && counts[highest] == 0) {
                    highest--;
                }
            }
        }
    }
}
