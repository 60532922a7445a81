package io.mapsketch.frequency;

import static io.mapsketch.enginetesting.KeyItemPairs.closeAll;
import static io.mapsketch.enginetesting.KeyItemPairs.key;
import static io.mapsketch.enginetesting.KeyItemPairs.pairs;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.KeyItemPairs.Batch;
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
 * A Count-Min table answers, key by key, as one standalone {@link CountMinSketch} of the same shape and seed:
 * the same counters and estimates; batches of triples add as single adds do; a merge of tables is the sum of
 * their counters, key by key, and a weighted merge the sum of each source's counters its weight times over; threads adding new keys at once lose no count; a table so written opens again
 * from its file.
 */
class CountMinTablePropertiesTest {

    private static final long SEED = 43;

    @TempDir
    Path dir;

    /** A shape of the keys' sketches: width, depth and counter bits. */
    private record Shape(int width, int depth, int counterBits) {}

    private static Gen<Shape> shapes() {
        return integers()
                .between(3, 300)
                .zip(integers().between(1, 8), booleans().all(), (w, d, wide) -> new Shape(w, d, wide ? 64 : 32));
    }

    /** The count of a pair: from 1 up, a few large enough to saturate 32-bit counters. */
    private static long count(long[] pair) {
        return pair[1] % 97 == 0 ? 1L << 31 : 1 + pair[1] % 5;
    }

    private static CountMinTable table(Shape shape, OpenMode mode) {
        return builder(shape).createAnonymous(mode);
    }

    private static CountMinTableBuilder builder(Shape shape) {
        return CountMinTable.builder()
                .capacity(64)
                .dimensions(shape.width(), shape.depth())
                .counterBits(shape.counterBits())
                .seed(SEED);
    }

    private static CountMinSketch standalone(Shape shape) {
        return CountMinSketch.builder()
                .dimensions(shape.width(), shape.depth())
                .counterBits(shape.counterBits())
                .seed(SEED)
                .createAnonymous(OpenMode.EXCLUSIVE);
    }

    /** The standalone sketches of the pairs, one per key, each pair added {@link #count} times. */
    private static Map<String, CountMinSketch> standalones(List<long[]> pairs, Shape shape) {
        Map<String, CountMinSketch> sketches = new HashMap<>();
        for (long[] pair : pairs) {
            sketches.computeIfAbsent(key(pair[0]), k -> standalone(shape)).add(pair[1], count(pair));
        }
        return sketches;
    }

    private static void assertAnswersAsStandalones(CountMinTable table, Map<String, CountMinSketch> sketches) {
        assertEquals(sketches.size(), table.keyCount());
        for (Map.Entry<String, CountMinSketch> entry : sketches.entrySet()) {
            CountMinSketch sketch = entry.getValue();
            String key = entry.getKey();
            long[] counters = sketch.counterTable();
            assertArrayEquals(counters, table.counterTable(key), key);
            long firstRow = Arrays.stream(counters, 0, table.width()).sum();
            assertEquals(firstRow, table.totalWeight(key), key);
            if (sketch.totalWeight() <= sketch.maxEstimate()) {
                assertEquals(sketch.totalWeight(), firstRow, "no counter saturated: " + key);
                assertEquals(sketch.errorBound(), table.errorBound(key), key);
            }
            for (long probe = 0; probe < 64; probe++) {
                assertEquals(sketch.estimate(probe), table.estimate(key, probe), key);
            }
        }
        assertEquals(0, table.estimate(key(99), 1L));
        assertEquals(
                0,
                Arrays.stream(table.counterTable(key(99))).filter(c -> c != 0).count());
    }

    private static long weight(List<long[]> pairs) {
        return pairs.stream().mapToLong(CountMinTablePropertiesTest::count).sum();
    }

    @Test
    void aTableAnswersAsOneStandaloneCountMinSketchPerKey() {
        qt().withFixedSeed(61L)
                .withExamples(60)
                .forAll(pairs(2_000), shapes(), booleans().all())
                .checkAssert((pairs, shape, shared) -> {
                    Map<String, CountMinSketch> sketches = standalones(pairs, shape);
                    try (CountMinTable table = table(shape, shared ? OpenMode.SHARED : OpenMode.EXCLUSIVE)) {
                        for (long[] pair : pairs) {
                            long estimate = count(pair) == 1
                                    ? singleAdd(table, pair)
                                    : table.add(key(pair[0]), pair[1], count(pair));
                            assertEquals(Math.min(estimate, table.maxEstimate()), estimate);
                        }
                        assertAnswersAsStandalones(table, sketches);
                        assertEquals(pairs.size(), table.itemsAdded());
                        assertEquals(weight(pairs), table.totalWeight());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    closeAll(sketches.values());
                });
    }

    /** The add of one occurrence every table kind has, then the estimate it leaves. */
    private static long singleAdd(CountMinTable table, long[] pair) {
        table.add(key(pair[0]), pair[1]);
        return table.estimate(key(pair[0]), pair[1]);
    }

    @Test
    void batchesOfTriplesAddAsSingleAddsDo() {
        qt().withFixedSeed(67L).withExamples(40).forAll(pairs(2_000), shapes()).checkAssert((pairs, shape) -> {
            Batch batch = Batch.of(pairs);
            long[] counts =
                    pairs.stream().mapToLong(CountMinTablePropertiesTest::count).toArray();
            long[] batched = new long[pairs.size()];
            long[] single = new long[pairs.size()];
            try (CountMinTable table = table(shape, OpenMode.EXCLUSIVE);
                    CountMinTable singles = table(shape, OpenMode.EXCLUSIVE)) {
                table.addAll(
                        batch.data(),
                        batch.keyOffsets(),
                        batch.keyLengths(),
                        batch.itemOffsets(),
                        batch.itemLengths(),
                        counts,
                        batch.count(),
                        batched);
                for (int i = 0; i < pairs.size(); i++) {
                    single[i] = singles.add(key(pairs.get(i)[0]), pairs.get(i)[1], counts[i]);
                }
                assertArrayEquals(single, batched);
                Map<String, CountMinSketch> sketches = standalones(pairs, shape);
                assertAnswersAsStandalones(table, sketches);
                closeAll(sketches.values());
                long[] estimates = new long[pairs.size() + 1];
                table.estimateAll(
                        batch.data(),
                        batch.keyOffsets(),
                        batch.keyLengths(),
                        batch.itemOffsets(),
                        batch.itemLengths(),
                        batch.count(),
                        estimates);
                for (int i = 0; i < pairs.size(); i++) {
                    assertEquals(table.estimate(key(pairs.get(i)[0]), pairs.get(i)[1]), estimates[i]);
                }
                assertEquals(pairs.size(), table.itemsAdded());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    @Test
    void aMergeOfTablesIsTheSumOfTheirCountersKeyByKey() {
        qt().withFixedSeed(71L)
                .withExamples(40)
                .forAll(pairs(2_000), pairs(2_000), shapes(), booleans().all())
                .checkAssert((left, right, shape, shared) -> {
                    List<long[]> twice = new ArrayList<>(left);
                    twice.addAll(right);
                    twice.addAll(right);
                    Map<String, CountMinSketch> sketches = standalones(twice, shape);
                    OpenMode mode = shared ? OpenMode.SHARED : OpenMode.EXCLUSIVE;
                    try (CountMinTable into = table(shape, mode);
                            CountMinTable from = table(shape, OpenMode.EXCLUSIVE)) {
                        left.forEach(pair -> into.add(key(pair[0]), pair[1], count(pair)));
                        right.forEach(pair -> from.add(key(pair[0]), pair[1], count(pair)));
                        into.mergeAll(List.of(from, from)); // each key's sketch is added to twice at once
                        assertAnswersAsStandalones(into, sketches);
                        assertEquals(weight(twice), into.totalWeight());
                        assertEquals(left.size() + 2L * right.size(), into.itemsAdded());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    closeAll(sketches.values());
                });
    }

    /**
     * A weighted merge of two tables into a third is, key by key, the table of the third's pairs, then of each
     * source's pairs added its weight times over: the same counters, N and items added.
     */
    @Test
    void aWeightedMergeOfTablesIsEachSourcesPairsAddedItsWeightTimes() {
        qt().withFixedSeed(79L)
                .withExamples(40)
                .forAll(
                        pairs(1_000),
                        pairs(1_000),
                        shapes(),
                        integers().between(1, 6).zip(integers().between(1, 6), (a, b) -> new long[] {a, b}))
                .checkAssert((own, other, shape, weights) -> {
                    long first = weights[0];
                    long second = weights[1];
                    OpenMode mode = first % 2 == 0 ? OpenMode.SHARED : OpenMode.EXCLUSIVE;
                    try (CountMinTable into = table(shape, mode);
                            CountMinTable left = table(shape, OpenMode.EXCLUSIVE);
                            CountMinTable right = table(shape, OpenMode.EXCLUSIVE);
                            CountMinTable expected = table(shape, OpenMode.EXCLUSIVE)) {
                        own.forEach(pair -> into.add(key(pair[0]), pair[1], count(pair)));
                        other.forEach(pair -> left.add(key(pair[0] + 3), pair[1], count(pair)));
                        own.forEach(pair -> right.add(key(pair[0]), -pair[1], count(pair)));
                        own.forEach(pair -> expected.add(key(pair[0]), pair[1], count(pair)));
                        for (int w = 0; w < first; w++) {
                            other.forEach(pair -> expected.add(key(pair[0] + 3), pair[1], count(pair)));
                        }
                        for (int w = 0; w < second; w++) {
                            own.forEach(pair -> expected.add(key(pair[0]), -pair[1], count(pair)));
                        }
                        into.mergeAll(List.of(left, right), weights);
                        assertEquals(expected.keyCount(), into.keyCount());
                        for (byte[] key : expected.keys()) {
                            String name = new String(key, StandardCharsets.UTF_8);
                            assertArrayEquals(expected.counterTable(name), into.counterTable(name), name);
                        }
                        assertEquals(expected.totalWeight(), into.totalWeight());
                        assertEquals(expected.itemsAdded(), into.itemsAdded());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
    }

    /** Four threads add counts to overlapping new keys at once: every key has one sketch and every count. */
    @Test
    void threadsInsertingTheSameNewKeysAtOnceLoseNothing() throws Exception {
        int threads = 4;
        int keys = 2_000;
        Shape shape = new Shape(40, 3, 32);
        try (CountMinTable table = builder(shape).capacity(keys).createAnonymous(OpenMode.SHARED);
                ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    for (int k = 0; k < keys; k++) {
                        for (int i = 0; i < 4; i++) {
                            table.add(key(k), (long) k * 1_000 + i, thread + 1);
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
            assertEquals((long) keys * 4 * (1 + 2 + 3 + 4), table.totalWeight());
            for (int k = 0; k < keys; k++) {
                try (CountMinSketch sketch = standalone(shape)) {
                    for (int i = 0; i < 4; i++) {
                        sketch.add((long) k * 1_000 + i, 1 + 2 + 3 + 4);
                    }
                    assertArrayEquals(sketch.counterTable(), table.counterTable(key(k)), key(k));
                }
            }
            assertFalse(table.contains(key(keys)));
        }
    }

    /** A table written by racing writers and a merge opens again from its file, every key's counters as written. */
    @Test
    void everyTableWrittenByRacingWritersAndAMergeOpens() {
        qt().withFixedSeed(73L)
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
        Path file = Files.createTempFile(dir, "written", ".cmt");
        Files.delete(file);
        Map<String, long[]> written = new HashMap<>();
        long weight;
        try (CountMinTable table = builder(shape).create(file, OpenMode.SHARED);
                CountMinTable source = table(shape, OpenMode.EXCLUSIVE);
                ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> pairs.forEach(pair -> table.add(key(pair[0]), pair[1], count(pair)))));
            }
            for (Future<?> f : done) {
                f.get();
            }
            pairs.forEach(pair -> source.add(key(pair[0] + 6), -pair[1], count(pair)));
            table.merge(source);
            for (byte[] key : table.keys()) {
                String name = new String(key, StandardCharsets.UTF_8);
                written.put(name, table.counterTable(name));
            }
            weight = table.totalWeight();
            assertEquals((threads + 1) * weight(pairs), weight);
        }
        try (CountMinTable opened = CountMinTable.open(file, OpenMode.READ_ONLY)) {
            assertEquals(written.size(), opened.keyCount());
            assertEquals(weight, opened.totalWeight());
            written.forEach((key, counters) -> assertArrayEquals(counters, opened.counterTable(key), key));
        }
    }
}
