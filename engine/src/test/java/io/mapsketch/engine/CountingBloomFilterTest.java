package io.mapsketch.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.mapsketch.memory.AccessMode;
import io.mapsketch.memory.SketchKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The counting layout: the contract, plus removal and saturation. */
class CountingBloomFilterTest extends MembershipFilterContract<CountingBloomFilter> {

    @Override
    FilterBuilder<?, CountingBloomFilter> builder() {
        return CountingBloomFilter.builder();
    }

    @Override
    CountingBloomFilter open(Path file, AccessMode mode) throws IOException {
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
        try (CountingBloomFilter filter = anonymous(10_000, 0.01, AccessMode.EXCLUSIVE)) {
            assertEquals(95_851, filter.counterCount());
            assertEquals(7, filter.hashCount());
            assertEquals(47_936, filter.memoryBytes(), "95,851 half-bytes rounded up to 64-byte lines");
        }
    }

    @Test
    void addRemoveSequencesNeverLoseAPresentKey() {
        qt().withFixedSeed(41L).withExamples(100)
                .forAll(longs().all(), integers().between(1, 4_000), integers().between(0, 1))
                .checkAssert((seed, operations, shared) -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    long[] universe = random.longs(300).toArray();
                    Map<Long, Integer> present = new HashMap<>();
                    try (CountingBloomFilter filter = anonymous(200, 0.01,
                            shared == 1 ? AccessMode.SHARED : AccessMode.EXCLUSIVE)) {
                        for (int op = 0; op < operations; op++) {
                            long key = universe[random.nextInt(universe.length)];
                            if (random.nextInt(3) == 0 && present.containsKey(key)) {
                                filter.remove(key);
                                present.merge(key, -1, (a, b) -> a + b == 0 ? null : a + b);
                            } else {
                                filter.add(key);
                                present.merge(key, 1, Integer::sum);
                            }
                        }
                        for (long key : present.keySet()) {
                            assertTrue(filter.mightContain(key), "present key " + key);
                        }
                        assertEquals(present.values().stream().mapToLong(Integer::longValue).sum(), filter.itemsAdded(),
                                "the items counter is net of removes");
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    @Test
    void removingAnAbsentKeyIsRefusedAndChangesNothing() throws IOException {
        try (CountingBloomFilter filter = anonymous(1_000, 0.001, AccessMode.SHARED)) {
            filter.addAll(new SplittableRandom(3).longs(500).toArray());
            long absent = new SplittableRandom(4).longs(10_000).filter(k -> !filter.mightContain(k)).findFirst()
                    .orElseThrow();
            byte[] before = bytes(filter);
            KeyNotPresentException e = assertThrows(KeyNotPresentException.class, () -> filter.remove(absent));
            assertTrue(e.getMessage().contains("nothing was changed"), e.getMessage());
            assertArrayEquals(before, bytes(filter));
            assertEquals(500, filter.itemsAdded());
        }
    }

    @Test
    void removeThenLookupForgetsTheKey() throws IOException {
        try (CountingBloomFilter filter = anonymous(1_000, 0.001, AccessMode.EXCLUSIVE)) {
            filter.add("alice");
            filter.add("bob");
            filter.remove("alice");
            assertFalse(filter.mightContain("alice"));
            assertTrue(filter.mightContain("bob"));
            assertEquals(1, filter.itemsAdded());
        }
    }

    @Test
    void saturatedCountersAreNeverDecremented() throws IOException {
        try (CountingBloomFilter filter = anonymous(100, 0.01, AccessMode.EXCLUSIVE)) {
            for (int i = 0; i < 20; i++) {
                filter.add(42L);
            }
            for (int i = 0; i < 20; i++) {
                filter.remove(42L);
            }
            assertTrue(filter.mightContain(42L), "a saturated counter keeps the key: a false positive, never a"
                    + " false negative");
        }
    }

    @Test
    void nibbleSumsSaturateLaneByLane() {
        assertEquals(0xF0F0F0F0F0F0F0FFL, CountingBloomFilter.addSaturatingNibbles(0x80808080808080F8L,
                0x7070707070707077L));
        assertEquals(0xFFL, CountingBloomFilter.addSaturatingNibbles(0x88L, 0x99L));
        assertEquals(0x1234_5678_9ABC_DEF0L, CountingBloomFilter.addSaturatingNibbles(0x1234_5678_9ABC_DEF0L, 0));
        qt().withFixedSeed(43L).withExamples(2_000).forAll(longs().all(), longs().all()).checkAssert((a, b) -> {
            long sum = CountingBloomFilter.addSaturatingNibbles(a, b);
            for (int lane = 0; lane < 16; lane++) {
                long expected = Math.min(15, (a >>> 4 * lane & 15) + (b >>> 4 * lane & 15));
                assertEquals(expected, sum >>> 4 * lane & 15, "lane " + lane);
            }
        });
    }
}
