package io.mapsketch.membership;

import static io.mapsketch.enginetesting.KeyItemPairs.closeAll;
import static io.mapsketch.enginetesting.KeyItemPairs.key;
import static io.mapsketch.enginetesting.KeyItemPairs.pairs;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.KeyItemPairs.Batch;
import io.mapsketch.internal.SketchInternals;
import io.mapsketch.memory.AtomicSegment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quicktheories.core.Gen;

/**
 * A Bloom table answers, key by key, as one standalone {@link BlockedBloomFilter} of the same expected
 * items, rate and seed: the same bits, no false negative; batches of pairs add as single pairs do; a
 * merge of tables is the table of the union, key by key; threads adding new keys at once leave every key
 * one filter with every item; a table so written opens again from its file.
 */
class BloomTablePropertiesTest {

    private static final long SEED = 41;
    private static final double[] RATES = {0.3, 0.01, 0.001, 1e-6};

    @TempDir
    Path dir;

    /** A shape of the keys' filters: the expected items per key and one of {@link #RATES}. */
    private record Shape(int items, double rate) {}

    private static Gen<Shape> shapes() {
        return integers()
                .between(1, 400)
                .zip(integers().between(0, RATES.length - 1), (n, r) -> new Shape(n, RATES[r]));
    }

    private static BloomTable table(Shape shape, OpenMode mode) {
        return BloomTable.builder()
                .capacity(64)
                .expectedItemsPerKey(shape.items())
                .falsePositiveRate(shape.rate())
                .seed(SEED)
                .createAnonymous(mode);
    }

    private static BlockedBloomFilter standalone(Shape shape) {
        return BlockedBloomFilter.builder()
                .expectedItems(shape.items())
                .falsePositiveRate(shape.rate())
                .seed(SEED)
                .createAnonymous(OpenMode.EXCLUSIVE);
    }

    /** The standalone filters of the pairs, one per key. */
    private static Map<String, BlockedBloomFilter> standalones(List<long[]> pairs, Shape shape) {
        Map<String, BlockedBloomFilter> filters = new HashMap<>();
        for (long[] pair : pairs) {
            filters.computeIfAbsent(key(pair[0]), k -> standalone(shape)).add(pair[1]);
        }
        return filters;
    }

    static long[] wordsOf(BlockedBloomFilter filter) {
        AtomicSegment payload = SketchInternals.payload(filter);
        long[] words = new long[(int) (payload.byteSize() / Long.BYTES)];
        for (int w = 0; w < words.length; w++) {
            words[w] = payload.getLong((long) w * Long.BYTES);
        }
        return words;
    }

    private static void assertAnswersAsStandalones(
            BloomTable table, Map<String, BlockedBloomFilter> filters, List<long[]> pairs) {
        assertEquals(filters.size(), table.keyCount());
        for (Map.Entry<String, BlockedBloomFilter> entry : filters.entrySet()) {
            BlockedBloomFilter filter = entry.getValue();
            assertEquals(filter.blockCount(), table.blocksPerKey());
            assertEquals(filter.bitsPerKey(), table.bitsPerKey());
            assertArrayEquals(wordsOf(filter), table.filterWords(entry.getKey()), entry.getKey());
            for (long probe = 0; probe < 64; probe++) {
                assertEquals(filter.mightContain(probe), table.mightContain(entry.getKey(), probe), entry.getKey());
            }
        }
        for (long[] pair : pairs) {
            assertTrue(table.mightContain(key(pair[0]), pair[1]), "no false negative: " + Arrays.toString(pair));
        }
        assertFalse(table.mightContain(key(99), 1L));
        assertEquals(
                0, Arrays.stream(table.filterWords(key(99))).filter(w -> w != 0).count());
    }

    @Test
    void aTableAnswersAsOneBlockedBloomFilterPerKey() {
        qt().withFixedSeed(43L)
                .withExamples(60)
                .forAll(pairs(3_000), shapes(), booleans().all())
                .checkAssert((pairs, shape, shared) -> {
                    Map<String, BlockedBloomFilter> filters = standalones(pairs, shape);
                    try (BloomTable table = table(shape, shared ? OpenMode.SHARED : OpenMode.EXCLUSIVE)) {
                        for (long[] pair : pairs) {
                            table.add(key(pair[0]), pair[1]);
                        }
                        assertAnswersAsStandalones(table, filters, pairs);
                        assertEquals(pairs.size(), table.itemsAdded());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    closeAll(filters.values());
                });
    }

    @Test
    void batchesOfPairsAddAsSinglePairsDo() {
        qt().withFixedSeed(47L).withExamples(40).forAll(pairs(2_000), shapes()).checkAssert((pairs, shape) -> {
            Map<String, BlockedBloomFilter> filters = standalones(pairs, shape);
            Batch batch = Batch.of(pairs);
            try (BloomTable table = table(shape, OpenMode.EXCLUSIVE)) {
                boolean changed = table.addAll(
                        batch.data(),
                        batch.keyOffsets(),
                        batch.keyLengths(),
                        batch.itemOffsets(),
                        batch.itemLengths(),
                        batch.count());
                assertEquals(!pairs.isEmpty(), changed);
                assertAnswersAsStandalones(table, filters, pairs);
                assertEquals(pairs.size(), table.itemsAdded());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            closeAll(filters.values());
        });
    }

    /** A batch lookup of pairs, some added and some not, some of keys not in the table, answers as single lookups. */
    @Test
    void batchLookupsAnswerAsSingleLookups() {
        qt().withFixedSeed(59L)
                .withExamples(40)
                .forAll(pairs(1_500), pairs(1_500), shapes())
                .checkAssert((added, asked, shape) -> {
                    try (BloomTable table = table(shape, OpenMode.SHARED)) {
                        added.stream().filter(pair -> pair[0] < 8).forEach(pair -> table.add(key(pair[0]), pair[1]));
                        List<long[]> all = new ArrayList<>(asked);
                        all.addAll(added);
                        boolean[] results = new boolean[all.size() + 3];
                        Batch batch = Batch.of(all);
                        int found = table.mightContainAll(
                                batch.data(),
                                batch.keyOffsets(),
                                batch.keyLengths(),
                                batch.itemOffsets(),
                                batch.itemLengths(),
                                batch.count(),
                                results);
                        int expected = 0;
                        for (int i = 0; i < all.size(); i++) {
                            boolean single = table.mightContain(key(all.get(i)[0]), all.get(i)[1]);
                            assertEquals(single, results[i], Arrays.toString(all.get(i)));
                            expected += single ? 1 : 0;
                        }
                        assertEquals(expected, found);
                        assertFalse(results[all.size()]);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
    }

    @Test
    void aMergeOfTablesIsTheTableOfTheUnionKeyByKey() {
        qt().withFixedSeed(53L)
                .withExamples(40)
                .forAll(pairs(2_500), pairs(2_500), shapes(), booleans().all())
                .checkAssert((left, right, shape, shared) -> {
                    List<long[]> all = new ArrayList<>(left);
                    all.addAll(right);
                    Map<String, BlockedBloomFilter> filters = standalones(all, shape);
                    OpenMode mode = shared ? OpenMode.SHARED : OpenMode.EXCLUSIVE;
                    try (BloomTable into = table(shape, mode);
                            BloomTable from = table(shape, OpenMode.EXCLUSIVE)) {
                        left.forEach(pair -> into.add(key(pair[0]), pair[1]));
                        right.forEach(pair -> from.add(key(pair[0]), pair[1]));
                        into.merge(from);
                        assertAnswersAsStandalones(into, filters, all);
                        into.mergeAll(List.of(from, into, from));
                        assertAnswersAsStandalones(into, filters, all);
                        assertEquals(2L * (left.size() + right.size()) + 2L * right.size(), into.itemsAdded());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    closeAll(filters.values());
                });
    }

    /** Four threads add overlapping new keys at once: every key has one slot, one filter and every item. */
    @Test
    void threadsInsertingTheSameNewKeysAtOnceLoseNothing() throws Exception {
        int threads = 4;
        int keys = 2_000;
        Shape shape = new Shape(32, 0.01);
        try (BloomTable table = BloomTable.builder()
                        .capacity(keys)
                        .expectedItemsPerKey(shape.items())
                        .falsePositiveRate(shape.rate())
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
            assertEquals(keys, table.keyCount());
            assertEquals(
                    keys, table.keys().stream().map(Arrays::hashCode).distinct().count(), "distinct keys");
            for (int k = 0; k < keys; k++) {
                try (BlockedBloomFilter filter = standalone(shape)) {
                    for (int i = 0; i < 8 * threads; i++) {
                        filter.add((long) k * 1_000 + i);
                    }
                    assertArrayEquals(wordsOf(filter), table.filterWords(key(k)), key(k));
                }
            }
            assertFalse(table.contains(key(keys)));
        }
    }

    /**
     * A table written by racing writers (who race for records and filters, and give the losers back) and a
     * merge opens again from its file, with every key's filter as written.
     */
    @Test
    void everyTableWrittenByRacingWritersAndAMergeOpens() {
        qt().withFixedSeed(53L)
                .withExamples(30)
                .forAll(pairs(600), shapes(), integers().between(1, 4))
                .checkAssert((pairs, shape, threads) -> {
                    try {
                        assertReopens(pairs, shape, threads);
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                });
    }

    private void assertReopens(List<long[]> pairs, Shape shape, int threads) throws Exception {
        Path file = Files.createTempFile(dir, "written", ".bft");
        Files.delete(file);
        Map<String, long[]> written = new HashMap<>();
        try (BloomTable table = BloomTable.builder()
                        .capacity(64)
                        .expectedItemsPerKey(shape.items())
                        .falsePositiveRate(shape.rate())
                        .seed(SEED)
                        .create(file, OpenMode.SHARED);
                BloomTable source = table(shape, OpenMode.EXCLUSIVE);
                ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> pairs.forEach(pair -> table.add(key(pair[0]), pair[1]))));
            }
            for (Future<?> f : done) {
                f.get();
            }
            pairs.forEach(pair -> source.add(key(pair[0] + 6), -pair[1]));
            table.merge(source);
            for (byte[] key : table.keys()) {
                String name = new String(key, StandardCharsets.UTF_8);
                written.put(name, table.filterWords(name));
            }
        }
        try (BloomTable opened = BloomTable.open(file, OpenMode.READ_ONLY)) {
            assertEquals(written.size(), opened.keyCount());
            written.forEach((key, words) -> assertArrayEquals(words, opened.filterWords(key), key));
        }
    }
}
