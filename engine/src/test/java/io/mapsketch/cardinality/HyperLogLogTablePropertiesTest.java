package io.mapsketch.cardinality;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.mapsketch.OpenMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * A HyperLogLog table answers, key by key, as one standalone {@link HyperLogLog} of its precision and
 * seed: the same registers and the same estimate, sparse or dense; a merge of tables is the table of the
 * union, key by key; threads adding new keys at once leave every key one sketch with every item.
 */
class HyperLogLogTablePropertiesTest {

    private static final long SEED = 77;

    /** Pairs (key, item): a few keys, each with any number of items, as generated. */
    private static Gen<List<long[]>> pairs(int maxPairs) {
        return lists().of(integers().between(0, 11).zip(integers().between(0, 1 << 20), (k, i) -> new long[] {k, i}))
                .ofSizeBetween(0, maxPairs)
                .describedAs(list -> list.size() + " pairs");
    }

    static HyperLogLogTable table(int precision, OpenMode mode) {
        return HyperLogLogTable.builder()
                .precision(precision)
                .capacity(64)
                .bytesPerKey((2L << precision) + 1_024)
                .seed(SEED)
                .createAnonymous(mode);
    }

    private static HyperLogLog standalone(int precision) {
        return HyperLogLog.builder().precision(precision).seed(SEED).createAnonymous(OpenMode.EXCLUSIVE);
    }

    private static String key(long k) {
        return "page-" + k;
    }

    /** The standalone sketches of the pairs, one per key. */
    private static Map<String, HyperLogLog> standalones(List<long[]> pairs, int precision) {
        Map<String, HyperLogLog> sketches = new HashMap<>();
        for (long[] pair : pairs) {
            sketches.computeIfAbsent(key(pair[0]), k -> standalone(precision)).add(pair[1]);
        }
        return sketches;
    }

    private static void assertAnswersAsStandalones(HyperLogLogTable table, Map<String, HyperLogLog> sketches) {
        assertEquals(sketches.size(), table.keyCounts().keys());
        for (Map.Entry<String, HyperLogLog> entry : sketches.entrySet()) {
            HyperLogLog hll = entry.getValue();
            assertArrayEquals(registersOf(hll), table.registers(entry.getKey()), entry.getKey());
            assertEquals(hll.estimate(), table.estimate(entry.getKey()), entry.getKey());
        }
    }

    @Test
    void aTableAnswersAsOneHyperLogLogPerKey() {
        qt().withFixedSeed(23L)
                .withExamples(60)
                .forAll(pairs(3_000), integers().between(4, 14), booleans().all())
                .checkAssert((pairs, precision, shared) -> {
                    Map<String, HyperLogLog> sketches = standalones(pairs, precision);
                    try (HyperLogLogTable table = table(precision, shared ? OpenMode.SHARED : OpenMode.EXCLUSIVE)) {
                        for (int i = 0; i < pairs.size(); i++) {
                            long[] pair = pairs.get(i);
                            table.add(key(pair[0]), pair[1]);
                        }
                        assertAnswersAsStandalones(table, sketches);
                        assertEquals(pairs.size(), table.itemsAdded());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    closeAll(sketches.values());
                });
    }

    @Test
    void batchesOfPairsAddAsSinglePairsDo() {
        qt().withFixedSeed(29L)
                .withExamples(40)
                .forAll(pairs(2_000), integers().between(4, 12))
                .checkAssert((pairs, precision) -> {
                    Map<String, HyperLogLog> sketches = standalones(pairs, precision);
                    byte[] data = new byte[pairs.size() * 32];
                    int[] keyOffsets = new int[pairs.size()];
                    int[] keyLengths = new int[pairs.size()];
                    int[] itemOffsets = new int[pairs.size()];
                    int[] itemLengths = new int[pairs.size()];
                    int at = 0;
                    for (int i = 0; i < pairs.size(); i++) {
                        byte[] key = key(pairs.get(i)[0]).getBytes(StandardCharsets.UTF_8);
                        keyOffsets[i] = at;
                        keyLengths[i] = key.length;
                        System.arraycopy(key, 0, data, at, key.length);
                        at += key.length;
                        itemOffsets[i] = at;
                        itemLengths[i] = Long.BYTES;
                        ByteBuffer.wrap(data, at, Long.BYTES)
                                .order(ByteOrder.LITTLE_ENDIAN)
                                .putLong(pairs.get(i)[1]);
                        at += Long.BYTES;
                    }
                    try (HyperLogLogTable table = table(precision, OpenMode.EXCLUSIVE)) {
                        table.addAll(data, keyOffsets, keyLengths, itemOffsets, itemLengths, pairs.size());
                        assertAnswersAsStandalones(table, sketches);
                        assertEquals(pairs.size(), table.itemsAdded());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    closeAll(sketches.values());
                });
    }

    /**
     * At p = 14 a key is sparse up to 2,032 registers: at every count of distinct items from 1 until it is
     * dense, and some beyond, its estimate is the standalone sketch's, bit for bit.
     */
    @Test
    void aSparseKeyEstimatesExactlyAsTheDenseSketchOfTheSameItems() throws Exception {
        int precision = 14;
        try (HyperLogLogTable table = table(precision, OpenMode.SHARED);
                HyperLogLog hll = standalone(precision)) {
            int item = 0;
            int sparseSteps = 0;
            while (!isDense(table) || item < 3_000) {
                table.add("k", item);
                hll.add(item);
                item++;
                assertEquals(hll.estimate(), table.estimate("k"), "after " + item + " items");
                sparseSteps += isDense(table) ? 0 : 1;
            }
            assertTrue(sparseSteps > 2_000, "the key stayed sparse for " + sparseSteps + " items");
            assertEquals(1, table.keyCounts().dense());
        }
    }

    private static boolean isDense(HyperLogLogTable table) {
        return table.keyCounts().dense() == 1;
    }

    @Test
    void aMergeOfTablesIsTheTableOfTheUnionKeyByKey() {
        qt().withFixedSeed(31L)
                .withExamples(40)
                .forAll(
                        pairs(2_500),
                        pairs(2_500),
                        integers().between(4, 12),
                        booleans().all())
                .checkAssert((left, right, precision, shared) -> {
                    List<long[]> all = new ArrayList<>(left);
                    all.addAll(right);
                    Map<String, HyperLogLog> sketches = standalones(all, precision);
                    OpenMode mode = shared ? OpenMode.SHARED : OpenMode.EXCLUSIVE;
                    try (HyperLogLogTable into = table(precision, mode);
                            HyperLogLogTable from = table(precision, OpenMode.EXCLUSIVE)) {
                        left.forEach(pair -> into.add(key(pair[0]), pair[1]));
                        right.forEach(pair -> from.add(key(pair[0]), pair[1]));
                        into.merge(from);
                        assertAnswersAsStandalones(into, sketches);
                        into.merge(from);
                        assertAnswersAsStandalones(into, sketches);
                        Set<String> keys = new LinkedHashSet<>();
                        all.forEach(pair -> keys.add(key(pair[0])));
                        if (!keys.isEmpty()) {
                            HyperLogLog union = standalone(precision);
                            all.forEach(pair -> union.add(pair[1]));
                            assertEquals(union.estimate(), into.estimateUnion(List.copyOf(keys)));
                            union.close();
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    closeAll(sketches.values());
                });
    }

    /**
     * Several tables merged at once, this one among them, give each key the registers of the union of its
     * items in all of them, as merging them in turn does, sparse and dense keys alike, for a shared or a sole
     * writer.
     */
    @Test
    void aMergeOfSeveralTablesAtOnceIsTheTableOfTheirUnion() {
        qt().withFixedSeed(37L)
                .withExamples(40)
                .forAll(
                        lists().of(pairs(1_500)).ofSizeBetween(1, 4),
                        pairs(1_500),
                        integers().between(4, 12),
                        booleans().all())
                .checkAssert((sources, own, precision, shared) -> {
                    List<long[]> all = new ArrayList<>(own);
                    sources.forEach(all::addAll);
                    Map<String, HyperLogLog> sketches = standalones(all, precision);
                    List<HyperLogLogTable> tables = new ArrayList<>();
                    try (HyperLogLogTable into = table(precision, shared ? OpenMode.SHARED : OpenMode.EXCLUSIVE)) {
                        own.forEach(pair -> into.add(key(pair[0]), pair[1]));
                        for (List<long[]> pairs : sources) {
                            HyperLogLogTable from = table(precision, OpenMode.EXCLUSIVE);
                            pairs.forEach(pair -> from.add(key(pair[0]), pair[1]));
                            tables.add(from);
                        }
                        List<HyperLogLogTable> merged = new ArrayList<>(tables);
                        merged.add(merged.size() / 2, into);
                        into.mergeAll(merged);
                        assertAnswersAsStandalones(into, sketches);
                        assertEquals(2L * own.size() + all.size() - own.size(), into.itemsAdded());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    } finally {
                        tables.forEach(HyperLogLogTablePropertiesTest::closeQuietly);
                    }
                    closeAll(sketches.values());
                });
    }

    /** Four threads add overlapping new keys at once: every key has one slot and every item. */
    @Test
    void threadsInsertingTheSameNewKeysAtOnceLoseNothing() throws Exception {
        int precision = 10;
        int threads = 4;
        int keys = 2_000;
        try (HyperLogLogTable table = HyperLogLogTable.builder()
                        .precision(precision)
                        .capacity(keys)
                        .bytesPerKey(4096)
                        .seed(SEED)
                        .createAnonymous(OpenMode.SHARED);
                ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    for (int k = 0; k < keys; k++) {
                        for (int i = 0; i < 8; i++) {
                            table.add(key(k), (long) k * 1_000 + i * threads + thread);
                        }
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            assertEquals(keys, table.keyCounts().keys());
            assertEquals(
                    keys, table.keys().stream().map(Arrays::hashCode).distinct().count(), "distinct keys");
            for (int k = 0; k < keys; k++) {
                try (HyperLogLog hll = standalone(precision)) {
                    for (int i = 0; i < 8 * threads; i++) {
                        hll.add((long) k * 1_000 + i);
                    }
                    assertArrayEquals(registersOf(hll), table.registers(key(k)), key(k));
                }
            }
            assertFalse(table.contains(key(keys)));
        }
    }

    /**
     * Two threads merge tables into one shared table while two others add to the same keys: every key then
     * has the registers of one HyperLogLog of all their items, as if each had been added alone.
     */
    @Test
    void concurrentMergesAndAddsGiveTheUnionOfEveryKey() throws Exception {
        int precision = 12;
        int keys = 300;
        int itemsPerWriter = 150;
        int writers = 4;
        try (HyperLogLogTable into = HyperLogLogTable.builder()
                        .precision(precision)
                        .capacity(keys)
                        .bytesPerKey(3 << precision)
                        .seed(SEED)
                        .createAnonymous(OpenMode.SHARED);
                HyperLogLogTable first = HyperLogLogTable.builder()
                        .precision(precision)
                        .capacity(keys)
                        .bytesPerKey(3 << precision)
                        .seed(SEED)
                        .createAnonymous(OpenMode.EXCLUSIVE);
                HyperLogLogTable second = HyperLogLogTable.builder()
                        .precision(precision)
                        .capacity(keys)
                        .bytesPerKey(3 << precision)
                        .seed(SEED)
                        .createAnonymous(OpenMode.EXCLUSIVE);
                ExecutorService pool = Executors.newFixedThreadPool(writers)) {
            List<HyperLogLogTable> sources = List.of(first, second);
            for (int w = 0; w < sources.size(); w++) {
                for (int k = 0; k < keys; k++) {
                    for (int i = 0; i < itemsPerWriter; i++) {
                        sources.get(w).add(key(k), item(k, i, w, writers));
                    }
                }
            }
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                done.add(pool.submit(() -> {
                    if (writer < sources.size()) {
                        into.merge(sources.get(writer));
                        return;
                    }
                    for (int k = 0; k < keys; k++) {
                        for (int i = 0; i < itemsPerWriter; i++) {
                            into.add(key(k), item(k, i, writer, writers));
                        }
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            for (int k = 0; k < keys; k++) {
                try (HyperLogLog hll = standalone(precision)) {
                    for (int w = 0; w < writers; w++) {
                        for (int i = 0; i < itemsPerWriter; i++) {
                            hll.add(item(k, i, w, writers));
                        }
                    }
                    assertArrayEquals(registersOf(hll), into.registers(key(k)), key(k));
                }
            }
        }
    }

    /** Item {@code i} of key {@code k} of writer {@code w}: the writers' items of a key differ. */
    private static long item(int k, int i, int w, int writers) {
        return ((long) k << 32) + (long) i * writers + w;
    }

    static byte[] registersOf(HyperLogLog hll) {
        byte[] registers = new byte[hll.registerCount()];
        hll.registers.bytes().asByteBuffer().get(registers);
        return registers;
    }

    private static void closeQuietly(HyperLogLogTable table) {
        try {
            table.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void closeAll(Iterable<HyperLogLog> sketches) {
        for (HyperLogLog hll : sketches) {
            try {
                hll.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
