package io.mapsketch.similarity;

import static io.mapsketch.enginetesting.KeyGenerators.keys;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.Payloads;
import io.mapsketch.internal.KeyHasher;
import java.io.IOException;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * MinHash accuracy against sets of known overlap, and its algebra bit for bit: merge is the
 * signature of the union in every form, and concurrent shared writers leave what sequential ones do.
 */
class MinHashPropertiesTest {

    private static MinHash sketch(int rows, int slots, OpenMode mode) {
        return MinHashTest.sketch(rows, slots, mode);
    }

    private static MinHash sketch(int rows, int slots, OpenMode mode, MinHashDerivation derivation) {
        return MinHashTest.sketch(rows, slots, mode, derivation);
    }

    /**
     * SuperMinHash rows are exactly the definition's (every item through all k steps): the bound on
     * an item's steps loses nothing, for sets of 0 to 9,000 keys (up to three updates of 4,096 hashes)
     * and k of 1 to 300, added singly and in batches, {@code EXCLUSIVE} and {@code SHARED}, into rows
     * that already hold keys.
     */
    @Test
    void superMinHashRowsAreTheMinimaOverTheFullPermutations() {
        KeyHasher hasher = KeyHasher.xxh3(7);
        qt().withFixedSeed(62L)
                .withExamples(80)
                .forAll(keys(0, 9_000), keys(0, 40), integers().between(1, 300))
                .checkAssert((set, more, k) -> {
                    long[] all = LongStream.concat(Arrays.stream(set), Arrays.stream(more))
                            .toArray();
                    long[] expected = SuperMinHashReference.signature(
                            Arrays.stream(all).map(hasher::hash).toArray(), k);
                    for (OpenMode mode : new OpenMode[] {OpenMode.EXCLUSIVE, OpenMode.SHARED}) {
                        try (MinHash minHash = sketch(2, k, mode)) {
                            minHash.addAll(0, set);
                            for (long key : set) {
                                minHash.add(1, key);
                            }
                            for (long key : more) {
                                minHash.add(0, key);
                            }
                            minHash.addAll(1, more);
                            assertArrayEquals(expected, minHash.signature(0).toArray(), mode + " batch, then single");
                            assertArrayEquals(expected, minHash.signature(1).toArray(), mode + " single, then batch");
                        } catch (IOException e) {
                            throw new AssertionError(e);
                        }
                    }
                });
    }

    /**
     * Pairs of sets with Jaccard similarity 0.1 to 0.9 exactly (2,000 items in the union, the rest
     * split evenly between the two sets): every estimate at k = 1,024 lies within three of its
     * standard deviations {@code sqrt(J (1 - J) / k)}, and the mean error over the nine is within
     * three standard errors of that mean.
     */
    @ParameterizedTest
    @EnumSource(MinHashDerivation.class)
    void jaccardEstimatesAreWithinThreeStandardErrorsOfTheTruth(MinHashDerivation derivation) throws IOException {
        int k = 1_024;
        int union = 2_000;
        double sumOfErrors = 0;
        double sumOfVariances = 0;
        try (MinHash minHash = sketch(18, k, OpenMode.EXCLUSIVE, derivation)) {
            for (int tenth = 1; tenth <= 9; tenth++) {
                double truth = tenth / 10.0;
                long[] items = new SplittableRandom(100 + tenth)
                        .longs()
                        .distinct()
                        .limit(union)
                        .toArray();
                int common = (int) Math.round(truth * union);
                int only = (union - common) / 2;
                int a = 2 * (tenth - 1);
                minHash.addAll(a, Arrays.copyOfRange(items, 0, common + only));
                minHash.addAll(
                        a + 1,
                        LongStream.concat(Arrays.stream(items, 0, common), Arrays.stream(items, common + only, union))
                                .toArray());
                double estimate = minHash.jaccard(a, a + 1);
                double sd = Math.sqrt(truth * (1 - truth) / k);
                assertEquals(truth, estimate, 3 * sd, "J = " + truth);
                assertTrue(sd <= minHash.standardError() / 2, "1/sqrt(k) is conservative");
                sumOfErrors += estimate - truth;
                sumOfVariances += sd * sd;
            }
        }
        assertEquals(0, sumOfErrors / 9, 3 * Math.sqrt(sumOfVariances) / 9, "mean error over J = 0.1 .. 0.9");
    }

    /**
     * A batch of 1,000 keys that are 3 distinct ones: the steps sized for 1,000 items leave slots
     * empty, and the second pass over the batch fills them as the definition does. At k = 64 and 128
     * the batch, one update, takes the step-0 pass first (1,000 distinct keys would settle 128 slots
     * at step 0 but for 0.05 of one), which leaves 61 or 125 empty, so the steps from 1 must follow it.
     */
    @Test
    void superMinHashBatchesOfFewDistinctKeysStillEqualTheDefinition() throws IOException {
        KeyHasher hasher = KeyHasher.xxh3(7);
        long[] distinct = {3, 1_000_003, -8};
        long[] batch =
                LongStream.range(0, 1_000).map(i -> distinct[(int) (i % 3)]).toArray();
        for (int k : new int[] {1, 7, 64, 128, 1_000}) {
            for (OpenMode mode : new OpenMode[] {OpenMode.EXCLUSIVE, OpenMode.SHARED}) {
                try (MinHash minHash = sketch(1, k, mode)) {
                    minHash.addAll(0, batch);
                    assertArrayEquals(
                            SuperMinHashReference.signature(
                                    Arrays.stream(distinct).map(hasher::hash).toArray(), k),
                            minHash.signature(0).toArray(),
                            mode + ", k = " + k);
                }
            }
        }
    }

    /** Set b is the second half of set a and more keys: the two overlap. */
    @ParameterizedTest
    @EnumSource(MinHashDerivation.class)
    void mergeIsTheSignatureOfTheUnionInEveryForm(MinHashDerivation derivation) {
        qt().withFixedSeed(61L)
                .withExamples(60)
                .forAll(keys(0, 3_000), keys(0, 3_000), integers().between(1, 300))
                .checkAssert((a, more, k) -> {
                    long[] b = LongStream.concat(Arrays.stream(a, a.length / 2, a.length), Arrays.stream(more))
                            .toArray();
                    try (MinHash exclusive = sketch(3, k, OpenMode.EXCLUSIVE, derivation);
                            MinHash shared = sketch(3, k, OpenMode.SHARED, derivation);
                            MinHash other = sketch(3, k, OpenMode.EXCLUSIVE, derivation);
                            MinHash truth = sketch(1, k, OpenMode.EXCLUSIVE, derivation)) {
                        truth.addAll(0, a);
                        truth.addAll(0, b);
                        MinHashSignature union = truth.signature(0);
                        for (MinHash target : new MinHash[] {exclusive, shared}) {
                            target.addAll(0, a);
                            target.addAll(1, b);
                            target.addAll(2, a);
                        }
                        other.addAll(0, b);
                        other.addAll(2, b);
                        assertEquals(union, exclusive.signature(0).union(exclusive.signature(1)), "signature union");
                        for (MinHash target : new MinHash[] {exclusive, shared}) {
                            String mode = target.mode().toString();
                            target.mergeRow(1, 0);
                            assertEquals(union, target.signature(1), mode + " row into row");
                            target.mergeRow(0, other, 2);
                            assertEquals(union, target.signature(0), mode + " row of another sketch");
                            target.mergeRow(0, other.signature(0));
                            assertEquals(union, target.signature(0), mode + " merging again changes nothing");
                            target.merge(other);
                            assertEquals(union, target.signature(2), mode + " file into file");
                            assertTrue(target.isEmpty(2) == union.isEmpty());
                        }
                        assertArrayEquals(
                                Payloads.bytes(exclusive),
                                Payloads.bytes(shared),
                                "SIMD and compare-and-set paths agree byte for byte, padding included");
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    /**
     * Four threads add to and merge into the same rows of one {@code SHARED} sketch at once, single
     * keys and batches interleaved; the table equals, byte for byte, the one an exclusive writer
     * builds from the same calls in sequence.
     */
    @ParameterizedTest
    @EnumSource(MinHashDerivation.class)
    void concurrentSharedWritersEqualSequentialOnesByteForByte(MinHashDerivation derivation) throws Exception {
        int threads = 4;
        long[] keys = new SplittableRandom(5).longs(120_000).toArray();
        try (MinHash concurrent = sketch(4, 200, OpenMode.SHARED, derivation);
                MinHash sequential = sketch(4, 200, OpenMode.EXCLUSIVE, derivation);
                MinHash other = sketch(4, 200, OpenMode.EXCLUSIVE, derivation);
                ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int row = 0; row < 4; row++) {
                other.addAll(row, new SplittableRandom(6 + row).longs(5_000).toArray());
            }
            Future<?>[] done = new Future<?>[threads];
            for (int t = 0; t < threads; t++) {
                int first = t;
                done[t] = pool.submit(() -> writeShare(concurrent, other, keys, first, threads));
            }
            for (Future<?> future : done) {
                future.get();
            }
            for (int t = 0; t < threads; t++) {
                writeShare(sequential, other, keys, t, threads);
            }
            assertArrayEquals(Payloads.bytes(sequential), Payloads.bytes(concurrent));
            assertEquals(sequential.itemsAdded(), concurrent.itemsAdded());
        }
    }

    /** Every {@code threads}-th key from {@code first}: odd ones singly, the rest in batches of 97, rows by key. */
    private static void writeShare(MinHash target, MinHash other, long[] keys, int first, int threads) {
        long[][] batches = new long[4][97];
        int[] filled = new int[4];
        for (int i = first; i < keys.length; i += threads) {
            int row = (int) Math.floorMod(keys[i], 4L);
            if (i % 2 == 1) {
                target.add(row, keys[i]);
                continue;
            }
            batches[row][filled[row]++] = keys[i];
            if (filled[row] == batches[row].length) {
                target.addAll(row, batches[row]);
                filled[row] = 0;
            }
            if (i % 10_001 == first) {
                target.mergeRow(row, other, (row + 1) % 4);
            }
        }
        for (int row = 0; row < 4; row++) {
            target.addAll(row, Arrays.copyOf(batches[row], filled[row]));
        }
    }
}
