package io.mapsketch.cardinality;

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
import io.mapsketch.memory.SketchFileLayout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A HyperLogLog table as a file: its round trip, its refusals when full, and hostile files refused on open. */
class HyperLogLogTableTest {

    private static final int PRECISION = 10;
    /** Where the payload starts. */
    private static final long PAYLOAD = SketchFileLayout.HEADER_LENGTH;
    /** Where the index starts: after the 64-byte table line. */
    private static final long INDEX = PAYLOAD + 64;

    @TempDir
    Path dir;

    private Path smallTable(String name, int precision) throws IOException {
        Path file = dir.resolve(name);
        try (HyperLogLogTable table = HyperLogLogTable.builder()
                .precision(precision)
                .capacity(4)
                .bytesPerKey(2_048)
                .seed(5)
                .create(file, OpenMode.EXCLUSIVE)) {
            for (int i = 0; i < 40; i++) {
                table.add("home", i);
            }
        }
        return file;
    }

    @Test
    void aTableReopensWithItsKeysAndEstimates() throws IOException {
        Path file = dir.resolve("day.hllt");
        try (HyperLogLogTable table =
                HyperLogLogTable.builder().precision(14).capacity(100).create(file, OpenMode.SHARED)) {
            for (int i = 0; i < 1_000; i++) {
                table.add("page-" + (i % 10), "visitor-" + i);
            }
            assertEquals(100 * HyperLogLogTableBuilder.DEFAULT_BYTES_PER_KEY, table.heapBytes());
        }
        try (Sketch opened = Sketch.open(file, OpenMode.READ_ONLY)) {
            HyperLogLogTable table = assertInstanceOf(HyperLogLogTable.class, opened);
            assertEquals(SketchKind.HYPERLOGLOG_TABLE, table.kind());
            assertEquals(10, table.keys().size());
            assertEquals(new HyperLogLogTable.KeyCounts(10, 10, 0), table.keyCounts());
            assertEquals(100, table.estimate("page-3"), 100 * 3 * table.relativeStandardError());
            assertEquals(0, table.estimate("absent"));
            assertEquals(1_000, table.estimateUnion(List.of("page-1", "page-2", "absent")) * 5, 150);
            assertEquals(1_000, table.itemsAdded());
            assertThrows(IllegalStateException.class, () -> table.add("page-1", "x"));
        }
    }

    @Test
    void aFullTableRefusesANewKeyNamingItsFileAndCapacity() throws IOException {
        Path file = dir.resolve("full.hllt");
        try (HyperLogLogTable table =
                HyperLogLogTable.builder().precision(12).capacity(3).create(file, OpenMode.SHARED)) {
            for (String key : List.of("a", "b", "c")) {
                table.add(key, 1L);
            }
            TableFullException full = assertThrows(TableFullException.class, () -> table.add("d", 1L));
            assertTrue(
                    full.getMessage().contains(file.toString())
                            && full.getMessage().contains("capacity of 3 keys"),
                    full.getMessage());
            table.add("a", 2L);
            assertEquals(3, table.keyCounts().keys());
            assertEquals(2, table.estimate("a"), 0.01);
            assertTrue(full.pairsAdded().isEmpty(), "a single add's refusal is not a batch's");
        }
    }

    @Test
    void aBatchAddRefusedByAFullTableSaysHowManyPairsItAdded() throws IOException {
        try (HyperLogLogTable table =
                HyperLogLogTable.builder().precision(12).capacity(2).createAnonymous(OpenMode.EXCLUSIVE)) {
            byte[] data = "a1b1c1a2".getBytes(StandardCharsets.US_ASCII);
            int[] keyOffsets = {0, 2, 4, 6};
            int[] itemOffsets = {1, 3, 5, 7};
            int[] ones = {1, 1, 1, 1};
            TableFullException full = assertThrows(
                    TableFullException.class, () -> table.addAll(data, keyOffsets, ones, itemOffsets, ones, 4));
            assertEquals(2, full.pairsAdded().orElseThrow());
            assertTrue(full.getMessage().contains("capacity of 2 keys"), full.getMessage());
            assertInstanceOf(TableFullException.class, full.getCause());
            assertEquals(2, table.itemsAdded());
            assertEquals(1, table.estimate("a"), 0.01, "the pair after the refused one is not added");
        }
    }

    @Test
    void aFullHeapRefusesAnAddNamingItsFileAndHeap() throws IOException {
        Path file = dir.resolve("heap.hllt");
        try (HyperLogLogTable table = HyperLogLogTable.builder()
                .precision(14)
                .capacity(2)
                .bytesPerKey(1_024)
                .create(file, OpenMode.SHARED)) {
            TableFullException full = assertThrows(TableFullException.class, () -> {
                for (long i = 0; ; i++) {
                    table.add("k", i);
                }
            });
            assertTrue(
                    full.getMessage().contains(file.toString())
                            && full.getMessage().contains("heap of 2048 bytes"),
                    full.getMessage());
            double before = table.estimate("k");
            assertThrows(TableFullException.class, () -> table.add("k", -1L));
            assertEquals(before, table.estimate("k"));
        }
        try (HyperLogLogTable table = HyperLogLogTable.open(file, OpenMode.READ_ONLY)) {
            assertEquals(1, table.keyCounts().keys());
        }
    }

    @Test
    void tablesOfAnotherPrecisionOrSeedDoNotMerge() throws IOException {
        try (HyperLogLogTable a =
                        HyperLogLogTable.builder().precision(10).capacity(4).createAnonymous(OpenMode.SHARED);
                HyperLogLogTable b =
                        HyperLogLogTable.builder().precision(11).capacity(4).createAnonymous(OpenMode.SHARED);
                HyperLogLogTable c = HyperLogLogTable.builder()
                        .precision(10)
                        .capacity(4)
                        .seed(3)
                        .createAnonymous(OpenMode.SHARED)) {
            assertThrows(IncompatibleSketchException.class, () -> a.merge(b));
            assertThrows(IncompatibleSketchException.class, () -> a.merge(c));
        }
    }

    @Test
    void builderParametersOutOfRangeAreRefusedByName() {
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> HyperLogLogTable.builder().precision(19))
                .getMessage()
                .startsWith("precision = 19"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> HyperLogLogTable.builder().capacity(0))
                .getMessage()
                .startsWith("capacity = 0"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> HyperLogLogTable.builder().bytesPerKey(8))
                .getMessage()
                .startsWith("bytesPerKey = 8"));
    }

    /** The one used slot's word, read from the file. */
    private static long slotWord(Path file) throws IOException {
        for (int slot = 0; slot < 8; slot++) {
            long word = readLong(file, INDEX + 8L * slot);
            if (word != 0) {
                return INDEX + 8L * slot;
            }
        }
        throw new AssertionError("no used slot");
    }

    private static long heapStart() {
        return INDEX + 8 * 8;
    }

    private void assertRefused(String name, String fault, Hostile hostile) throws IOException {
        assertRefused(name, PRECISION, fault, hostile);
    }

    private void assertRefused(String name, int precision, String fault, Hostile hostile) throws IOException {
        Path file = smallTable(name, precision);
        hostile.damage(file);
        CorruptSketchFileException refused =
                assertThrows(CorruptSketchFileException.class, () -> HyperLogLogTable.open(file, OpenMode.READ_ONLY));
        assertTrue(
                refused.getMessage().contains(file.toString())
                        && refused.getMessage().contains(fault),
                name + ": " + refused.getMessage());
    }

    @FunctionalInterface
    private interface Hostile {
        void damage(Path file) throws IOException;
    }

    @Test
    void hostileTableFilesAreRefusedOnOpenNamingTheFault() throws IOException {
        assertRefused("reserved.hllt", "reserved keys = 9", f -> write(f, PAYLOAD, b -> b.putLong(9), 8));
        assertRefused("cursor.hllt", "heap cursor", f -> write(f, PAYLOAD + 8, b -> b.putLong(1L << 40), 8));
        assertRefused("outside.hllt", "outside the heap", f -> {
            long at = slotWord(f);
            long word = readLong(f, at);
            write(f, at, b -> b.putLong(word | ((1L << 40) - 1)), 8);
        });
        assertRefused("tag.hllt", "tag that is not its key's", f -> {
            long at = slotWord(f);
            long word = readLong(f, at);
            write(f, at, b -> b.putLong(word ^ (1L << 50)), 8);
        });
        assertRefused("length.hllt", "longer than 65535", f -> write(f, heapStart(), b -> b.putInt(1 << 20), 4));
        assertRefused(
                "value.hllt",
                "sparse entry of register 3 and value 60, expected a value in [1, 55]",
                f -> write(f, heapStart() + 24, b -> b.putLong(3L << 6 | 60), 8));
        assertRefused(
                "twice.hllt",
                "two sparse entries of register 7",
                f -> write(f, heapStart() + 24, b -> b.putLong((7L << 6 | 1) | (7L << 6 | 2) << 16), 8));
        assertRefused("high-bits.hllt", 14, "a sparse word with bits set above its 3 entries of 20 bits", f -> {
            long word = readLong(f, heapStart() + 24);
            write(f, heapStart() + 24, b -> b.putLong(word | 1L << 62), 8);
        });
        assertRefused(
                "after-empty.hllt",
                "a sparse entry after an empty one",
                f -> write(f, heapStart() + 24, b -> b.putLong(0).putLong(7L << 6 | 1), 16));
        assertRefused(
                "chunk.hllt",
                "sparse chunk at heap offset",
                f -> write(f, heapStart() + 16, b -> b.putLong(1L << 30), 8));
        assertRefused("dense.hllt", "dense block at heap offset", f -> write(f, heapStart() + 8, b -> b.putLong(2), 8));
        assertRefused("unhanded.hllt", "past the heap cursor 8", f -> write(f, PAYLOAD + 8, b -> b.putLong(8), 8));
        assertRefused(
                "unhanded-dense.hllt",
                "dense block at heap offset 2048 (1024 bytes) of the key at heap offset 0 lies past the heap cursor",
                f -> write(f, heapStart() + 8, b -> b.putLong(2048 / 8 + 1), 8));
        assertRefused(
                "unreserved.hllt",
                "key index slots set: 1, more than the keys reserved: 0",
                f -> write(f, PAYLOAD, b -> b.putLong(0), 8));
    }

    @Test
    void aKeyOfBytesIsTheKeyOfItsString() throws IOException {
        try (HyperLogLogTable table =
                HyperLogLogTable.builder().precision(8).capacity(4).createAnonymous(OpenMode.SHARED)) {
            byte[] key = "clé".getBytes(StandardCharsets.UTF_8);
            byte[] item = "item".getBytes(StandardCharsets.UTF_8);
            table.add(key, 0, key.length, item, 0, item.length);
            table.add("clé", "item");
            assertEquals(1, table.keyCounts().keys());
            assertEquals(table.estimate("clé"), table.estimate(key, 0, key.length));
            assertArrayEquals(key, table.keys().getFirst());
            assertEquals(1, table.estimate("clé"), 0.01);
        }
    }
}
