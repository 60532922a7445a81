package io.mapsketch.frequency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The seed numbers of the design, and the Count-Min formulas' shape over their whole range. */
class CountMinSizingTest {

    @Test
    void seedNumbers() {
        assertEquals(2_719, CountMinSizing.width(0.001));
        assertEquals(5, CountMinSizing.depth(0.01));
    }

    @Test
    void parametersOutOfRangeAreNamed() {
        assertMessage("epsilon = NaN, must be in (0, 1)", () -> CountMinSizing.width(Double.NaN));
        assertMessage("delta = 0.0, must be in (0, 1)", () -> CountMinSizing.depth(0));
    }

    /** 1 / delta overflows for subnormal deltas; the depth still follows ln(1 / delta), up to the format's 745. */
    @Test
    void everyPositiveDeltaGivesADepthTheFormatHolds() {
        assertEquals(FrequencySketch.MAX_DEPTH, CountMinSizing.depth(Double.MIN_VALUE));
        assertEquals(710, CountMinSizing.depth(1 / Double.MAX_VALUE));
        assertEquals(710, CountMinSizing.depth(Math.nextDown(1 / Double.MAX_VALUE)));
        assertEquals(713, CountMinSizing.depth(5.6e-310));
        assertEquals(709, CountMinSizing.depth(Double.MIN_NORMAL));
        assertEquals(1, CountMinSizing.depth(Math.nextDown(1.0)));
        qt().withFixedSeed(17L)
                .withExamples(2_000)
                .forAll(longs().between(1, Double.doubleToRawLongBits(1.0) - 2))
                .checkAssert(bits -> {
                    double delta = Double.longBitsToDouble(bits);
                    int depth = CountMinSizing.depth(delta);
                    assertTrue(depth >= 1 && depth <= FrequencySketch.MAX_DEPTH, "delta " + delta + ": depth " + depth);
                    assertEquals(Math.ceil(-Math.log(delta)), depth, 1, "delta " + delta);
                    assertTrue(CountMinSizing.depth(Math.nextUp(delta)) <= depth, "depth falls as delta grows");
                });
    }

    private static void assertMessage(String expected, Executable call) {
        assertEquals(
                expected, assertThrows(IllegalArgumentException.class, call).getMessage());
    }
}
