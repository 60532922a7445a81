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
    void parametersOutOfRangeAreNamed() {
        assertMessage("expectedItems = 0, must be >= 1", () -> SketchSizing.bloomBits(0, 0.01));
        assertMessage("falsePositiveRate = 1.0, must be in (0, 1)", () -> SketchSizing.bloomBits(10, 1.0));
        assertMessage("epsilon = NaN, must be in (0, 1)", () -> SketchSizing.countMinWidth(Double.NaN));
        assertMessage("delta = 0.0, must be in (0, 1)", () -> SketchSizing.countMinDepth(0));
        assertMessage("precision = 19, must be in [4, 18]", () -> SketchSizing.hyperLogLogRegisters(19));
    }

    private static void assertMessage(String expected, Executable call) {
        assertEquals(expected, assertThrows(IllegalArgumentException.class, call).getMessage());
    }
}
