package io.mapsketch.membership;

import static io.mapsketch.enginetesting.FileWords.readLong;
import static io.mapsketch.enginetesting.FileWords.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchKind;
import io.mapsketch.TableFullException;
import io.mapsketch.internal.SketchInternals;
import io.mapsketch.memory.SketchFileLayout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A Bloom table as a file: its round trip, its layout, its refusals when full, and hostile files refused on open. */
class BloomTableTest {

    /** Where the payload starts. */
    private static final long PAYLOAD = SketchFileLayout.HEADER_LENGTH;
    /** Where the index starts: after the 64-byte table line. */
    private static final long INDEX = PAYLOAD + 64;
    /** Where the heap starts in a table of capacity 4: after 8 slots. */
    private static final long HEAP = INDEX + 8 * 8;
    /** Where the filter area starts in a table of capacity 4 with the default 64 heap bytes per key. */
    private static final long FILTERS = HEAP + 4 * 64;

    @TempDir
    Path dir;

    /** A table of capacity 4 whose only key, "a", holds 40 items. */
    private Path smallTable(String name) throws IOException {
        Path file = dir.resolve(name);
        try (BloomTable table = BloomTable.builder()
                .capacity(4)
                .expectedItemsPerKey(100)
                .falsePositiveRate(0.01)
                .seed(5)
                .create(file, OpenMode.EXCLUSIVE)) {
            for (int i = 0; i < 40; i++) {
                table.add("a", i);
            }
        }
        return file;
    }

    @Test
    void aTableReopensWithItsKeysAndFilters() throws IOException {
        Path file = dir.resolve("seen.bft");
        try (BloomTable table = BloomTable.builder()
                .capacity(100)
                .expectedItemsPerKey(100)
                .falsePositiveRate(0.01)
                .create(file, OpenMode.SHARED)) {
            for (int i = 0; i < 1_000; i++) {
                table.add("seen:user" + (i % 10), "clip" + i);
            }
            assertEquals(100 * 64, table.heapBytes());
            assertTrue(table.expectedFalsePositiveRate() <= 0.01, "rate " + table.expectedFalsePositiveRate());
        }
        try (Sketch opened = Sketch.open(file, OpenMode.READ_ONLY)) {
            BloomTable table = assertInstanceOf(BloomTable.class, opened);
            assertEquals(SketchKind.BLOOM_TABLE, table.kind());
            assertEquals(10, table.keys().size());
            assertEquals(10, table.keyCount());
            assertTrue(table.mightContain("seen:user7", "clip997"));
            assertFalse(table.mightContain("seen:nobody", "clip997"));
            assertTrue(table.contains("seen:user7"));
            assertEquals(1_000, table.itemsAdded());
            assertThrows(IllegalStateException.class, () -> table.add("seen:user1", "x"));
            int falsePositives = 0;
            for (int i = 0; i < 10_000; i++) {
                falsePositives += table.mightContain("seen:user3", "other" + i) ? 1 : 0;
            }
            assertTrue(falsePositives < 300, falsePositives + " false positives in 10,000 at 1% (100 items)");
        }
    }

    @Test
    void everyKeysFilterIsSizedAsABlockedBloomFilterAndStartsOnACacheLine() throws IOException {
        try (BloomTable table = BloomTable.builder()
                        .capacity(1_000)
                        .expectedItemsPerKey(100)
                        .falsePositiveRate(0.01)
                        .bytesPerKey(40)
                        .createAnonymous(OpenMode.SHARED);
                BlockedBloomFilter filter = BlockedBloomFilter.builder()
                        .expectedItems(100)
                        .falsePositiveRate(0.01)
                        .createAnonymous(OpenMode.SHARED)) {
            assertEquals(filter.blockCount(), table.blocksPerKey());
            assertEquals(filter.bitsPerKey(), table.bitsPerKey());
            long payload = SketchInternals.payload(table).segment().address();
            long area = table.memoryBytes() - 1_000 * table.blocksPerKey() * 64;
            assertEquals(0, (payload + area) % 64, "the filter area is 64-byte aligned");
            assertEquals(64 + 8 * 2_048 + 40_000 + 1_000 * table.blocksPerKey() * 64, table.memoryBytes());
        }
    }

    @Test
    void aFullTableRefusesANewKeyNamingItsFileAndCapacity() throws IOException {
        Path file = dir.resolve("full.bft");
        try (BloomTable table = BloomTable.builder()
                .capacity(3)
                .expectedItemsPerKey(10)
                .falsePositiveRate(0.01)
                .create(file, OpenMode.SHARED)) {
            for (String key : List.of("a", "b", "c")) {
                table.add(key, 1L);
            }
            TableFullException full = assertThrows(TableFullException.class, () -> table.add("d", 1L));
            assertTrue(
                    full.getMessage().contains(file.toString())
                            && full.getMessage().contains("capacity of 3 keys"),
                    full.getMessage());
            table.add("a", 2L);
            assertEquals(3, table.keyCount());
            assertTrue(table.mightContain("a", 2L));
            assertFalse(table.contains("d"));
        }
        try (BloomTable table = BloomTable.open(file, OpenMode.READ_ONLY)) {
            assertEquals(3, table.keyCount());
        }
    }

    @Test
    void aFullHeapRefusesANewKeyNamingItsFileAndHeap() throws IOException {
        Path file = dir.resolve("heap.bft");
        try (BloomTable table = BloomTable.builder()
                .capacity(2)
                .expectedItemsPerKey(10)
                .falsePositiveRate(0.01)
                .bytesPerKey(16)
                .create(file, OpenMode.SHARED)) {
            String longKey = "k".repeat(100);
            TableFullException full = assertThrows(TableFullException.class, () -> table.add(longKey, 1L));
            assertTrue(
                    full.getMessage().contains(file.toString())
                            && full.getMessage().contains("heap of 64 bytes"),
                    full.getMessage());
            table.add("k", 1L);
            assertTrue(table.mightContain("k", 1L));
        }
    }

    @Test
    void tablesOfAnotherShapeOrSeedDoNotMerge() throws IOException {
        try (BloomTable a = BloomTable.builder()
                        .capacity(4)
                        .expectedItemsPerKey(100)
                        .falsePositiveRate(0.01)
                        .createAnonymous(OpenMode.SHARED);
                BloomTable b = BloomTable.builder()
                        .capacity(4)
                        .expectedItemsPerKey(1_000)
                        .falsePositiveRate(0.01)
                        .createAnonymous(OpenMode.SHARED);
                BloomTable c = BloomTable.builder()
                        .capacity(4)
                        .expectedItemsPerKey(100)
                        .falsePositiveRate(0.01)
                        .seed(3)
                        .createAnonymous(OpenMode.SHARED);
                BloomTable larger = BloomTable.builder()
                        .capacity(40)
                        .expectedItemsPerKey(100)
                        .falsePositiveRate(0.01)
                        .createAnonymous(OpenMode.SHARED)) {
            assertTrue(assertThrows(IncompatibleSketchException.class, () -> a.merge(b))
                    .getMessage()
                    .contains("blocks per key"));
            assertThrows(IncompatibleSketchException.class, () -> a.merge(c));
            larger.add("x", 1L);
            a.merge(larger);
            assertTrue(a.mightContain("x", 1L));
        }
    }

    @Test
    void builderParametersOutOfRangeAreRefusedByName() {
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> BloomTable.builder().capacity(0))
                .getMessage()
                .startsWith("capacity = 0"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> BloomTable.builder().expectedItemsPerKey(0))
                .getMessage()
                .startsWith("expectedItemsPerKey = 0"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> BloomTable.builder().falsePositiveRate(1))
                .getMessage()
                .startsWith("falsePositiveRate = 1"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> BloomTable.builder().bytesPerKey(8))
                .getMessage()
                .startsWith("bytesPerKey = 8"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> BloomTable.builder()
                                .capacity(2)
                                .expectedItemsPerKey(1L << 40)
                                .falsePositiveRate(0.01)
                                .createAnonymous(OpenMode.SHARED))
                .getMessage()
                .contains("must be at most 2^24"));
        assertThrows(
                IllegalStateException.class,
                () -> BloomTable.builder().capacity(2).falsePositiveRate(0.01).createAnonymous(OpenMode.SHARED));
    }

    @Test
    void aKeyOfBytesIsTheKeyOfItsString() throws IOException {
        try (BloomTable table = BloomTable.builder()
                .capacity(4)
                .expectedItemsPerKey(10)
                .falsePositiveRate(0.01)
                .createAnonymous(OpenMode.SHARED)) {
            byte[] key = "clé".getBytes(StandardCharsets.UTF_8);
            byte[] item = "item".getBytes(StandardCharsets.UTF_8);
            table.add(key, 0, key.length, item, 0, item.length);
            table.add("clé", "item");
            assertEquals(1, table.keyCount());
            assertTrue(table.mightContain("clé", "item"));
            assertTrue(table.mightContain(key, 0, key.length, item, 0, item.length));
            assertTrue(table.contains(key, 0, key.length));
            assertArrayEquals(key, table.keys().getFirst());
            byte[] pair = "clé".getBytes(StandardCharsets.UTF_8);
            boolean[] none = new boolean[0];
            assertTrue(assertThrows(
                            IllegalArgumentException.class,
                            () -> table.mightContainAll(
                                    pair,
                                    new int[] {0},
                                    new int[] {pair.length},
                                    new int[] {0},
                                    new int[] {1},
                                    1,
                                    none))
                    .getMessage()
                    .startsWith("results.length = 0, must be >= count = 1"));
        }
    }

    /** The one used slot's offset in the file. */
    private static long slotWord(Path file) throws IOException {
        for (int slot = 0; slot < 8; slot++) {
            if (readLong(file, INDEX + 8L * slot) != 0) {
                return INDEX + 8L * slot;
            }
        }
        throw new AssertionError("no used slot");
    }

    @FunctionalInterface
    private interface Hostile {
        void damage(Path file) throws IOException;
    }

    private void assertRefused(String name, String fault, Hostile hostile) throws IOException {
        Path file = smallTable(name);
        hostile.damage(file);
        for (OpenMode mode : List.of(OpenMode.READ_ONLY, OpenMode.SHARED)) {
            CorruptSketchFileException refused =
                    assertThrows(CorruptSketchFileException.class, () -> BloomTable.open(file, mode));
            assertTrue(
                    refused.getMessage().contains(file.toString())
                            && refused.getMessage().contains(fault),
                    name + ": " + refused.getMessage());
        }
    }

    @Test
    void hostileTableFilesAreRefusedOnOpenNamingTheFault() throws IOException {
        long filterBytes = 2 * 64;
        assertRefused("reserved.bft", "reserved keys = 9", f -> write(f, PAYLOAD, b -> b.putLong(9), 8));
        assertRefused("cursor.bft", "heap cursor", f -> write(f, PAYLOAD + 8, b -> b.putLong(1L << 40), 8));
        assertRefused("filters.bft", "filter cursor = 64", f -> write(f, PAYLOAD + 16, b -> b.putLong(64), 8));
        assertRefused(
                "past.bft", "filter cursor = 1024", f -> write(f, PAYLOAD + 16, b -> b.putLong(8 * filterBytes), 8));
        assertRefused("outside.bft", "outside the heap", f -> {
            long at = slotWord(f);
            long word = readLong(f, at);
            write(f, at, b -> b.putLong(word | ((1L << 40) - 1)), 8);
        });
        assertRefused("slots.bft", "overlaps the record at heap offset 0 (24 bytes) of key index slot", f -> {
            long at = slotWord(f);
            long word = readLong(f, at);
            write(f, INDEX + (at - INDEX + 8) % (8 * 8), b -> b.putLong(word), 8);
        });
        assertRefused("tag.bft", "tag that is not its key's", f -> {
            long at = slotWord(f);
            long word = readLong(f, at);
            write(f, at, b -> b.putLong(word ^ (1L << 50)), 8);
        });
        assertRefused("length.bft", "longer than 65535", f -> write(f, HEAP, b -> b.putInt(1 << 20), 4));
        assertRefused(
                "unaligned.bft",
                "filter at filter area offset 64 (128 bytes) of the key at heap offset 0 is not a multiple of 128",
                f -> write(f, HEAP + 8, b -> b.putLong(64 / 8 + 1), 8));
        assertRefused(
                "unhanded.bft",
                "filter at filter area offset 128 (128 bytes) of the key at heap offset 0 lies past the filter area cursor 128",
                f -> write(f, HEAP + 8, b -> b.putLong(filterBytes / 8 + 1), 8));
        assertRefused(
                "negative.bft",
                "filter at filter area offset -16 (128 bytes)",
                f -> write(f, HEAP + 8, b -> b.putLong(-1), 8));
        assertRefused(
                "keys.bft",
                "spare word 0 refers to a filter holding data",
                f -> write(f, PAYLOAD + 24, b -> b.putLong(1), 8));
        assertRefused(
                "shared.bft",
                "the filter at filter area offset 128 (128 bytes) of spare word 1 overlaps the filter at filter area"
                        + " offset 128 (128 bytes) of spare word 0",
                f -> {
                    write(f, PAYLOAD + 16, b -> b.putLong(2 * filterBytes), 8);
                    write(f, PAYLOAD + 24, b -> b.putLong(filterBytes / 8 + 1).putLong(filterBytes / 8 + 1), 16);
                });
        assertRefused("spare.bft", "spare word 1 refers to a filter holding data", f -> {
            write(f, PAYLOAD + 16, b -> b.putLong(2 * filterBytes), 8);
            write(f, PAYLOAD + 32, b -> b.putLong(filterBytes / 8 + 1), 8);
            write(f, FILTERS + filterBytes, b -> b.putLong(1), 8);
        });
    }

    @Test
    void opensWhileAWriterHandsOutFiltersAreAccepted() throws Exception {
        Path file = dir.resolve("live.bft");
        try (BloomTable table = BloomTable.builder()
                .capacity(20_000)
                .expectedItemsPerKey(10)
                .falsePositiveRate(0.01)
                .create(file, OpenMode.SHARED)) {
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<?> writer = pool.submit(() -> {
                    for (int k = 0; k < 20_000; k++) {
                        table.add("key-" + k, (long) k);
                    }
                });
                int opens = 0;
                while (!writer.isDone() || opens == 0) {
                    try (BloomTable opened = BloomTable.open(file, OpenMode.READ_ONLY)) {
                        opened.keyCount();
                    }
                    opens++;
                }
                writer.get();
            } finally {
                pool.shutdown();
            }
        }
    }

    @Test
    void aSpareFilterInTheTableLineIsHandedToTheNextKey() throws IOException {
        Path file = smallTable("spare-ok.bft");
        long filterBytes = 2 * 64;
        write(file, PAYLOAD + 16, b -> b.putLong(2 * filterBytes), 8);
        write(file, PAYLOAD + 32, b -> b.putLong(filterBytes / 8 + 1), 8);
        try (BloomTable table = BloomTable.open(file, OpenMode.EXCLUSIVE)) {
            table.add("b", 1L);
            assertTrue(table.mightContain("b", 1L));
        }
        assertEquals(0, readLong(file, PAYLOAD + 32), "the spare word is taken");
        assertEquals(2 * filterBytes, readLong(file, PAYLOAD + 16), "no filter was handed out from the area");
        try (BloomTable table = BloomTable.open(file, OpenMode.READ_ONLY)) {
            assertEquals(2, table.keyCount());
        }
    }
}
