package io.mapsketch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.internal.SketchInternals;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.similarity.MinHash;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Many threads calling one {@code SHARED} sketch at once get the answers and leave the state one
 * thread would: the scratch space of batch calls, of text keys and of conservative updates is each
 * call's own, though the sketch lends it rather than each thread keeping it.
 */
class ConcurrentKeyCallsTest {

    /** More threads than a sketch's scratch pools have stripes (at most 64), so that threads share stripes. */
    private static final int THREADS = 72;

    /** Runs {@code task(t)} on {@value #THREADS} threads at once and waits for all of them. */
    private static void onThreads(ThreadTask task) throws Exception {
        try (ExecutorService pool = Executors.newFixedThreadPool(THREADS)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    task.run(thread);
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
        }
    }

    @FunctionalInterface
    private interface ThreadTask {
        void run(int thread) throws Exception;
    }

    private static String text(long key) {
        return "key-" + Long.toHexString(key) + "-ü";
    }

    @Test
    void batchAndTextLookupsOfManyThreadsAnswerAsOneThreadWould() throws Exception {
        long[] keys = new SplittableRandom(41).longs(3_000).toArray();
        byte[] data = new byte[keys.length * 24];
        int[] offsets = new int[keys.length];
        int[] lengths = new int[keys.length];
        int at = 0;
        for (int i = 0; i < keys.length; i++) {
            byte[] utf8 = text(keys[i]).getBytes(StandardCharsets.UTF_8);
            System.arraycopy(utf8, 0, data, at, utf8.length);
            offsets[i] = at;
            lengths[i] = utf8.length;
            at += utf8.length;
        }
        try (BloomFilter filter = BloomFilter.builder()
                .expectedItems(3_000)
                .falsePositiveRate(0.05)
                .createAnonymous(OpenMode.SHARED)) {
            for (int i = 0; i < keys.length; i += 2) {
                filter.add(keys[i]);
                filter.add(text(keys[i]));
            }
            boolean[] longAnswers = new boolean[keys.length];
            boolean[] textAnswers = new boolean[keys.length];
            filter.mightContainAll(keys, longAnswers);
            filter.mightContainAll(data, offsets, lengths, keys.length, textAnswers);
            int present = 0;
            for (boolean answer : textAnswers) {
                present += answer ? 1 : 0;
            }
            assertTrue(present >= keys.length / 2 && present < keys.length, present + " keys present");
            onThreads(thread -> {
                boolean[] longs = new boolean[keys.length];
                boolean[] texts = new boolean[keys.length];
                for (int round = 0; round < 10; round++) {
                    filter.mightContainAll(keys, longs);
                    filter.mightContainAll(data, offsets, lengths, keys.length, texts);
                    assertArrayEquals(longAnswers, longs, "long batch, thread " + thread);
                    assertArrayEquals(textAnswers, texts, "byte batch, thread " + thread);
                    for (int i = thread; i < keys.length; i += THREADS) {
                        assertEquals(textAnswers[i], filter.mightContain(text(keys[i])), "text key " + i);
                    }
                }
            });
        }
    }

    @Test
    void textAddsOfManyThreadsLeaveTheRegistersOfOneThread() throws Exception {
        long[] keys = new SplittableRandom(43).longs(20_000).toArray();
        try (HyperLogLog concurrent = HyperLogLog.builder().precision(12).createAnonymous(OpenMode.SHARED);
                HyperLogLog sequential = HyperLogLog.builder().precision(12).createAnonymous(OpenMode.EXCLUSIVE)) {
            onThreads(thread -> {
                for (int i = thread; i < keys.length; i += THREADS) {
                    concurrent.add(text(keys[i]));
                }
            });
            for (long key : keys) {
                sequential.add(text(key));
            }
            assertArrayEquals(payload(sequential), payload(concurrent));
        }
    }

    /**
     * Row-by-row batch estimates (over 1 MiB of counters) and conservative {@code SHARED} adds, whose
     * snapshot of the rows would, if two calls shared it, raise one key's counters for another's.
     */
    @Test
    void conservativeAddsAndBatchEstimatesOfManyThreadsNeverUndercount() throws Exception {
        long[] keys = new SplittableRandom(47).longs(4_000, 0, 1_000).toArray();
        Map<Long, Long> truth = new HashMap<>();
        for (long key : keys) {
            truth.merge(key, 1L, Long::sum);
        }
        try (CountMinSketch sketch = CountMinSketch.builder()
                .epsilon(2e-5)
                .delta(0.01)
                .conservativeUpdate(true)
                .createAnonymous(OpenMode.SHARED)) {
            assertTrue(sketch.counterMemoryBytes() > 1 << 20, "estimates row by row");
            onThreads(thread -> {
                for (long key : keys) {
                    sketch.add(key);
                }
            });
            long[] distinct = truth.keySet().stream().mapToLong(Long::longValue).toArray();
            long[] expected = new long[distinct.length];
            for (int i = 0; i < distinct.length; i++) {
                expected[i] = sketch.estimate(distinct[i]);
                assertTrue(expected[i] >= THREADS * truth.get(distinct[i]), "key " + distinct[i]);
            }
            onThreads(thread -> {
                long[] estimates = new long[distinct.length];
                for (int round = 0; round < 10; round++) {
                    sketch.estimateAll(distinct, estimates);
                    assertArrayEquals(expected, estimates, "thread " + thread);
                }
            });
        }
    }

    @Test
    void batchAddsOfManyThreadsLeaveTheRowsOfOneThread() throws Exception {
        long[][] sets = new long[THREADS][];
        SplittableRandom random = new SplittableRandom(53);
        for (int t = 0; t < THREADS; t++) {
            sets[t] = random.longs(2_000).toArray();
        }
        try (MinHash concurrent =
                        MinHash.builder().rows(THREADS).signatureLength(64).createAnonymous(OpenMode.SHARED);
                MinHash sequential =
                        MinHash.builder().rows(THREADS).signatureLength(64).createAnonymous(OpenMode.EXCLUSIVE)) {
            onThreads(thread -> {
                for (int round = 0; round < 3; round++) {
                    concurrent.addAll(thread, sets[thread]);
                }
            });
            for (int row = 0; row < THREADS; row++) {
                sequential.addAll(row, sets[row]);
                assertEquals(sequential.signature(row), concurrent.signature(row), "row " + row);
            }
        }
    }

    private static byte[] payload(Sketch sketch) {
        return SketchInternals.payload(sketch).segment().toArray(ValueLayout.JAVA_BYTE);
    }
}
