package io.mapsketch.membership;

import static io.mapsketch.enginetesting.FalsePositives.measuredFalsePositiveRate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The classic layout: the contract, plus its textbook sizing and its rate past capacity. */
class BloomFilterTest extends MembershipFilterContract<BloomFilter> {

    @Override
    FilterBuilder<?, BloomFilter> builder() {
        return BloomFilter.builder();
    }

    @Override
    BloomFilter open(Path file, OpenMode mode) throws IOException {
        return BloomFilter.open(file, mode);
    }

    @Override
    void merge(BloomFilter into, BloomFilter from) {
        into.merge(from);
    }

    @Override
    SketchKind kind() {
        return SketchKind.BLOOM;
    }

    @Test
    void seedSizing() throws IOException {
        try (BloomFilter filter = anonymous(10_000, 0.01, OpenMode.EXCLUSIVE)) {
            assertEquals(95_851, filter.bitCount());
            assertEquals(7, filter.hashCount());
            assertEquals(12_032, filter.memoryBytes(), "95,851 bits rounded up to 64-byte lines: 11.75 KB");
            assertEquals(0, filter.fillRatio());
        }
    }

    @Test
    void atTwiceCapacityTheRateIsTheFormula() throws IOException {
        int items = 10_000;
        try (BloomFilter filter = anonymous(items, 0.01, OpenMode.EXCLUSIVE)) {
            filter.addAll(new SplittableRandom(2).longs(2 * items).toArray());
            double formula = BloomSizing.falsePositiveRate(filter.bitCount(), filter.hashCount(), 2 * items);
            assertEquals(0.157, formula, 0.001);
            double measured = measuredFalsePositiveRate(filter, 200_000, 3);
            assertEquals(formula, measured, formula * 0.10, "measured " + measured);
            assertTrue(filter.isOverCapacity());
        }
    }

    @Test
    void mergeRefusesAnotherShapeNamingIt() throws IOException {
        try (BloomFilter a = anonymous(1_000, 0.01, OpenMode.EXCLUSIVE);
                BloomFilter wider = anonymous(2_000, 0.01, OpenMode.EXCLUSIVE)) {
            IncompatibleSketchException e = assertThrows(IncompatibleSketchException.class, () -> a.merge(wider));
            assertTrue(e.getMessage().startsWith("sketches differ in bits: 9586 here, 19171"), e.getMessage());
        }
    }
}
