package io.mapsketch.similarity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import io.mapsketch.memory.HashScheme;
import io.mapsketch.memory.RegionMode;
import io.mapsketch.memory.SketchHeader;
import io.mapsketch.memory.SketchRegions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quicktheories.core.Gen;

/** The SimHash table: appends and puts, the within-d lookup against brute force, files and errors. */
class SimHashTest {

    @TempDir
    Path dir;

    private static SimHash table(long capacity, OpenMode mode) {
        return SimHash.builder().capacity(capacity).seed(3).createAnonymous(mode);
    }

    /** Fingerprints near a centre (a few bits flipped) and random ones. */
    private static long[] fingerprints(long seed, int count, long centre) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] fingerprints = new long[count];
        for (int i = 0; i < count; i++) {
            long fingerprint = random.nextInt(3) == 0 ? random.nextLong() : centre;
            for (int flips = random.nextInt(10); flips > 0; flips--) {
                fingerprint ^= 1L << random.nextInt(64);
            }
            fingerprints[i] = fingerprint;
        }
        return fingerprints;
    }

    /**
     * A fingerprint to store, the query or (a third of the time) a random {@code value} with the bits of
     * {@code flips} flipped, and the slot a put stores it in (modulo the capacity).
     */
    private record Entry(boolean random, long value, long flips, int slot) {

        long fingerprint(long query) {
            return (random ? value : query) ^ flips;
        }
    }

    /** A query and the entries of a table filled around it. */
    private record Filling(long query, List<Entry> entries) {}

    private static Gen<Filling> fillings() {
        Gen<Long> flips = integers().between(0, 9).zip(longs().all(), (count, positions) -> {
            long mask = 0;
            for (int f = 0; f < count; f++) {
                mask ^= 1L << (positions >>> 6 * f & 63);
            }
            return mask;
        });
        Gen<Entry> entries = integers()
                .between(0, 2)
                .zip(
                        longs().all(),
                        flips,
                        integers().between(0, 9_999),
                        (roll, value, mask, slot) -> new Entry(roll == 0, value, mask, slot));
        return longs().all().zip(lists().of(entries).ofSizeBetween(0, 10_000), Filling::new);
    }

    private static long[] bruteForce(long[] stored, boolean[] present, long query, int d) {
        return LongStream.range(0, stored.length)
                .filter(i -> present[(int) i] && SimHash.distance(stored[(int) i], query) <= d)
                .toArray();
    }

    @Test
    void withinEqualsBruteForce() {
        qt().withFixedSeed(71L)
                .withExamples(80)
                .forAll(
                        fillings(),
                        integers().between(1, 10_000),
                        integers().between(0, 64),
                        integers().between(0, 3))
                .checkAssert((filling, capacity, d, how) -> {
                    long query = filling.query();
                    long[] stored = new long[capacity];
                    boolean[] present = new boolean[capacity];
                    boolean appends = how < 2;
                    try (SimHash table = table(capacity, how % 2 == 0 ? OpenMode.EXCLUSIVE : OpenMode.SHARED)) {
                        int filled = Math.min(filling.entries().size(), appends ? capacity : capacity / 2);
                        Entry[] entries = filling.entries().subList(0, filled).toArray(Entry[]::new);
                        for (int i = 0; i < filled; i++) {
                            long fingerprint = entries[i].fingerprint(query);
                            int index = appends ? i : entries[i].slot() % capacity;
                            if (appends) {
                                assertEquals(index, table.append(fingerprint));
                            } else {
                                table.put(index, fingerprint);
                            }
                            stored[index] = fingerprint;
                            present[index] = true;
                        }
                        long size = 0;
                        for (int i = 0; i < capacity; i++) {
                            OptionalLong got = table.get(i);
                            assertEquals(
                                    present[i] ? OptionalLong.of(stored[i]) : OptionalLong.empty(), got, "slot " + i);
                            size += present[i] ? 1 : 0;
                        }
                        assertArrayEquals(
                                bruteForce(stored, present, query, d),
                                table.within(query, d),
                                "capacity " + capacity + ", d " + d);
                        assertEquals(size, table.size());
                        assertEquals(filled, table.itemsAdded());
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    @Test
    void aFullTableRefusesAppendsButTakesPuts() throws IOException {
        try (SimHash table = table(3, OpenMode.EXCLUSIVE)) {
            assertArrayEquals(new long[0], table.within(0, 64), "an empty table matches nothing, not its zeros");
            table.put(1, 0);
            assertArrayEquals(new long[] {1}, table.within(0, 0));
            assertEquals(0, table.append(-1L), "the cursor starts at 0 whatever was put");
            assertEquals(1, table.append(5));
            assertEquals(2, table.append(6));
            String message = assertThrows(IllegalStateException.class, () -> table.append(7))
                    .getMessage();
            assertTrue(message.endsWith("is full: the append cursor reached the capacity of 3 slots"), message);
            table.put(2, 7);
            assertEquals(OptionalLong.of(7), table.get(2));
            assertArrayEquals(new long[] {1, 2}, table.within(4, 2));
            assertEquals(3, table.size());
            assertEquals(
                    "index = 3, must be in [0, 3)",
                    assertThrows(IllegalArgumentException.class, () -> table.put(3, 1))
                            .getMessage());
            assertThrows(IllegalArgumentException.class, () -> table.get(-1));
            assertEquals(
                    "maxDistance = 65, must be in [0, 64]",
                    assertThrows(IllegalArgumentException.class, () -> table.within(0, 65))
                            .getMessage());
        }
        assertEquals(
                "capacity = 0, must be in [1, 1099511627776]",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> SimHash.builder().capacity(0))
                        .getMessage());
        assertTrue(assertThrows(
                        IllegalStateException.class, () -> SimHash.builder().createAnonymous(OpenMode.SHARED))
                .getMessage()
                .startsWith("capacity was not set"));
    }

    @Test
    void concurrentSharedAppendsTakeDistinctSlotsAndLoseNothing() throws Exception {
        int threads = 4;
        int each = 5_000;
        try (SimHash table = table(threads * each + 10, OpenMode.SHARED);
                ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            Future<?>[] done = new Future<?>[threads];
            for (int t = 0; t < threads; t++) {
                long base = (long) t << 32;
                done[t] = pool.submit(() -> {
                    for (int i = 0; i < each; i++) {
                        table.append(base + i);
                    }
                });
            }
            for (Future<?> future : done) {
                future.get();
            }
            assertEquals((long) threads * each, table.size());
            long[] all = new long[threads * each];
            for (int i = 0; i < all.length; i++) {
                all[i] = table.get(i).orElseThrow();
            }
            Arrays.sort(all);
            for (int t = 0; t < threads; t++) {
                for (int i = 0; i < each; i++) {
                    assertEquals(((long) t << 32) + i, all[t * each + i]);
                }
            }
            assertTrue(table.get(threads * each).isEmpty());
        }
    }

    @Test
    void persistsAndReopensFromTheFileAlone() throws IOException {
        Path file = dir.resolve("docs.simhash");
        long[] fingerprints = fingerprints(5, 5_000, 0x0123456789ABCDEFL);
        long[] near;
        try (SimHash table = SimHash.builder().capacity(6_000).seed(42).create(file, OpenMode.EXCLUSIVE)) {
            for (long fingerprint : fingerprints) {
                table.append(fingerprint);
            }
            table.put(5_999, 0x0123456789ABCDEFL);
            near = table.within(0x0123456789ABCDEFL, 3);
            assertEquals(
                    table.features().add("x").fingerprint(),
                    new SimHashFeatures(42).add("x").fingerprint());
        }
        try (SimHash reopened = SimHash.open(file, OpenMode.READ_ONLY)) {
            assertEquals(6_000, reopened.capacity());
            assertEquals(42, reopened.hashSeed());
            assertEquals(5_001, reopened.itemsAdded());
            assertEquals(5_001, reopened.size());
            assertArrayEquals(near, reopened.within(0x0123456789ABCDEFL, 3));
            assertEquals(5_999, near[near.length - 1]);
            assertThrows(IllegalStateException.class, () -> reopened.append(1));
        }
        try (SimHash writer = SimHash.open(file, OpenMode.SHARED)) {
            assertEquals(5_000, writer.append(9), "the cursor persists");
        }
    }

    @Test
    void hostileHeadersAndControlWordsAreRefusedAsCorrupt() throws IOException {
        assertEquals(
                "header parameter 'capacity' (index 0) is 0, expected a value in [1, 1099511627776]",
                corruptMessage("zero", new long[] {0, 1}, 64));
        assertEquals(
                "header parameter 'capacity' (index 0) is 1099511627777, expected a value in [1, 1099511627776]",
                corruptMessage("huge", new long[] {(1L << 40) + 1, 1}, 64));
        assertEquals(
                "header parameter 'fingerprint scheme' (index 1) is 0, expected a value in [1, 1]",
                corruptMessage("scheme", new long[] {8, 0}, 192));
        assertEquals(
                "payload length is 128 bytes, expected 192 (64 + ceil(capacity / 512) x 64 + ceil(capacity / 8) "
                        + "x 64 bytes)",
                corruptMessage("short", new long[] {8, 1}, 128));

        Path file = dir.resolve("cursor.simhash");
        SimHash.builder().capacity(100).create(file, OpenMode.EXCLUSIVE).close();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, 101), 4096);
        }
        String message = assertThrows(CorruptSketchFileException.class, () -> SimHash.open(file, OpenMode.SHARED))
                .getMessage();
        assertTrue(message.endsWith("append cursor (payload byte 0) is 101, expected a value in [0, 100]"), message);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(
                    ByteBuffer.allocate(16)
                            .order(ByteOrder.LITTLE_ENDIAN)
                            .putLong(0, 5)
                            .putLong(8, -1),
                    4096);
        }
        message = assertThrows(CorruptSketchFileException.class, () -> SimHash.open(file, OpenMode.READ_ONLY))
                .getMessage();
        assertTrue(message.endsWith("high-water mark (payload byte 8) is -1, expected a value in [0, 100]"), message);
    }

    private String corruptMessage(String name, long[] parameters, long payload) throws IOException {
        Path file = dir.resolve(name + ".simhash");
        SketchHeader header =
                SketchHeader.forNewSketch(SketchKind.SIMHASH.id(), HashScheme.XXH3_64, 0, parameters, payload);
        SketchRegions.create(file, header, RegionMode.EXCLUSIVE).close();
        String message = assertThrows(CorruptSketchFileException.class, () -> SimHash.open(file, OpenMode.SHARED))
                .getMessage();
        assertTrue(message.startsWith("sketch file " + file + ": "), message);
        return message.substring(message.indexOf(": ") + 2);
    }
}
