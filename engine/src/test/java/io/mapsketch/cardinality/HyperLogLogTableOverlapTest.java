package io.mapsketch.cardinality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.OpenMode;
import io.mapsketch.memory.SketchFileLayout;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A HyperLogLog table whose heap pieces (records, sparse chunks, dense blocks) share a byte, of one key or
 * of two, is refused on open naming both pieces and their keys; every table written by real adds, merges
 * and racing writers opens, also while a writer adds to it.
 */
class HyperLogLogTableOverlapTest {

    private static final int PRECISION = 10;
    private static final long DENSE_BYTES = 1L << PRECISION;
    private static final long PAYLOAD = SketchFileLayout.HEADER_LENGTH;
    private static final int SLOTS = 8;
    private static final long INDEX = PAYLOAD + 64;
    private static final long HEAP = INDEX + 8L * SLOTS;
    private static final long REFERENCE_MASK = (1L << 40) - 1;
    /** A record of a key of at most 8 bytes: length word, dense word, chunk 0, key. */
    private static final long RECORD_BYTES = 8 + TableRegisters.VALUE_BYTES + 8;

    private static final long CHUNK_1_BYTES = SparseRegisters.chunkBytes(1);

    @TempDir
    Path dir;

    /** A key's slot and record, read from a file. */
    private record Key(int slot, long record) {}

    /**
     * Three keys: "chunks" with a sparse chunk beyond its record's, "small" with one entry, "dense" with a
     * dense block; keyed by name.
     */
    private Path table(String name) throws IOException {
        Path file = dir.resolve(name);
        try (HyperLogLogTable table = HyperLogLogTable.builder()
                .precision(PRECISION)
                .capacity(4)
                .bytesPerKey(2_048)
                .seed(5)
                .create(file, OpenMode.EXCLUSIVE)) {
            for (int i = 0; i < 40; i++) {
                table.add("chunks", i);
            }
            table.add("small", 1L);
            for (int i = 0; i < 400; i++) {
                table.add("dense", i);
            }
        }
        return file;
    }

    private static Map<String, Key> keys(Path file) throws IOException {
        Map<String, Key> keys = new TreeMap<>();
        try (Arena arena = Arena.ofConfined();
                FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            MemorySegment bytes = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            for (int slot = 0; slot < SLOTS; slot++) {
                long word = bytes.get(ValueLayout.JAVA_LONG_UNALIGNED, INDEX + 8L * slot);
                if (word != 0) {
                    long record = ((word & REFERENCE_MASK) - 1) << 3;
                    int length = bytes.get(ValueLayout.JAVA_INT_UNALIGNED, HEAP + record);
                    long key = HEAP + record + 8 + TableRegisters.VALUE_BYTES;
                    keys.put(
                            new String(bytes.asSlice(key, length).toArray(ValueLayout.JAVA_BYTE)),
                            new Key(slot, record));
                }
            }
        }
        return keys;
    }

    private static long readLong(Path file, long at) throws IOException {
        try (Arena arena = Arena.ofConfined();
                FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return channel.map(FileChannel.MapMode.READ_ONLY, at, 8, arena).get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
        }
    }

    private static void writeLong(Path file, long at, long value) throws IOException {
        try (Arena arena = Arena.ofConfined();
                FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            channel.map(FileChannel.MapMode.READ_WRITE, at, 8, arena).set(ValueLayout.JAVA_LONG_UNALIGNED, 0, value);
        }
    }

    /** Points the dense word of the key at {@code record} at heap offset {@code block}. */
    private static void denseAt(Path file, long record, long block) throws IOException {
        writeLong(file, HEAP + record + TableRegisters.DENSE, (block >>> 3) + 1);
    }

    private static long firstMultipleOf64(long offset) {
        return (offset + 63) & -64;
    }

    private static String piece(String what, long offset, long bytes) {
        return "the " + what + " at heap offset " + offset + " (" + bytes + " bytes) of ";
    }

    private static void assertRefused(Path file, String fault) {
        for (OpenMode mode : List.of(OpenMode.READ_ONLY, OpenMode.SHARED)) {
            CorruptSketchFileException refused =
                    assertThrows(CorruptSketchFileException.class, () -> HyperLogLogTable.open(file, mode));
            assertTrue(
                    refused.getMessage().contains(file.toString())
                            && refused.getMessage().contains(fault),
                    refused.getMessage());
        }
    }

    @Test
    void aDenseBlockInAnotherKeysRecordIsRefusedNamingBoth() throws IOException {
        Path file = table("other-record.hllt");
        List<Key> bySlot = new ArrayList<>(keys(file).values());
        bySlot.sort((a, b) -> Integer.compare(a.slot(), b.slot()));
        Key earlier = bySlot.getFirst();
        Key later = bySlot.getLast();
        long block = firstMultipleOf64(earlier.record());
        denseAt(file, later.record(), block);
        assertRefused(
                file,
                piece("dense block", block, DENSE_BYTES) + "the key at heap offset " + later.record() + " overlaps "
                        + piece("record", earlier.record(), RECORD_BYTES) + "key index slot " + earlier.slot());
    }

    @Test
    void aDenseBlockInItsOwnRecordIsRefusedNamingBoth() throws IOException {
        Path file = table("own-record.hllt");
        Key small = keys(file).get("small");
        long block = firstMultipleOf64(small.record());
        denseAt(file, small.record(), block);
        assertRefused(
                file,
                piece("dense block", block, DENSE_BYTES) + "the key at heap offset " + small.record() + " overlaps "
                        + piece("record", small.record(), RECORD_BYTES) + "key index slot " + small.slot());
    }

    @Test
    void aDenseBlockInASparseChunkIsRefusedNamingBoth() throws IOException {
        Path file = table("chunk.hllt");
        Key chunks = keys(file).get("chunks");
        long chunk = ((readLong(file, HEAP + chunks.record() + TableRegisters.CHUNK) & REFERENCE_MASK) - 1) << 3;
        long block = firstMultipleOf64(chunk);
        assertTrue(block < chunk + CHUNK_1_BYTES, "a multiple of 64 inside the chunk");
        denseAt(file, chunks.record(), block);
        assertRefused(
                file,
                piece("dense block", block, DENSE_BYTES) + "the key at heap offset " + chunks.record() + " overlaps "
                        + piece("sparse chunk", chunk, CHUNK_1_BYTES) + "the key at heap offset " + chunks.record());
    }

    @Test
    void aSparseChunkInItsOwnRecordIsRefusedNamingBoth() throws IOException {
        Path file = table("chain.hllt");
        Key small = keys(file).get("small");
        writeLong(file, HEAP + small.record() + TableRegisters.CHUNK, (small.record() >>> 3) + 1);
        assertRefused(
                file,
                piece("sparse chunk", small.record(), CHUNK_1_BYTES) + "the key at heap offset " + small.record()
                        + " overlaps " + piece("record", small.record(), RECORD_BYTES) + "key index slot "
                        + small.slot());
    }

    @Test
    void twoSlotsOfOneRecordAreRefusedNamingBoth() throws IOException {
        Path file = table("slots.hllt");
        for (Key key : keys(file).values()) {
            int next = (key.slot() + 1) % SLOTS;
            if (readLong(file, INDEX + 8L * next) == 0) {
                writeLong(file, INDEX + 8L * next, readLong(file, INDEX + 8L * key.slot()));
                int first = Math.min(key.slot(), next);
                int second = Math.max(key.slot(), next);
                assertRefused(
                        file,
                        piece("record", key.record(), RECORD_BYTES) + "key index slot " + second + " overlaps "
                                + piece("record", key.record(), RECORD_BYTES) + "key index slot " + first);
                return;
            }
        }
        throw new AssertionError("no used slot before an empty one");
    }

    @Test
    void aSparseChunkPastTheCursorIsRefused() throws IOException {
        Path file = table("past.hllt");
        Key small = keys(file).get("small");
        long used = readLong(file, PAYLOAD + 8);
        writeLong(file, HEAP + small.record() + TableRegisters.CHUNK, (used >>> 3) + 1);
        assertRefused(
                file,
                piece("sparse chunk", used, CHUNK_1_BYTES) + "the key at heap offset " + small.record()
                        + " lies past the heap cursor " + used);
    }

    @Test
    void opensWhileAWriterHandsOutPiecesAreAccepted() throws Exception {
        Path file = dir.resolve("live.hllt");
        int keys = 20_000;
        try (HyperLogLogTable table = HyperLogLogTable.builder()
                .precision(8)
                .capacity(keys)
                .bytesPerKey(1_024)
                .create(file, OpenMode.SHARED)) {
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<?> writer = pool.submit(() -> {
                    for (int k = 0; k < keys; k++) {
                        for (int i = 0; i <= k % 70; i++) {
                            table.add("key-" + k, (long) i);
                        }
                    }
                });
                int opens = 0;
                while (!writer.isDone() || opens == 0) {
                    try (HyperLogLogTable opened = HyperLogLogTable.open(file, OpenMode.READ_ONLY)) {
                        opened.keyCounts();
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
    void everyTableWrittenByAddsMergesAndRacingWritersOpens() {
        qt().withFixedSeed(2_026L)
                .withExamples(40)
                .forAll(
                        integers().between(4, 12),
                        lists().of(integers().between(0, 40)).ofSizeBetween(1, 24),
                        integers().between(1, 4))
                .checkAssert((precision, itemsPerKey, threads) -> {
                    try {
                        assertOpens(precision, itemsPerKey, threads);
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                });
    }

    /** Writes a table (its keys' items by {@code threads} racing writers, and a merge) and opens it again. */
    private void assertOpens(int precision, List<Integer> itemsPerKey, int threads) throws Exception {
        Path file = Files.createTempFile(dir, "written", ".hllt");
        Files.delete(file);
        try (HyperLogLogTable table = tableOf(precision, itemsPerKey.size()).create(file, OpenMode.SHARED);
                HyperLogLogTable source = tableOf(precision, itemsPerKey.size()).createAnonymous(OpenMode.EXCLUSIVE)) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> writers = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    writers.add(pool.submit(() -> {
                        for (int k = 0; k < itemsPerKey.size(); k++) {
                            for (int i = 0; i < 3 * itemsPerKey.get(k); i++) {
                                table.add("key-" + k, (long) i);
                            }
                        }
                    }));
                }
                for (Future<?> writer : writers) {
                    writer.get();
                }
            } finally {
                pool.shutdown();
            }
            for (int k = 0; k < itemsPerKey.size(); k += 2) {
                for (int i = 0; i < 5 * itemsPerKey.get(k); i++) {
                    source.add("key-" + k, (long) -i);
                }
            }
            table.merge(source);
        }
        try (HyperLogLogTable opened = HyperLogLogTable.open(file, OpenMode.READ_ONLY)) {
            assertEquals(
                    itemsPerKey.stream().filter(items -> items > 0).count(),
                    opened.keyCounts().keys());
        }
    }

    /** A table with room for every key to turn dense, and for pieces lost in races. */
    private static HyperLogLogTableBuilder tableOf(int precision, int keys) {
        return HyperLogLogTable.builder()
                .precision(precision)
                .capacity(keys)
                .bytesPerKey((4L << precision) + 2_048)
                .seed(5);
    }
}
