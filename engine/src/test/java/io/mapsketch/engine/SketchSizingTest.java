package io.mapsketch.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.longs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The seed numbers of the design, and the formulas' shape over their whole range. */
class SketchSizingTest {

    @Test
    void seedNumbers() {
        assertEquals(95_851, SketchSizing.bloomBits(10_000, 0.01));
        assertEquals(7, SketchSizing.bloomHashes(95_851, 10_000));
        assertEquals(2_719, SketchSizing.countMinWidth(0.001));
        assertEquals(5, SketchSizing.countMinDepth(0.01));
        assertEquals(16_384, SketchSizing.hyperLogLogRegisters(14));
        assertEquals(0.008125, SketchSizing.hyperLogLogRelativeStandardError(14), 1e-12);
        assertEquals(0.0325, SketchSizing.hyperLogLogRelativeStandardError(10), 1e-12);
    }

    @Test
    void hundredMillionItemsAtOnePerMille() {
        long bits = SketchSizing.bloomBits(100_000_000, 0.001);
        assertEquals(171.4, bits / 8.0 / (1 << 20), 0.1, "about 172 MB (MiB)");
        assertEquals(10, SketchSizing.bloomHashes(bits, 100_000_000));
    }

    @Test
    void filtersBeyondTwoToTheThirtyTwoBitsAreSized() {
        long bits = SketchSizing.bloomBits(3_000_000_000L, 0.01);
        assertTrue(bits > 1L << 32, "bits = " + bits);
        assertEquals(0.01, SketchSizing.bloomFalsePositiveRate(bits, SketchSizing.bloomHashes(bits, 3_000_000_000L),
                3_000_000_000L), 0.0005);
    }

    @Test
    void sizedFiltersMeetTheirRateAtCapacity() {
        qt().withFixedSeed(11L).withExamples(500)
                .forAll(longs().between(1, 10_000_000_000L), doubles().between(1e-9, 0.5))
                .checkAssert((items, rate) -> {
                    long bits = SketchSizing.bloomBits(items, rate);
                    int hashes = SketchSizing.bloomHashes(bits, items);
                    double expected = SketchSizing.bloomFalsePositiveRate(bits, hashes, items);
                    assertTrue(expected <= rate * 1.05, items + " items at " + rate + ": FPR " + expected);
                });
    }

    @Test
    void cuckooNumbersOfTheLiterature() {
        assertEquals(12, SketchSizing.cuckooBitsPerSlot(12), 1e-12, "12-bit fingerprints packed densely");
        assertEquals(12.63, SketchSizing.cuckooBitsPerSlot(12) / 0.95, 0.005, "bits per key at 95% load");
        assertEquals(8, SketchSizing.cuckooBitsPerSlot(8), 1e-12);
        assertEquals(16, SketchSizing.cuckooBitsPerSlot(16), 1e-12);
        assertEquals(0.001854, SketchSizing.cuckooFalsePositiveRate(12, 0.95), 0.000001, "~0.18% at 95% load");
        assertEquals(2.0 * 4 * 0.95 / 4095, SketchSizing.cuckooFalsePositiveRate(12, 0.95), 0.000002,
                "about 2 b load / 2^f");
        assertEquals(0, SketchSizing.cuckooFalsePositiveRate(16, 0));
        assertEquals(8, SketchSizing.cuckooFingerprintBits(0.5));
        assertEquals(8, SketchSizing.cuckooFingerprintBits(8.0 / 255));
        assertEquals(12, SketchSizing.cuckooFingerprintBits(0.01));
        assertEquals(16, SketchSizing.cuckooFingerprintBits(0.001));
        assertEquals(16, SketchSizing.cuckooFingerprintBits(SketchSizing.CUCKOO_LOWEST_RATE));
    }

    @Test
    void cuckooBucketsArePowersOfTwoHoldingTheItemsInNinetyPercentOfTheSlots() {
        assertEquals(2, SketchSizing.cuckooBuckets(1));
        assertEquals(2, SketchSizing.cuckooBuckets(7));
        assertEquals(4, SketchSizing.cuckooBuckets(8));
        assertEquals(4_096, SketchSizing.cuckooBuckets(10_000));
        assertEquals(1L << 32, SketchSizing.cuckooBuckets(15_461_882_265L));
        qt().withFixedSeed(13L).withExamples(1_000).forAll(longs().between(1, 15_461_882_265L)).checkAssert(items -> {
            long buckets = SketchSizing.cuckooBuckets(items);
            assertEquals(1, Long.bitCount(buckets));
            double load = items / (4.0 * buckets);
            assertTrue(load <= 0.9 && (buckets == 2 || load > 0.45), items + " items in " + buckets + " buckets");
        });
    }

    @Test
    void parametersOutOfRangeAreNamed() {
        assertMessage("expectedItems = 0, must be >= 1", () -> SketchSizing.bloomBits(0, 0.01));
        assertMessage("falsePositiveRate = 1.0, must be in (0, 1)", () -> SketchSizing.bloomBits(10, 1.0));
        assertMessage("epsilon = NaN, must be in (0, 1)", () -> SketchSizing.countMinWidth(Double.NaN));
        assertMessage("delta = 0.0, must be in (0, 1)", () -> SketchSizing.countMinDepth(0));
        assertMessage("precision = 19, must be in [4, 18]", () -> SketchSizing.hyperLogLogRegisters(19));
        assertMessage("expectedItems = 15461882266, must be in [1, 15461882265] for a cuckoo filter (at most 2^32"
                + " buckets)", () -> SketchSizing.cuckooBuckets(15_461_882_266L));
        assertMessage("fingerprintBits = 10, must be 8, 12 or 16", () -> SketchSizing.cuckooFalsePositiveRate(10, 0.5));
        assertMessage("load = 1.5, must be in [0, 1]", () -> SketchSizing.cuckooFalsePositiveRate(12, 1.5));
        assertMessage("falsePositiveRate = 1.0E-5, must be in [1.2207217517357137E-4, 1) for a cuckoo filter (16-bit"
                + " fingerprints reach at best 2b / (2^16 - 1)); use a Bloom filter for lower rates",
                () -> SketchSizing.cuckooFingerprintBits(1e-5));
    }

    private static void assertMessage(String expected, Executable call) {
        assertEquals(expected, assertThrows(IllegalArgumentException.class, call).getMessage());
    }
}
