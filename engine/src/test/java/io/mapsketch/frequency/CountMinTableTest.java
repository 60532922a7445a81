package io.mapsketch.frequency;

import static io.mapsketch.enginetesting.FileWords.readLong;
import static io.mapsketch.enginetesting.FileWords.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchKind;
import io.mapsketch.TableFullException;
import io.mapsketch.internal.SketchFacts;
import io.mapsketch.memory.LiveCounters;
import io.mapsketch.memory.SketchFileLayout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Count-Min table as a file: its round trip, its shape and figures, its refusals (a full table, a total
 * past the limit, another shape), and hostile files refused on open. The allocation of sketches is the one
 * Bloom tables share, whose hostile files {@code BloomTableTest} covers word by word.
 */
class CountMinTableTest {

    /** Where the payload starts. */
    private static final long PAYLOAD = SketchFileLayout.HEADER_LENGTH;
    /** Where the heap starts in a table of capacity 4: after the table line and 8 slots. */
    private static final long HEAP = PAYLOAD + 64 + 8 * 8;
    /** A key's sketch in the small table: 3 rows of 10 32-bit counters, each row 64 bytes. */
    private static final long SKETCH_BYTES = 3 * 64;

    @TempDir
    Path dir;

    /** A table of capacity 4 whose only key, "a", holds 40 items. */
    private Path smallTable(String name) throws IOException {
        Path file = dir.resolve(name);
        try (CountMinTable table =
                CountMinTable.builder().capacity(4).dimensions(10, 3).seed(5).create(file, OpenMode.EXCLUSIVE)) {
            for (int i = 0; i < 40; i++) {
                table.add("a", i, 2);
            }
        }
        return file;
    }

    @Test
    void aTableReopensWithItsKeysCountersAndFigures() throws IOException {
        Path file = dir.resolve("plays.cmt");
        try (CountMinTable table =
                CountMinTable.builder().capacity(100).epsilon(0.01).delta(0.01).create(file, OpenMode.SHARED)) {
            for (int i = 0; i < 1_000; i++) {
                assertTrue(table.add("plays:user" + (i % 10), "clip" + (i % 7), 3) >= 3);
            }
            assertEquals(272, table.width());
            assertEquals(5, table.depth());
            assertEquals(100 * 5 * 1_088L, table.memoryBytes() - 64 - 8 * 256 - 100 * 64);
        }
        try (Sketch opened = Sketch.open(file, OpenMode.READ_ONLY)) {
            CountMinTable table = assertInstanceOf(CountMinTable.class, opened);
            assertEquals(SketchKind.COUNT_MIN_TABLE, table.kind());
            assertEquals(10, table.keyCount());
            assertEquals(1_000, table.itemsAdded());
            assertEquals(3_000, table.totalWeight());
            assertEquals(300, table.totalWeight("plays:user3"));
            assertEquals(3, table.errorBound("plays:user3"));
            long estimate = table.estimate("plays:user3", "clip3");
            assertTrue(estimate >= 42 && estimate <= 45, "clip3 played 14 or 15 times x 3: " + estimate);
            assertEquals(0, table.estimate("plays:nobody", "clip3"));
            assertThrows(IllegalStateException.class, () -> table.add("plays:user1", "x", 1));
            Map<String, Object> figures = SketchFacts.of(table);
            for (String figure : List.of("width", "depth", "key capacity", "keys", "counter area bytes used")) {
                assertTrue(figures.containsKey(figure), figure + " in " + figures);
            }
            assertEquals(10 * 5 * 1_088L, figures.get("counter area bytes used"));
        }
    }

    @Test
    void aKeyOfBytesIsTheKeyOfItsString() throws IOException {
        try (CountMinTable table =
                CountMinTable.builder().capacity(4).dimensions(20, 2).createAnonymous(OpenMode.EXCLUSIVE)) {
            byte[] key = "clé".getBytes(StandardCharsets.UTF_8);
            byte[] item = "item".getBytes(StandardCharsets.UTF_8);
            assertEquals(5, table.add(key, 0, key.length, item, 0, item.length, 5));
            assertEquals(7, table.add("clé", "item", 2));
            assertEquals(7, table.estimate(key, 0, key.length, item, 0, item.length));
            assertEquals(1, table.keyCount());
        }
    }

    @Test
    void countsOutOfRangeAndTotalsPastTheLimitAreRefusedBeforeAnythingChanges() throws IOException {
        try (CountMinTable table = CountMinTable.builder()
                        .capacity(4)
                        .dimensions(20, 2)
                        .counterBits(64)
                        .createAnonymous(OpenMode.SHARED);
                CountMinTable other = CountMinTable.builder()
                        .capacity(4)
                        .dimensions(20, 2)
                        .counterBits(64)
                        .createAnonymous(OpenMode.EXCLUSIVE)) {
            assertTrue(assertThrows(IllegalArgumentException.class, () -> table.add("a", 1L, 0))
                    .getMessage()
                    .startsWith("count = 0"));
            table.add("a", 1L, LiveCounters.LIMIT - 1);
            other.add("b", 2L, 2);
            assertTrue(assertThrows(IllegalArgumentException.class, () -> table.merge(other))
                    .getMessage()
                    .contains("past " + LiveCounters.LIMIT));
            assertThrows(IllegalArgumentException.class, () -> table.add("a", 1L, 2));
            assertEquals(LiveCounters.LIMIT - 1, table.totalWeight());
            assertEquals(0, table.estimate("b", 2L));
            assertEquals(LiveCounters.LIMIT - 1, table.estimate("a", 1L));
        }
    }

    /** A weighted merge refuses a weight below 1, weights not one per table, and a weighted total past the limit. */
    @Test
    void weightsOutOfRangeOrCountAndWeightedTotalsPastTheLimitAreRefusedBeforeAnythingMerges() throws IOException {
        try (CountMinTable table = CountMinTable.builder()
                        .capacity(4)
                        .dimensions(20, 2)
                        .counterBits(64)
                        .createAnonymous(OpenMode.SHARED);
                CountMinTable other = CountMinTable.builder()
                        .capacity(4)
                        .dimensions(20, 2)
                        .counterBits(64)
                        .createAnonymous(OpenMode.EXCLUSIVE)) {
            other.add("b", 2L, LiveCounters.LIMIT / 2 + 1);
            assertTrue(assertThrows(IllegalArgumentException.class, () -> table.merge(other, 0))
                    .getMessage()
                    .startsWith("weight = 0"));
            assertTrue(assertThrows(
                            IllegalArgumentException.class, () -> table.mergeAll(List.of(other), new long[] {1, 2}))
                    .getMessage()
                    .startsWith("2 weights for 1 tables"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> table.merge(other, 2))
                    .getMessage()
                    .contains("the other table's total weight, weighted = " + (LiveCounters.LIMIT / 2 + 1) * 2));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> table.merge(other, Long.MAX_VALUE))
                    .getMessage()
                    .contains("weighted = " + Long.MAX_VALUE));
            assertEquals(0, table.totalWeight(), "nothing was merged");
            assertEquals(0, table.keyCount());
            other.add("c", 3L, 1);
            table.mergeAll(List.of(other), new long[] {1});
            assertEquals(LiveCounters.LIMIT / 2 + 2, table.totalWeight());
            assertEquals(LiveCounters.LIMIT / 2 + 1, table.estimate("b", 2L));
            assertEquals(2, table.itemsAdded());
        }
    }

    @Test
    void thirtyTwoBitCountersSaturateAsAStandaloneSketchsDo() throws IOException {
        try (CountMinTable table =
                        CountMinTable.builder().capacity(4).dimensions(20, 2).createAnonymous(OpenMode.EXCLUSIVE);
                CountMinSketch sketch =
                        CountMinSketch.builder().dimensions(20, 2).createAnonymous(OpenMode.EXCLUSIVE)) {
            for (int i = 0; i < 3; i++) {
                assertEquals(sketch.add(9L, 3_000_000_000L), table.add("a", 9L, 3_000_000_000L));
            }
            assertEquals(table.maxEstimate(), table.estimate("a", 9L));
            assertArrayEquals(sketch.counterTable(), table.counterTable("a"));
        }
    }

    @Test
    void aFullTableRefusesANewKeyAndTablesOfAnotherShapeOrSeedDoNotMerge() throws IOException {
        try (CountMinTable a =
                        CountMinTable.builder().capacity(2).dimensions(20, 2).createAnonymous(OpenMode.SHARED);
                CountMinTable wider =
                        CountMinTable.builder().capacity(2).dimensions(21, 2).createAnonymous(OpenMode.SHARED);
                CountMinTable wide = CountMinTable.builder()
                        .capacity(2)
                        .dimensions(20, 2)
                        .counterBits(64)
                        .createAnonymous(OpenMode.SHARED);
                CountMinTable seeded = CountMinTable.builder()
                        .capacity(2)
                        .dimensions(20, 2)
                        .seed(3)
                        .createAnonymous(OpenMode.SHARED)) {
            a.add("x", 1L, 1);
            a.add("y", 1L, 1);
            assertThrows(TableFullException.class, () -> a.add("z", 1L, 1));
            assertEquals(2, a.totalWeight());
            assertTrue(assertThrows(IncompatibleSketchException.class, () -> a.merge(wider))
                    .getMessage()
                    .contains("width"));
            assertTrue(assertThrows(IncompatibleSketchException.class, () -> a.merge(wide))
                    .getMessage()
                    .contains("counter bytes"));
            assertThrows(IncompatibleSketchException.class, () -> a.merge(seeded));
        }
    }

    @Test
    void builderParametersOutOfRangeAreRefusedByName() {
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> CountMinTable.builder().dimensions(2, 3))
                .getMessage()
                .startsWith("width = 2"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> CountMinTable.builder().counterBits(16))
                .getMessage()
                .startsWith("counterBits = 16"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> CountMinTable.builder()
                                .capacity(2)
                                .dimensions(1 << 28, 10)
                                .createAnonymous(OpenMode.SHARED))
                .getMessage()
                .contains("must be at most 2^30"));
        assertThrows(
                IllegalStateException.class,
                () -> CountMinTable.builder().capacity(2).epsilon(0.01).createAnonymous(OpenMode.SHARED));
    }

    private void assertRefused(String name, String fault, Hostile hostile) throws IOException {
        Path file = smallTable(name);
        hostile.damage(file);
        for (OpenMode mode : List.of(OpenMode.READ_ONLY, OpenMode.SHARED)) {
            CorruptSketchFileException refused =
                    assertThrows(CorruptSketchFileException.class, () -> CountMinTable.open(file, mode));
            assertTrue(
                    refused.getMessage().contains(file.toString())
                            && refused.getMessage().contains(fault),
                    name + ": " + refused.getMessage());
        }
    }

    @FunctionalInterface
    private interface Hostile {
        void damage(Path file) throws IOException;
    }

    @Test
    void hostileTableFilesAreRefusedOnOpenNamingTheFault() throws IOException {
        assertRefused("cursor.cmt", "sketch cursor = 64", f -> write(f, PAYLOAD + 16, b -> b.putLong(64), 8));
        assertRefused(
                "unaligned.cmt",
                "sketch at counter area offset 64 (192 bytes) of the key at heap offset 0 is not a multiple of 192",
                f -> write(f, HEAP + 8, b -> b.putLong(64 / 8 + 1), 8));
        assertRefused(
                "spare.cmt",
                "spare word 0 refers to a sketch holding data",
                f -> write(f, PAYLOAD + 24, b -> b.putLong(1), 8));
        assertEquals(SKETCH_BYTES, readLong(smallTable("used.cmt"), PAYLOAD + 16), "one sketch handed out");
    }
}
