package io.mapsketch.cardinality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.mapsketch.membership.MembershipFilterContract;
import io.mapsketch.OpenMode;
import java.io.IOException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The estimators read a register summary (empty, saturated, exact power sum) instead of the
 * histogram: they agree with Ertl's Horner form over the histogram within a relative 1e-14, and a
 * sketch's estimates are the summary estimators of its histogram bit for bit.
 */
class HyperLogLogEstimatorTest {

    /** The summary of a histogram {@code counts[0..q+1]}: {zeros, saturated, power sum}. */
    static long[] summaryOf(long[] counts, int precision) {
        int q = Long.SIZE - precision;
        long powerSum = 0;
        for (int k = 1; k <= q; k++) {
            powerSum += counts[k] << (q - k);
        }
        return new long[] {counts[0], counts[q + 1], powerSum};
    }

    static double improved(long[] counts, int precision) {
        long[] s = summaryOf(counts, precision);
        return HyperLogLogEstimator.improved(s[0], s[1], s[2], precision);
    }

    static double classic(long[] counts, int precision) {
        long[] s = summaryOf(counts, precision);
        return HyperLogLogEstimator.classic(s[0], s[1], s[2], precision);
    }

    /** The paper's evaluation: Horner form over the histogram, rounding at each step. */
    private static double hornerImproved(long[] counts, int precision) {
        int m = 1 << precision;
        int q = Long.SIZE - precision;
        double z = m * HyperLogLogEstimator.tau(1 - (double) counts[q + 1] / m);
        for (int k = q; k >= 1; k--) {
            z = 0.5 * (z + counts[k]);
        }
        z += m * HyperLogLogEstimator.sigma((double) counts[0] / m);
        return HyperLogLogEstimator.ALPHA_INFINITY * m * m / z;
    }

    /** The classic estimator summed over the histogram from the top value down. */
    private static double histogramClassic(long[] counts, int precision) {
        int m = 1 << precision;
        double sum = 0;
        for (int k = Long.SIZE - precision + 1; k >= 0; k--) {
            sum += Math.scalb((double) counts[k], -k);
        }
        double raw = HyperLogLogEstimator.alpha(m) * m * m / sum;
        return raw <= 2.5 * m && counts[0] > 0 ? m * Math.log((double) m / counts[0]) : raw;
    }

    /**
     * A histogram of 2^p registers: a cluster of values around a random centre, and (depending on the
     * shape) empty registers, saturated registers, and registers at every value.
     */
    private static long[] randomHistogram(int precision, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int m = 1 << precision;
        int top = Long.SIZE - precision + 1;
        long[] counts = new long[top + 1];
        int centre = random.nextInt(top + 1);
        int shape = random.nextInt(4);
        for (int i = 0; i < m; i++) {
            int value = switch (shape) {
                case 0 -> random.nextInt(top + 1);
                case 1 -> Math.clamp(centre + (int) Math.round(random.nextGaussian() * 2), 0, top);
                case 2 -> random.nextInt(8) == 0 ? 0 : Math.clamp(centre + random.nextInt(5), 1, top);
                default -> random.nextInt(16) == 0 ? top : Math.clamp(centre - random.nextInt(5), 0, top);
            };
            counts[value]++;
        }
        return counts;
    }

    @Test
    void summaryEstimatorsMatchTheHistogramFormsWithinAFewUlps() {
        qt().withFixedSeed(2017).withExamples(2_000).forAll(integers().between(4, 18), longs().all())
                .checkAssert((precision, seed) -> {
                    long[] counts = randomHistogram(precision, seed);
                    double horner = hornerImproved(counts, precision);
                    assertEquals(horner, improved(counts, precision), 1e-14 * horner, "improved");
                    double classic = histogramClassic(counts, precision);
                    assertEquals(classic, classic(counts, precision), 1e-14 * classic, "classic");
                });
    }

    @Test
    void edgeSummariesGiveZeroAndInfinity() {
        for (int precision = 4; precision <= 18; precision++) {
            int m = 1 << precision;
            assertEquals(0.0, HyperLogLogEstimator.improved(m, 0, 0, precision), "empty");
            assertEquals(Double.POSITIVE_INFINITY, HyperLogLogEstimator.improved(0, m, 0, precision), "saturated");
            long allOnes = (long) m << (Long.SIZE - precision - 1);
            double horner = hornerImproved(histogramOfOnes(precision), precision);
            assertEquals(horner, HyperLogLogEstimator.improved(0, 0, allOnes, precision), 1e-14 * horner,
                    "every register at rank 1: power sum 2^63 at every p, read unsigned");
        }
    }

    private static long[] histogramOfOnes(int precision) {
        long[] counts = new long[Long.SIZE - precision + 2];
        counts[1] = 1L << precision;
        return counts;
    }

    @Test
    void unsignedToDoubleRoundsToNearest() {
        assertEquals(0x1p63, HyperLogLogEstimator.unsignedToDouble(Long.MIN_VALUE));
        assertEquals(0x1p64, HyperLogLogEstimator.unsignedToDouble(-1L));
        assertEquals(12345.0, HyperLogLogEstimator.unsignedToDouble(12345));
        assertEquals(0x1p63 + 0x1p11, HyperLogLogEstimator.unsignedToDouble(Long.MIN_VALUE + (1L << 11)),
                "doubles from 2^63 on are 2^11 apart");
        assertEquals(0x1p63 + 0x1p11, HyperLogLogEstimator.unsignedToDouble(Long.MIN_VALUE + (1L << 10) + 1),
                "above the midpoint rounds up");
        assertEquals(0x1p63, HyperLogLogEstimator.unsignedToDouble(Long.MIN_VALUE + (1L << 10)),
                "a tie rounds to even");
    }

    @Test
    void sketchEstimatesAreTheSummaryEstimatorsOfItsHistogramBitForBit() throws IOException {
        for (int precision : new int[] {4, 10, 14, 18}) {
            for (OpenMode mode : new OpenMode[] {OpenMode.EXCLUSIVE, OpenMode.SHARED}) {
                try (HyperLogLog sketch = HyperLogLogTest.sketch(precision, mode)) {
                    for (int keys : new int[] {0, 1, 300, 20_000, 500_000}) {
                        sketch.addAll(HyperLogLogTest.distinctKeys(keys + precision, keys));
                        long[] counts = new long[Long.SIZE - precision + 2];
                        byte[] registers = MembershipFilterContract.bytes(sketch);
                        for (int j = 0; j < sketch.registerCount(); j++) {
                            counts[registers[j]]++;
                        }
                        assertEquals(improved(counts, precision), sketch.estimate(), 0.0);
                        assertEquals(classic(counts, precision), sketch.classicEstimate(), 0.0);
                    }
                }
            }
        }
    }
}
