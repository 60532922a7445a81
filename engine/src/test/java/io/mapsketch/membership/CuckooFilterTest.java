package io.mapsketch.membership;

import static io.mapsketch.enginetesting.FalsePositives.measuredFalsePositiveRate;
import static io.mapsketch.enginetesting.Payloads.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.SketchInternals;
import io.mapsketch.memory.HashScheme;
import io.mapsketch.memory.RegionLock;
import io.mapsketch.memory.RegionMode;
import io.mapsketch.memory.SketchHeader;
import io.mapsketch.memory.SketchRegions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The cuckoo filter: the removable-filter contract, plus its sizing, copies, capacity, races and lock. */
class CuckooFilterTest extends RemovableFilterContract<CuckooFilter> {

    @Override
    FilterBuilder<?, CuckooFilter> builder() {
        return CuckooFilter.builder();
    }

    @Override
    CuckooFilter open(Path file, OpenMode mode) throws IOException {
        return CuckooFilter.open(file, mode);
    }

    @Override
    void merge(CuckooFilter into, CuckooFilter from) {
        fail("cuckoo filters do not merge");
    }

    @Override
    boolean merges() {
        return false;
    }

    @Override
    boolean storesCopies() {
        return true;
    }

    @Override
    SketchKind kind() {
        return SketchKind.CUCKOO;
    }

    @Override
    long capacityFor(int keys) {
        return keys;
    }

    @Override
    double lowestRate() {
        return CuckooSizing.LOWEST_RATE;
    }

    @Override
    int maxCopies() {
        return 8;
    }

    @Override
    double rateAtCapacity(CuckooFilter filter, double rate) {
        return CuckooSizing.falsePositiveRate(filter.fingerprintBits(), filter.fillRatio());
    }

    @Override
    void assertSameContents(CuckooFilter expected, CuckooFilter actual, String what) {
        assertArrayEquals(contents(expected), contents(actual), what);
    }

    /**
     * What a filter holds regardless of the order of its adds: each stored fingerprint with the smaller
     * of its two buckets, sorted.
     */
    static long[] contents(CuckooFilter filter) {
        CuckooTable table = filter.table();
        long[] held = new long[(int) filter.slotCount()];
        int count = 0;
        for (long bucket = 0; bucket < filter.bucketCount(); bucket++) {
            for (int slot = 0; slot < 4; slot++) {
                int fingerprint = table.read(bucket, slot);
                if (fingerprint != 0) {
                    held[count++] = Math.min(bucket, table.alternate(bucket, fingerprint)) << 16 | fingerprint;
                }
            }
        }
        long[] sorted = Arrays.copyOf(held, count);
        Arrays.sort(sorted);
        return sorted;
    }

    static CuckooFilter filter(long items, double rate, OpenMode mode) {
        return CuckooFilter.builder()
                .expectedItems(items)
                .falsePositiveRate(rate)
                .seed(7)
                .createAnonymous(mode);
    }

    @Test
    void sizedByTheFormulas() throws IOException {
        try (CuckooFilter filter = filter(10_000, 0.01, OpenMode.EXCLUSIVE)) {
            assertEquals(4_096, filter.bucketCount(), "ceil(10,000 / 3.6) = 2,778, up to a power of two");
            assertEquals(16_384, filter.slotCount());
            assertEquals(12, filter.fingerprintBits());
            assertEquals(
                    64 + 24_576, filter.memoryBytes(), "the control line, then 16,384 slots of 12 bits: 384 lines");
            assertEquals(12.0, filter.bitsPerSlot(), "dense slots");
        }
        for (double[] widthAndRate :
                new double[][] {{8, 0.0315}, {12, 0.0313}, {12, 0.00196}, {16, 0.00195}, {16, 0.000123}}) {
            try (CuckooFilter filter = filter(100, widthAndRate[1], OpenMode.EXCLUSIVE)) {
                assertEquals((int) widthAndRate[0], filter.fingerprintBits(), "at p = " + widthAndRate[1]);
            }
        }
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> CuckooFilter.builder().falsePositiveRate(1e-5));
        assertTrue(e.getMessage().startsWith("falsePositiveRate = 1.0E-5, must be in [1.220"), e.getMessage());
    }

    /** The worked example of {@code docs/file-format.md}. */
    @Test
    void layoutMatchesTheDocumentedFormula() throws IOException {
        try (CuckooFilter filter = filter(3_000, 0.01, OpenMode.EXCLUSIVE)) {
            assertEquals(1_024, filter.bucketCount());
            assertEquals(12, filter.fingerprintBits());
            CuckooTable table = filter.table();
            long hash = 0x0123456789ABCDEFL;
            assertEquals(4, table.bucket(hash));
            assertEquals(2_358, table.fingerprint(hash));
            assertEquals(335, table.alternate(4, 2_358));
            assertEquals(4, table.alternate(335, 2_358));
            assertTrue(table.insert(4, 335, 2_358));
            assertEquals(
                    2_358L,
                    SketchInternals.payload(filter).getLong(88),
                    "slot 16: bits 192 to 203, bits 0 to 11 of word 3");
            assertTrue(table.contains(4, 335, 2_358));
        }
    }

    @Test
    void oneKeyIsStoredAtMostEightTimes() throws IOException {
        try (CuckooFilter filter = filter(1_000, 0.001, OpenMode.SHARED)) {
            assertTrue(filter.add(42L), "the first copy: the key was certainly new");
            for (int i = 1; i < 8; i++) {
                assertFalse(filter.add(42L), "copy " + (i + 1));
            }
            byte[] before = bytes(filter);
            FilterFullException full = assertThrows(FilterFullException.class, () -> filter.add(42L));
            assertTrue(full.getMessage().contains("already stored 8 times"), full.getMessage());
            assertArrayEquals(before, bytes(filter));
            assertEquals(8, filter.itemsAdded());
            for (int i = 0; i < 8; i++) {
                assertTrue(filter.mightContain(42L));
                filter.remove(42L);
            }
            assertFalse(filter.mightContain(42L));
            assertThrows(KeyNotPresentException.class, () -> filter.remove(42L));
            assertEquals(0, filter.itemsAdded());
        }
    }

    /** Fills filters until an add is refused: the load reached, and a refused add that changed nothing. */
    @ParameterizedTest(name = "{0} items at p = {1}, {2}")
    @CsvSource({
        "1000, 0.05, EXCLUSIVE",
        "1000, 0.01, SHARED",
        "30000, 0.05, EXCLUSIVE",
        "30000, 0.01, EXCLUSIVE",
        "30000, 0.001, SHARED",
        "200000, 0.01, EXCLUSIVE"
    })
    void fillsToAtLeastNinetyPercentAndARefusedAddChangesNothing(long items, double rate, OpenMode mode)
            throws IOException {
        try (CuckooFilter filter = filter(items, rate, mode)) {
            SplittableRandom random = new SplittableRandom(items);
            long[] added = new long[(int) filter.slotCount()];
            int count = 0;
            while (true) {
                long key = random.nextLong();
                byte[] before = count > 0.85 * filter.slotCount() ? bytes(filter) : null;
                try {
                    filter.add(key);
                    added[count++] = key;
                } catch (FilterFullException e) {
                    assertTrue(e.getMessage().contains("nothing was changed"), e.getMessage());
                    assertArrayEquals(before, bytes(filter), "the refused add changed the filter");
                    break;
                }
            }
            double load = (double) count / filter.slotCount();
            System.out.printf(
                    "cuckoo-fill slots=%d bits=%d load=%.4f bits/key=%.3f%n",
                    filter.slotCount(), filter.fingerprintBits(), load, 8.0 * filter.memoryBytes() / count);
            assertTrue(load >= 0.90, "first refusal at load " + load);
            assertEquals(load, filter.fillRatio(), 1e-12);
            assertEquals(count, filter.itemsAdded());
            boolean[] found = new boolean[count];
            filter.mightContainAll(Arrays.copyOf(added, count), found);
            for (int i = 0; i < count; i++) {
                assertTrue(found[i], "key added before the refusal lost: " + added[i]);
            }
        }
    }

    @Test
    void aBatchThatOverflowsCountsTheKeysItAdded() throws IOException {
        try (CuckooFilter filter = filter(100, 0.01, OpenMode.EXCLUSIVE)) {
            long[] keys = new SplittableRandom(5).longs(1_000).toArray();
            assertThrows(FilterFullException.class, () -> filter.addAll(keys));
            long added = filter.itemsAdded();
            assertTrue(added >= 0.9 * filter.slotCount() && added <= filter.slotCount(), "added " + added);
            for (int i = 0; i < added; i++) {
                assertTrue(filter.mightContain(keys[i]));
            }
        }
    }

    /** The measured rate against the formula at several loads, for each fingerprint width. */
    @ParameterizedTest(name = "p = {0} at load {1}")
    @CsvSource({
        "0.05, 0.5, 1000000",
        "0.05, 0.95, 1000000",
        "0.01, 0.5, 4000000",
        "0.01, 0.95, 4000000",
        "0.001, 0.5, 8000000",
        "0.001, 0.95, 8000000"
    })
    void measuredRateIsWithinFifteenPercentOfTheFormula(double rate, double load, long probes) throws IOException {
        try (CuckooFilter filter = filter(100_000, rate, OpenMode.EXCLUSIVE)) {
            filter.addAll(new SplittableRandom(2)
                    .longs((long) (load * filter.slotCount()))
                    .toArray());
            double formula = CuckooSizing.falsePositiveRate(filter.fingerprintBits(), filter.fillRatio());
            double measured = measuredFalsePositiveRate(filter, probes, 3);
            System.out.printf(
                    "cuckoo-fpr bits=%d load=%.4f formula=%.6f%% measured=%.6f%% probes=%d bits/key=%.3f%n",
                    filter.fingerprintBits(),
                    filter.fillRatio(),
                    100 * formula,
                    100 * measured,
                    probes,
                    8.0 * filter.memoryBytes() / filter.itemsAdded());
            assertEquals(formula, measured, formula * 0.15, "measured " + measured);
        }
    }

    /**
     * Lookups racing a writer's moves on another thread never miss a key whose add has returned. The
     * filter is half filled first; the writer fills it from 50% to 92% load (where most adds move
     * fingerprints) once the reader is running.
     */
    @Test
    void lookupsRacingMovesNeverMissAnAcknowledgedKey() throws Exception {
        try (CuckooFilter filter = filter(50_000, 0.001, OpenMode.SHARED);
                ExecutorService pool = Executors.newFixedThreadPool(2)) {
            long[] keys = new SplittableRandom(6)
                    .longs((long) (0.92 * filter.slotCount()))
                    .toArray();
            int half = keys.length / 2;
            filter.addAll(Arrays.copyOf(keys, half));
            long movesBefore = filter.table().moves();
            AtomicInteger acknowledged = new AtomicInteger(half);
            AtomicBoolean done = new AtomicBoolean();
            CountDownLatch readerRunning = new CountDownLatch(1);
            Future<Long> reader = pool.submit(() -> {
                SplittableRandom random = new SplittableRandom(7);
                long lookups = 0;
                while (!done.get()) {
                    readerRunning.countDown();
                    long key = keys[random.nextInt(acknowledged.get())];
                    assertTrue(filter.mightContain(key), "acknowledged key missed: " + key);
                    lookups++;
                }
                return lookups;
            });
            Future<?> writer = pool.submit(() -> {
                readerRunning.await();
                for (int i = half; i < keys.length; i++) {
                    filter.add(keys[i]);
                    acknowledged.lazySet(i + 1);
                }
                done.set(true);
                return null;
            });
            writer.get();
            assertTrue(reader.get() > 0);
            long moves = filter.table().moves() - movesBefore;
            assertTrue(moves > 1_000, "the fill from 50% moved fingerprints while the reader ran: " + moves);
        }
    }

    /**
     * Two {@code SHARED} adders (threads of this JVM, through the filter's lock) and two lock-free readers
     * on a 12-bit filter, whose dense slots straddle words: no reader misses a key whose add returned. The
     * adders fill the filter from 50% to 92% load, so adds move fingerprints through straddling slots.
     */
    @Test
    void sharedAddersAndReadersOnStraddlingSlotsNeverMissAnAcknowledgedKey() throws Exception {
        try (CuckooFilter filter = filter(50_000, 0.01, OpenMode.SHARED);
                ExecutorService pool = Executors.newFixedThreadPool(4)) {
            assertEquals(12, filter.fingerprintBits());
            long[][] keys = new long[2][];
            AtomicInteger[] acknowledged = new AtomicInteger[2];
            for (int adder = 0; adder < 2; adder++) {
                keys[adder] = new SplittableRandom(10 + adder)
                        .longs((long) (0.46 * filter.slotCount()))
                        .toArray();
                filter.addAll(Arrays.copyOf(keys[adder], keys[adder].length / 2));
                acknowledged[adder] = new AtomicInteger(keys[adder].length / 2);
            }
            long movesBefore = filter.table().moves();
            AtomicBoolean done = new AtomicBoolean();
            CountDownLatch readersRunning = new CountDownLatch(2);
            Future<?>[] readers = new Future<?>[2];
            for (int r = 0; r < 2; r++) {
                SplittableRandom random = new SplittableRandom(20 + r);
                readers[r] = pool.submit(() -> {
                    readersRunning.countDown();
                    while (!done.get()) {
                        int adder = random.nextInt(2);
                        long key = keys[adder][random.nextInt(acknowledged[adder].get())];
                        assertTrue(filter.mightContain(key), "acknowledged key missed: " + key);
                    }
                    return null;
                });
            }
            Future<?>[] adders = new Future<?>[2];
            for (int a = 0; a < 2; a++) {
                int adder = a;
                adders[a] = pool.submit(() -> {
                    readersRunning.await();
                    for (int i = keys[adder].length / 2; i < keys[adder].length; i++) {
                        filter.add(keys[adder][i]);
                        acknowledged[adder].lazySet(i + 1);
                    }
                    return null;
                });
            }
            for (Future<?> adder : adders) {
                adder.get();
            }
            done.set(true);
            for (Future<?> reader : readers) {
                reader.get();
            }
            long moves = filter.table().moves() - movesBefore;
            assertTrue(moves > 1_000, "the fill from 50% moved fingerprints while the readers ran: " + moves);
        }
    }

    @Test
    void hostileHeaderParametersAreRefusedAsCorrupt() throws IOException {
        long lines = CuckooTable.payloadBytes(1024, 12, CuckooTable.WORD_ALIGNED);
        assertEquals(
                "header parameter 'buckets' (index 0) is 1000, expected a power of two",
                corruptMessage(new long[] {1000, 12, 100, Double.doubleToLongBits(0.01)}, lines));
        assertEquals(
                "header parameter 'buckets' (index 0) is 1, expected a value in [2, 4294967296]",
                corruptMessage(new long[] {1, 12, 100, Double.doubleToLongBits(0.01)}, 128));
        assertEquals(
                "header parameter 'buckets' (index 0) is 8589934592, expected a value in [2, 4294967296]",
                corruptMessage(new long[] {1L << 33, 12, 100, Double.doubleToLongBits(0.01)}, 128));
        assertEquals(
                "header parameter 'fingerprint bits' (index 1) is 10, expected 8, 12 or 16",
                corruptMessage(new long[] {1024, 10, 100, Double.doubleToLongBits(0.01)}, lines));
        assertEquals(
                "header parameter 'fingerprint bits' (index 1) is 32, expected a value in [8, 16]",
                corruptMessage(new long[] {1024, 32, 100, Double.doubleToLongBits(0.01)}, lines));
        assertEquals(
                "header parameter 'false-positive rate' (index 3) is NaN, expected a value in (0.0, 1.0)",
                corruptMessage(new long[] {1024, 12, 100, Double.doubleToLongBits(Double.NaN)}, lines));
        assertEquals(
                "header parameter 'slot layout' (index 4) is 2, expected a value in [0, 1]",
                corruptMessage(new long[] {1024, 12, 100, Double.doubleToLongBits(0.01), 2}, lines));
        assertTrue(corruptMessage(new long[] {1024, 12, 100, Double.doubleToLongBits(0.01), CuckooTable.DENSE}, lines)
                .startsWith("payload length is 6656 bytes, expected 6208 (a 64-byte control line, then 4 x buckets"
                        + " slots of fingerprint bits each"));
        assertTrue(corruptMessage(new long[] {1024, 16, 100, Double.doubleToLongBits(0.01)}, lines)
                .startsWith("payload length is 6656 bytes, expected 8256 (a 64-byte control line, then"));
    }

    private String corruptMessage(long[] parameters, long payload) throws IOException {
        Path file = dir.resolve("corrupt-" + System.nanoTime() + ".cuckoo");
        SketchHeader header =
                SketchHeader.forNewSketch(SketchKind.CUCKOO.id(), HashScheme.XXH3_64, 0, parameters, payload);
        SketchRegions.create(file, header, RegionMode.EXCLUSIVE).close();
        String message = assertThrows(
                        CorruptSketchFileException.class, () -> MembershipFilter.open(file, OpenMode.SHARED))
                .getMessage();
        assertTrue(message.contains(file.toString()), message);
        return message.substring(message.indexOf(": ") + 2);
    }

    @Test
    void anExclusiveWriterFreesALockLeftByADeadWriter() throws IOException {
        Path file = dir.resolve("stale-lock.cuckoo");
        try (CuckooFilter filter = CuckooFilter.builder()
                .expectedItems(1_000)
                .falsePositiveRate(0.01)
                .create(file, OpenMode.SHARED)) {
            filter.add("kept");
            SketchInternals.payload(filter).putLong(CuckooTable.LOCK, Long.MAX_VALUE);
        }
        try (CuckooFilter filter = CuckooFilter.open(file, OpenMode.EXCLUSIVE)) {
            assertEquals(1, filter.lockRecoveries());
            assertTrue(new RegionLock(SketchInternals.payload(filter), CuckooTable.LOCK)
                    .holderPid()
                    .isEmpty());
            filter.add("added");
            assertTrue(filter.mightContain("kept") && filter.mightContain("added"));
        }
        try (CuckooFilter filter = CuckooFilter.open(file, OpenMode.SHARED)) {
            filter.remove("kept");
            assertEquals(1, filter.lockRecoveries(), "a shared writer found the lock free");
        }
    }

    /** CF.ADDNX and CF.COUNT: an add only if absent, and the copies a key's buckets hold. */
    @Test
    void addIfAbsentAddsOnceAndCountTellsTheCopies() throws IOException {
        byte[] key = "session-3f2a91".getBytes(StandardCharsets.UTF_8);
        byte[] other = "session-77c0de".getBytes(StandardCharsets.UTF_8);
        try (CuckooFilter filter = filter(1_000, 0.001, OpenMode.SHARED)) {
            assertEquals(0, filter.count(key, 0, key.length));
            assertTrue(filter.addIfAbsent(key, 0, key.length));
            assertFalse(filter.addIfAbsent(key, 0, key.length), "present: not added again");
            assertEquals(1, filter.count(key, 0, key.length));
            assertEquals(1, filter.itemsAdded(), "only the add counts");
            filter.add(key, 0, key.length);
            filter.add(key, 0, key.length);
            assertEquals(3, filter.count(key, 0, key.length));
            assertEquals(0, filter.count(other, 0, other.length));
            filter.remove(key, 0, key.length);
            assertEquals(2, filter.count(key, 0, key.length));
            assertEquals(2, filter.estimatedItems(), "one slot per copy held");
        }
    }
}
