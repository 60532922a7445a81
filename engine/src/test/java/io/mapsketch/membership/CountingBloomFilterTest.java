package io.mapsketch.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The counting layout: the removable-filter contract, plus its size, saturation and merge arithmetic. */
class CountingBloomFilterTest extends RemovableFilterContract<CountingBloomFilter> {

    @Override
    FilterBuilder<?, CountingBloomFilter> builder() {
        return CountingBloomFilter.builder();
    }

    @Override
    CountingBloomFilter open(Path file, OpenMode mode) throws IOException {
        return CountingBloomFilter.open(file, mode);
    }

    @Override
    void merge(CountingBloomFilter into, CountingBloomFilter from) {
        into.merge(from);
    }

    @Override
    SketchKind kind() {
        return SketchKind.COUNTING_BLOOM;
    }

    @Test
    void sizedAsTheClassicFilterWithFourBitCounters() throws IOException {
        try (CountingBloomFilter filter = anonymous(10_000, 0.01, OpenMode.EXCLUSIVE)) {
            assertEquals(95_851, filter.counterCount());
            assertEquals(7, filter.hashCount());
            assertEquals(47_936, filter.memoryBytes(), "95,851 half-bytes rounded up to 64-byte lines");
        }
    }

    @Test
    void saturatedCountersAreNeverDecremented() throws IOException {
        try (CountingBloomFilter filter = anonymous(100, 0.01, OpenMode.EXCLUSIVE)) {
            assertEquals(0, filter.saturatedCounters());
            for (int i = 0; i < 14; i++) {
                filter.add(42L);
            }
            assertEquals(0, filter.saturatedCounters(), "14 adds leave every counter of the key at 14");
            for (int i = 0; i < 6; i++) {
                filter.add(42L);
            }
            assertEquals(filter.hashCount(), filter.saturatedCounters(), "the key's k counters, at 15");
            for (int i = 0; i < 20; i++) {
                filter.remove(42L);
            }
            assertEquals(filter.hashCount(), filter.saturatedCounters(), "saturated counters stay at 15");
            assertTrue(
                    filter.mightContain(42L),
                    "a saturated counter keeps the key: a false positive, never a" + " false negative");
        }
    }

    @Test
    void nibbleSumsSaturateLaneByLane() {
        assertEquals(
                0xF0F0F0F0F0F0F0FFL,
                CountingBloomFilter.addSaturatingNibbles(0x80808080808080F8L, 0x7070707070707077L));
        assertEquals(0xFFL, CountingBloomFilter.addSaturatingNibbles(0x88L, 0x99L));
        assertEquals(0x1234_5678_9ABC_DEF0L, CountingBloomFilter.addSaturatingNibbles(0x1234_5678_9ABC_DEF0L, 0));
        qt().withFixedSeed(43L)
                .withExamples(2_000)
                .forAll(longs().all(), longs().all())
                .checkAssert((a, b) -> {
                    long sum = CountingBloomFilter.addSaturatingNibbles(a, b);
                    for (int lane = 0; lane < 16; lane++) {
                        long expected = Math.min(15, (a >>> 4 * lane & 15) + (b >>> 4 * lane & 15));
                        assertEquals(expected, sum >>> 4 * lane & 15, "lane " + lane);
                    }
                });
    }
}
