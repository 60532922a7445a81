package io.mapsketch.cardinality;

import static io.mapsketch.enginetesting.KeyGenerators.keys;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.Payloads;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The algebra of HyperLogLog registers, byte for byte: duplicates change nothing, merge is the sketch
 * of the union, folding to a lower precision then merging is the sketch built at that precision, and
 * concurrent adds and merges leave what sequential ones do; the summary line follows the registers.
 */
class HyperLogLogPropertiesTest {

    private static HyperLogLog sketch(int precision, OpenMode mode) {
        return HyperLogLogTest.sketch(precision, mode);
    }

    private static byte[] bytes(HyperLogLog sketch) {
        return Payloads.bytes(sketch);
    }

    private static OpenMode mode(boolean shared) {
        return shared ? OpenMode.SHARED : OpenMode.EXCLUSIVE;
    }

    @Test
    void duplicatesNeverChangeTheRegisters() {
        qt().withFixedSeed(41L)
                .withExamples(100)
                .forAll(keys(0, 4_000), integers().between(4, 18), booleans().all())
                .checkAssert((keys, precision, shared) -> {
                    try (HyperLogLog hll = sketch(precision, mode(shared))) {
                        hll.addAll(keys);
                        byte[] once = bytes(hll);
                        double estimate = hll.estimate();
                        for (int i = keys.length - 1; i >= 0; i--) {
                            assertFalse(hll.add(keys[i]), "key " + keys[i] + " again");
                        }
                        hll.addAll(keys);
                        assertArrayEquals(once, bytes(hll));
                        assertEquals(estimate, hll.estimate());
                        assertEquals(3L * keys.length, hll.itemsAdded());
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    @Test
    void mergeEqualsTheSketchOfTheUnion() {
        qt().withFixedSeed(43L)
                .withExamples(60)
                .forAll(keys(0, 6_000), keys(0, 6_000), integers().between(4, 16))
                .checkAssert((left, right, precision) -> {
                    try (HyperLogLog a = sketch(precision, OpenMode.EXCLUSIVE);
                            HyperLogLog b = sketch(precision, OpenMode.SHARED);
                            HyperLogLog shared = sketch(precision, OpenMode.SHARED);
                            HyperLogLog union = sketch(precision, OpenMode.EXCLUSIVE)) {
                        a.addAll(left);
                        b.addAll(right);
                        union.addAll(LongStream.concat(Arrays.stream(left), Arrays.stream(right))
                                .toArray());
                        double unionCount = HyperLogLog.estimateUnion(a, b);
                        shared.merge(a);
                        shared.merge(b);
                        a.merge(b);
                        assertArrayEquals(bytes(union), bytes(a), "plain (SIMD) merge");
                        assertArrayEquals(bytes(union), bytes(shared), "compare-and-set merge");
                        SummaryLineChecks.assertLineIsRight(a, "plain merge");
                        SummaryLineChecks.assertLineIsRight(shared, "compare-and-set merge");
                        assertEquals(union.estimate(), unionCount, "estimateUnion");
                        assertEquals(left.length + right.length, a.itemsAdded());
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    @Test
    void foldingToALowerPrecisionThenMergingEqualsTheSketchBuiltThere() {
        qt().withFixedSeed(47L)
                .withExamples(80)
                .forAll(
                        keys(0, 8_000),
                        integers().between(4, 18),
                        integers().between(0, 14),
                        booleans().all())
                .checkAssert((keys, high, drop, shared) -> {
                    int low = Math.max(4, high - drop);
                    int count = keys.length;
                    int half = count / 2;
                    try (HyperLogLog fine = sketch(high, OpenMode.EXCLUSIVE);
                            HyperLogLog coarse = sketch(low, OpenMode.SHARED);
                            HyperLogLog folded = sketch(low, mode(shared));
                            HyperLogLog builtLow = sketch(low, OpenMode.EXCLUSIVE)) {
                        fine.addAll(Arrays.copyOfRange(keys, 0, half));
                        coarse.addAll(Arrays.copyOfRange(keys, half, count));
                        builtLow.addAll(keys);
                        double unionCount = HyperLogLog.estimateUnion(fine, coarse);
                        folded.mergeFolded(fine);
                        folded.merge(coarse);
                        assertArrayEquals(bytes(builtLow), bytes(folded), "p = " + high + " folded to " + low);
                        SummaryLineChecks.assertLineIsRight(folded, "folded");
                        assertEquals(builtLow.estimate(), unionCount, "estimateUnion folds to the lowest precision");
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    /**
     * Two threads start each of many rounds together (spinning, not parking) on a fresh p = 4 sketch;
     * one raises registers 0 and 2 through every rank, the other registers 1 and 3, so both keep
     * writing the same 32-bit word, and each checks after every add that its own registers kept their
     * values. An update that is not a compare-and-set of the whole word loses the other's raises.
     */
    @Test
    void threadsRacingOnOneWordLoseNoRaise() throws Exception {
        long[][] keys = HyperLogLogWorker.racingKeys();
        HyperLogLogBuilder builder = HyperLogLog.builder()
                .precision(HyperLogLogWorker.RACE_PRECISION)
                .seed(HyperLogLogWorker.RACE_SEED);
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            for (int r = 0; r < 3_000; r++) {
                AtomicInteger arrived = new AtomicInteger();
                try (HyperLogLog shared = builder.createAnonymous(OpenMode.SHARED)) {
                    List<Future<Integer>> lost = new ArrayList<>();
                    for (int parity = 0; parity < 2; parity++) {
                        int mine = parity;
                        lost.add(pool.submit(() -> {
                            arrived.incrementAndGet();
                            while (arrived.get() < 2) {
                                Thread.onSpinWait();
                            }
                            return HyperLogLogWorker.race(shared, keys, mine);
                        }));
                    }
                    assertEquals(0, lost.get(0).get() + lost.get(1).get(), "raises lost in round " + r);
                    byte[] registers = bytes(shared);
                    for (int j = 0; j < Integer.BYTES; j++) {
                        assertEquals(HyperLogLogWorker.RACE_RANKS, registers[j], "round " + r + ", register " + j);
                    }
                }
            }
        }
    }

    @Test
    void concurrentAddsAndMergesEqualSequentialOnesByteForByte() throws Exception {
        long[] keys = new SplittableRandom(5).longs(400_000).toArray();
        long[] merged = new SplittableRandom(6).longs(50_000).toArray();
        int threads = 4;
        try (HyperLogLog concurrent = sketch(12, OpenMode.SHARED);
                HyperLogLog other = sketch(12, OpenMode.EXCLUSIVE);
                HyperLogLog sequential = sketch(12, OpenMode.EXCLUSIVE);
                ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            other.addAll(merged);
            Future<?>[] done = new Future<?>[threads];
            for (int t = 0; t < threads; t++) {
                int first = t;
                done[t] = pool.submit(() -> {
                    long[] batch = new long[keys.length / threads];
                    int batched = 0;
                    for (int i = first; i < keys.length; i += threads) {
                        if (i % 2 == 0) {
                            concurrent.add(keys[i]);
                        } else {
                            batch[batched++] = keys[i];
                        }
                        if (i == keys.length / 2 + first) {
                            concurrent.merge(other);
                        }
                    }
                    concurrent.addAll(Arrays.copyOf(batch, batched));
                });
            }
            for (Future<?> f : done) {
                f.get();
            }
            sequential.addAll(keys);
            sequential.addAll(merged);
            assertArrayEquals(bytes(sequential), bytes(concurrent));
            SummaryLineChecks.assertLineIsRight(concurrent, "after the threads");
            assertArrayEquals(SummaryLineChecks.trustedLine(sequential), SummaryLineChecks.trustedLine(concurrent));
            assertEquals(keys.length + threads * (long) merged.length, concurrent.itemsAdded());
        }
    }
}
