package io.mapsketch.cardinality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.KeyGenerators;
import io.mapsketch.enginetesting.Payloads;
import io.mapsketch.enginetesting.SeededKeys;
import java.io.IOException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

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

    /** Weights of the register values 0 to 61 (p = 4 has 62), each 0 or a power of two up to 2^8. */
    private static Gen<long[]> valueWeights() {
        Gen<Long> weights = integers().between(-6, 8).map(r -> r < 0 ? 0L : 1L << r);
        return KeyGenerators.arrays(weights, 62, 62);
    }

    /**
     * The histogram of 2^p registers that gives each value 0 to 65 - p its share by {@code weights}
     * (rounded down, the rest to the heaviest value; all registers empty if every weight is 0): clusters
     * of values, empty and saturated registers, and registers at every value.
     */
    private static long[] histogram(int precision, long[] weights) {
        int m = 1 << precision;
        int top = Long.SIZE - precision + 1;
        long total = Arrays.stream(weights, 0, top + 1).sum();
        long[] counts = new long[top + 1];
        if (total == 0) {
            counts[0] = m;
            return counts;
        }
        int heaviest = 0;
        long given = 0;
        for (int value = 0; value <= top; value++) {
            counts[value] = m * weights[value] / total;
            given += counts[value];
            heaviest = weights[value] > weights[heaviest] ? value : heaviest;
        }
        counts[heaviest] += m - given;
        return counts;
    }

    @Test
    void summaryEstimatorsMatchTheHistogramFormsWithinAFewUlps() {
        qt().withFixedSeed(2017)
                .withExamples(2_000)
                .forAll(integers().between(4, 18), valueWeights())
                .checkAssert((precision, weights) -> {
                    long[] counts = histogram(precision, weights);
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
            assertEquals(
                    horner,
                    HyperLogLogEstimator.improved(0, 0, allOnes, precision),
                    1e-14 * horner,
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
        assertEquals(
                0x1p63 + 0x1p11,
                HyperLogLogEstimator.unsignedToDouble(Long.MIN_VALUE + (1L << 11)),
                "doubles from 2^63 on are 2^11 apart");
        assertEquals(
                0x1p63 + 0x1p11,
                HyperLogLogEstimator.unsignedToDouble(Long.MIN_VALUE + (1L << 10) + 1),
                "above the midpoint rounds up");
        assertEquals(
                0x1p63, HyperLogLogEstimator.unsignedToDouble(Long.MIN_VALUE + (1L << 10)), "a tie rounds to even");
    }

    @Test
    void sketchEstimatesAreTheSummaryEstimatorsOfItsHistogramBitForBit() throws IOException {
        for (int precision : new int[] {4, 10, 14, 18}) {
            for (OpenMode mode : new OpenMode[] {OpenMode.EXCLUSIVE, OpenMode.SHARED}) {
                try (HyperLogLog sketch = HyperLogLogTest.sketch(precision, mode)) {
                    for (int keys : new int[] {0, 1, 300, 20_000, 500_000}) {
                        sketch.addAll(SeededKeys.distinctKeys(keys + precision, keys));
                        long[] counts = new long[Long.SIZE - precision + 2];
                        byte[] registers = Payloads.bytes(sketch);
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
