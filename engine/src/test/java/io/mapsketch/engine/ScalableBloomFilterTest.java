package io.mapsketch.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.mapsketch.memory.AccessMode;
import io.mapsketch.testing.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scalable filter: no false negatives and a bounded compound rate however far it grows. */
class ScalableBloomFilterTest {

    @TempDir
    Path dir;

    private static ScalableBloomFilter.Builder builder(long initial, double rate) {
        return ScalableBloomFilter.builder().expectedItems(initial).falsePositiveRate(rate).seed(5);
    }

    @Test
    void compoundRateStaysUnderTheTargetAsItemsGrowAHundredFold() throws IOException {
        try (ScalableBloomFilter filter = builder(1_000, 0.01).createAnonymous(AccessMode.EXCLUSIVE)) {
            long[] keys = new SplittableRandom(1).longs(100_000).toArray();
            filter.addAll(keys);
            assertEquals(7, filter.links(), "1,000 + 2,000 + ... + 64,000 hold 100,000");
            boolean[] found = new boolean[keys.length];
            filter.mightContainAll(keys, found);
            for (int i = 0; i < keys.length; i++) {
                assertTrue(found[i] && filter.mightContain(keys[i]));
            }
            double measured = MembershipFilterContract.measuredFalsePositiveRate(filter, 1_000_000, 2);
            assertTrue(measured < 0.01, "measured " + measured);
            assertEquals(filter.expectedFalsePositiveRate(), measured, 0.001);
            assertTrue(filter.expectedFalsePositiveRate() < 0.01);
            assertFalse(filter.isOverCapacity());
            assertEquals(100_000, filter.itemsAdded());
        }
    }

    @Test
    void atItsFirstCapacityOnlyTheFirstLinkHoldsKeysAtItsShareOfTheRate() throws IOException {
        try (ScalableBloomFilter filter = builder(100_000, 0.02).createAnonymous(AccessMode.EXCLUSIVE)) {
            filter.addAll(new SplittableRandom(3).longs(100_000).toArray());
            assertEquals(1, filter.links());
            double measured = MembershipFilterContract.measuredFalsePositiveRate(filter, 1_000_000, 4);
            assertEquals(0.01, measured, 0.001, "link 0 gets P (1 - r) = 1%");
        }
    }

    @Test
    void noFalseNegativesEverWhileGrowing() {
        qt().withFixedSeed(19L).withExamples(60)
                .forAll(integers().between(1, 20_000), longs().all(), integers().between(1, 50))
                .checkAssert((count, seed, initial) -> {
                    try (ScalableBloomFilter filter = builder(initial, 0.05).createAnonymous(AccessMode.SHARED)) {
                        long[] keys = new SplittableRandom(seed).longs(count).toArray();
                        for (int i = 0; i < count; i++) {
                            if (i % 3 == 0) {
                                filter.add(keys[i]);
                            } else {
                                filter.addAll(new long[] {keys[i]});
                            }
                        }
                        for (long key : keys) {
                            assertTrue(filter.mightContain(key));
                        }
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    @Test
    void concurrentWritersLoseNothingAcrossLinkBoundaries() throws Exception {
        long[] keys = new SplittableRandom(7).longs(80_000).toArray();
        int threads = 4;
        try (ScalableBloomFilter filter = builder(500, 0.01).createAnonymous(AccessMode.SHARED);
             ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            Future<?>[] done = new Future<?>[threads];
            for (int t = 0; t < threads; t++) {
                int first = t;
                done[t] = pool.submit(() -> {
                    for (int i = first; i < keys.length; i += threads) {
                        filter.add(keys[i]);
                    }
                });
            }
            for (Future<?> f : done) {
                f.get();
            }
            for (long key : keys) {
                assertTrue(filter.mightContain(key));
            }
            assertEquals(keys.length, filter.itemsAdded());
            assertTrue(filter.expectedFalsePositiveRate() < 0.01);
        }
    }

    @Test
    void reopensFromItsDirectoryAndAnotherProcessSeesNewLinks() throws Exception {
        Path directory = dir.resolve("growing");
        try (ScalableBloomFilter filter = builder(1_000, 0.01).create(directory, AccessMode.SHARED)) {
            filter.addAll(new SplittableRandom(11).longs(500).toArray());
            assertEquals(1, filter.links());
            try (ChildJvm child = ChildJvm.start(dir, FilterWorker.class, "scalable", directory.toString(), "12",
                    "20000")) {
                assertEquals("ready", child.readLine());
                BlockedBloomCrossProcessTest.go(child);
                assertEquals("done", child.readLine());
                assertEquals(0, child.waitFor(Duration.ofMinutes(1)));
            }
            for (long key : FilterWorker.keys(12, 20_000)) {
                assertTrue(filter.mightContain(key), "a key the other process added to a link it created");
            }
            assertTrue(filter.links() >= 5, "links: " + filter.links());
            assertEquals(20_500, filter.itemsAdded());
        }
        assertTrue(Files.exists(directory.resolve("link-0004.sketch")));
        try (ScalableBloomFilter reopened = ScalableBloomFilter.open(directory, AccessMode.READ_ONLY)) {
            for (long key : new SplittableRandom(11).longs(500).toArray()) {
                assertTrue(reopened.mightContain(key));
            }
            assertThrows(IllegalStateException.class, () -> reopened.add(1));
        }
    }

    @Test
    void mergeAnswersForTheUnion() throws IOException {
        long[] left = new SplittableRandom(21).longs(3_000).toArray();
        long[] right = new SplittableRandom(22).longs(9_000).toArray();
        try (ScalableBloomFilter a = builder(1_000, 0.01).createAnonymous(AccessMode.EXCLUSIVE);
             ScalableBloomFilter b = builder(1_000, 0.01).createAnonymous(AccessMode.EXCLUSIVE);
             ScalableBloomFilter other = builder(2_000, 0.01).createAnonymous(AccessMode.EXCLUSIVE)) {
            a.addAll(left);
            b.addAll(right);
            a.merge(b);
            assertEquals(b.links(), a.links());
            for (long key : left) {
                assertTrue(a.mightContain(key));
            }
            for (long key : right) {
                assertTrue(a.mightContain(key));
            }
            assertEquals(12_000, a.itemsAdded());
            IncompatibleSketchException e = assertThrows(IncompatibleSketchException.class, () -> a.merge(other));
            assertTrue(e.getMessage().startsWith("sketches differ in initial capacity"), e.getMessage());
        }
    }

    @Test
    void builderNamesBadParameters() {
        assertEquals("tighteningRatio = 1.0, must be in (0, 1)", assertThrows(IllegalArgumentException.class,
                () -> ScalableBloomFilter.builder().tighteningRatio(1)).getMessage());
        assertEquals("growthFactor = 0.5, must be in [1, 1000000)", assertThrows(IllegalArgumentException.class,
                () -> ScalableBloomFilter.builder().growthFactor(0.5)).getMessage());
    }
}
