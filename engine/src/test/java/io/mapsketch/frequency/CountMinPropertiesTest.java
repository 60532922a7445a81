package io.mapsketch.frequency;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.Payloads;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * The algebra of Count-Min counters: never an undercount (plain and conservative, 32- and 64-bit,
 * both modes), merge is exactly the sketch of the concatenated streams, and concurrent plain adds
 * leave exactly what sequential ones do; concurrent conservative adds never undercount.
 */
class CountMinPropertiesTest {

    /** A small sketch (55 x 3) so that keys collide often. */
    private static CountMinSketch small(int bits, boolean conservative, OpenMode mode) {
        return CountMinSketchTest.sketch(0.05, 0.1, bits, conservative, mode);
    }

    private static OpenMode mode(boolean shared) {
        return shared ? OpenMode.SHARED : OpenMode.EXCLUSIVE;
    }

    /**
     * A seeded stream of (key, count) pairs over {@code keys} keys, counts 1..maxCount: the streams of the
     * concurrency tests, tens of thousands of pairs per thread, which no shrink would make readable.
     */
    private static long[][] stream(long seed, int length, int keys, int maxCount) {
        SplittableRandom random = new SplittableRandom(seed);
        long[][] pairs = new long[length][];
        for (int i = 0; i < length; i++) {
            pairs[i] = new long[] {random.nextLong(keys), 1 + random.nextInt(maxCount)};
        }
        return pairs;
    }

    /** Generated streams of 0 to {@code maxLength} (key, count) pairs over {@code keys} keys, counts 1..maxCount. */
    private static Gen<long[][]> streams(int maxLength, int keys, int maxCount) {
        Gen<long[]> pairs =
                longs().between(0, keys - 1).zip(longs().between(1, maxCount), (key, count) -> new long[] {key, count});
        return lists().of(pairs)
                .ofSizeBetween(0, maxLength)
                .map(list -> list.toArray(long[][]::new))
                .describedAs(stream -> stream.length + " pairs " + Arrays.deepToString(stream));
    }

    @Test
    void estimatesAreNeverBelowTheTruthAndConservativeNeverAbovePlain() {
        qt().withFixedSeed(61L)
                .withExamples(60)
                .forAll(streams(3_000, 400, 50), booleans().all(), booleans().all())
                .checkAssert((pairs, wide, shared) -> {
                    int keys = 400;
                    long[] exact = new long[keys];
                    int bits = wide ? 64 : 32;
                    try (CountMinSketch plain = small(bits, false, mode(shared));
                            CountMinSketch conservative = small(bits, true, mode(!shared))) {
                        long total = 0;
                        for (long[] pair : pairs) {
                            exact[(int) pair[0]] += pair[1];
                            total += pair[1];
                            assertTrue(plain.add(pair[0], pair[1]) >= exact[(int) pair[0]]);
                            assertTrue(conservative.add(pair[0], pair[1]) >= exact[(int) pair[0]]);
                        }
                        for (int key = 0; key < keys; key++) {
                            long p = plain.estimate(key);
                            long c = conservative.estimate(key);
                            assertTrue(c >= exact[key], "conservative undercounts key " + key);
                            assertTrue(p >= c, "conservative above plain at key " + key);
                            assertTrue(p <= total, "plain above N at key " + key);
                        }
                        assertEquals(total, plain.totalWeight());
                        assertEquals(total, conservative.totalWeight());
                        assertEquals((long) pairs.length, plain.itemsAdded());
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    @Test
    void mergeIsExactlyTheSketchOfTheConcatenatedStreams() {
        qt().withFixedSeed(62L)
                .withExamples(60)
                .forAll(
                        streams(2_000, 1_000, 1_000),
                        streams(2_000, 1_000, 1_000),
                        booleans().all(),
                        booleans().all())
                .checkAssert((first, second, wide, shared) -> {
                    int bits = wide ? 64 : 32;
                    try (CountMinSketch a = small(bits, false, mode(shared));
                            CountMinSketch b = small(bits, false, mode(!shared));
                            CountMinSketch both = small(bits, false, OpenMode.EXCLUSIVE)) {
                        for (long[] pair : first) {
                            a.add(pair[0], pair[1]);
                            both.add(pair[0], pair[1]);
                        }
                        for (long[] pair : second) {
                            b.add(pair[0], pair[1]);
                            both.add(pair[0], pair[1]);
                        }
                        a.merge(b);
                        assertArrayEquals(Payloads.bytes(both), Payloads.bytes(a));
                        assertEquals(both.totalWeight(), a.totalWeight());
                        assertEquals((long) first.length + second.length, a.itemsAdded());
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    @Test
    void concurrentPlainAddsEqualSequentialAddsExactly() throws Exception {
        int threads = 4;
        int perThread = 40_000;
        for (int bits : new int[] {32, 64}) {
            try (CountMinSketch shared = small(bits, false, OpenMode.SHARED);
                    CountMinSketch sequential = small(bits, false, OpenMode.EXCLUSIVE)) {
                List<long[][]> streams = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    streams.add(stream(100 + t, perThread, 300, 20));
                }
                long[][] batches = new long[threads][];
                for (int t = 0; t < threads; t++) {
                    batches[t] = new SplittableRandom(200 + t)
                            .longs(perThread, 0, 300)
                            .toArray();
                }
                runConcurrently(threads, t -> {
                    for (long[] pair : streams.get(t)) {
                        shared.add(pair[0], pair[1]);
                    }
                    shared.addAll(batches[t]);
                });
                for (int t = 0; t < threads; t++) {
                    for (long[] pair : streams.get(t)) {
                        sequential.add(pair[0], pair[1]);
                    }
                    sequential.addAll(batches[t]);
                }
                assertArrayEquals(Payloads.bytes(sequential), Payloads.bytes(shared));
                assertEquals(sequential.totalWeight(), shared.totalWeight());
                assertEquals(sequential.itemsAdded(), shared.itemsAdded());
            }
        }
    }

    /** Threads hammer a handful of keys of a tiny conservative sketch: the estimates never fall below the truth. */
    @Test
    void concurrentConservativeAddsNeverUndercount() throws Exception {
        int threads = 4;
        int perThread = 50_000;
        int keys = 40;
        for (int bits : new int[] {32, 64}) {
            try (CountMinSketch shared = small(bits, true, OpenMode.SHARED)) {
                long[] exact = new long[keys];
                List<long[][]> streams = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    long[][] pairs = stream(300 + t, perThread, keys, 5);
                    streams.add(pairs);
                    for (long[] pair : pairs) {
                        exact[(int) pair[0]] += pair[1];
                    }
                }
                runConcurrently(threads, t -> {
                    for (long[] pair : streams.get(t)) {
                        shared.add(pair[0], pair[1]);
                    }
                });
                long total = 0;
                for (int key = 0; key < keys; key++) {
                    assertTrue(
                            shared.estimate(key) >= exact[key],
                            bits + "-bit key " + key + ": estimate " + shared.estimate(key) + " below the truth "
                                    + exact[key]);
                    total += exact[key];
                }
                assertEquals(total, shared.totalWeight());
            }
        }
    }

    @FunctionalInterface
    private interface Worker {
        void run(int thread) throws Exception;
    }

    private static void runConcurrently(int threads, Worker worker) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    worker.run(thread);
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
