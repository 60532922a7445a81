package io.mapsketch.cardinality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The seed numbers of the design for HyperLogLog, and its precision's range. */
class HyperLogLogSizingTest {

    @Test
    void seedNumbers() {
        assertEquals(16_384, HyperLogLogSizing.registers(14));
        assertEquals(0.008125, HyperLogLogSizing.relativeStandardError(14), 1e-12);
        assertEquals(0.0325, HyperLogLogSizing.relativeStandardError(10), 1e-12);
    }

    @Test
    void parametersOutOfRangeAreNamed() {
        assertEquals(
                "precision = 22, must be in [4, 18] (in [4, 21] for a sketch that hashes as DataSketches does)",
                assertThrows(IllegalArgumentException.class, () -> HyperLogLogSizing.registers(22))
                        .getMessage());
    }
}
