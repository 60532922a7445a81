package io.mapsketch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.CountingBloomFilter;
import io.mapsketch.membership.MembershipFilter;
import io.mapsketch.membership.ScalableBloomFilter;
import io.mapsketch.memory.LiveCounters;
import io.mapsketch.memory.RegionMode;
import io.mapsketch.memory.SketchRegion;
import io.mapsketch.memory.SketchRegions;
import io.mapsketch.similarity.MinHash;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The items and weight counters of every mergeable kind under merges that double them: 64 merges of a
 * sketch into itself saturate the items counter at {@code Long.MAX_VALUE} (where it wrapped negative and
 * the file was refused as corrupt from then on), a merge near 2^63 saturates it (where it threw an
 * unexplained {@link IllegalArgumentException}), Count-Min's N refuses what would pass the limit with a
 * message that says so, and removals never take a net count below zero.
 */
class CountersNeverWrapTest {

    @TempDir
    Path dir;

    /** A kind that merges: how to create one holding key 42, merge two, and open its file again. */
    private record Mergeable(String name, Creator creator, Merger merger, Opener opener) {}

    @FunctionalInterface
    private interface Creator {
        Sketch create(Path file, OpenMode mode) throws IOException;
    }

    @FunctionalInterface
    private interface Merger {
        void merge(Sketch into, Sketch from);
    }

    @FunctionalInterface
    private interface Opener {
        Sketch open(Path file, OpenMode mode) throws IOException;
    }

    private static final List<Mergeable> KINDS = List.of(
            new Mergeable(
                    "classic",
                    (file, mode) -> filled(BloomFilter.builder()
                            .expectedItems(100)
                            .falsePositiveRate(0.01)
                            .create(file, mode)),
                    (a, b) -> ((BloomFilter) a).merge((BloomFilter) b),
                    BloomFilter::open),
            new Mergeable(
                    "blocked",
                    (file, mode) -> filled(BlockedBloomFilter.builder()
                            .expectedItems(100)
                            .falsePositiveRate(0.01)
                            .create(file, mode)),
                    (a, b) -> ((BlockedBloomFilter) a).merge((BlockedBloomFilter) b),
                    BlockedBloomFilter::open),
            new Mergeable(
                    "counting",
                    (file, mode) -> filled(CountingBloomFilter.builder()
                            .expectedItems(100)
                            .falsePositiveRate(0.01)
                            .create(file, mode)),
                    (a, b) -> ((CountingBloomFilter) a).merge((CountingBloomFilter) b),
                    CountingBloomFilter::open),
            new Mergeable(
                    "scalable",
                    (file, mode) -> filled(ScalableBloomFilter.builder()
                            .expectedItems(100)
                            .falsePositiveRate(0.01)
                            .create(file, mode)),
                    (a, b) -> ((ScalableBloomFilter) a).merge((ScalableBloomFilter) b),
                    ScalableBloomFilter::open),
            new Mergeable(
                    "hll",
                    (file, mode) -> {
                        HyperLogLog hll = HyperLogLog.builder().precision(8).create(file, mode);
                        hll.add(42L);
                        return hll;
                    },
                    (a, b) -> ((HyperLogLog) a).merge((HyperLogLog) b),
                    HyperLogLog::open),
            new Mergeable(
                    "minhash",
                    (file, mode) -> {
                        MinHash minHash = MinHash.builder().signatureLength(16).create(file, mode);
                        minHash.add(0, 42L);
                        return minHash;
                    },
                    (a, b) -> ((MinHash) a).merge((MinHash) b),
                    MinHash::open));

    private static MembershipFilter filled(MembershipFilter filter) {
        filter.add(42L);
        return filter;
    }

    @Test
    void sixtyFourMergesIntoItselfSaturateTheItemsCounter() throws IOException {
        for (Mergeable kind : KINDS) {
            for (OpenMode mode : new OpenMode[] {OpenMode.EXCLUSIVE, OpenMode.SHARED}) {
                Path file = dir.resolve(kind.name() + "-" + mode);
                try (Sketch sketch = kind.creator().create(file, mode)) {
                    for (int merge = 1; merge <= 64; merge++) {
                        kind.merger().merge(sketch, sketch);
                        long expected = merge < 63 ? 1L << merge : Long.MAX_VALUE;
                        assertEquals(expected, sketch.itemsAdded(), kind.name() + " " + mode + " after " + merge);
                    }
                }
                try (Sketch reopened = kind.opener().open(file, OpenMode.READ_ONLY)) {
                    assertEquals(Long.MAX_VALUE, reopened.itemsAdded(), kind.name() + " " + mode + " opens, saturated");
                }
            }
        }
    }

    /** A source whose count is near the top once made the destination's wrap, or threw "count = -2^63". */
    @Test
    void mergesNearTheTopSaturate() throws IOException {
        for (Mergeable kind : KINDS) {
            for (OpenMode mode : new OpenMode[] {OpenMode.EXCLUSIVE, OpenMode.SHARED}) {
                Path full = dir.resolve(kind.name() + "-full-" + mode);
                kind.creator().create(full, OpenMode.EXCLUSIVE).close();
                raiseItems(kind, full, LiveCounters.LIMIT - 3);
                Path into = dir.resolve(kind.name() + "-into-" + mode);
                try (Sketch destination = kind.creator().create(into, mode);
                        Sketch source = kind.opener().open(full, OpenMode.READ_ONLY)) {
                    assertEquals(LiveCounters.LIMIT - 2, source.itemsAdded());
                    kind.merger().merge(destination, source);
                    assertEquals(LiveCounters.LIMIT - 1, destination.itemsAdded(), kind.name() + " " + mode);
                    kind.merger().merge(destination, source);
                    assertEquals(Long.MAX_VALUE, destination.itemsAdded(), kind.name() + " " + mode);
                    kind.merger().merge(destination, destination);
                    assertEquals(Long.MAX_VALUE, destination.itemsAdded(), kind.name() + " " + mode);
                }
                try (Sketch reopened = kind.opener().open(into, OpenMode.SHARED)) {
                    assertEquals(Long.MAX_VALUE, reopened.itemsAdded());
                }
            }
        }
    }

    /** Adds {@code items} to the counter of the file that holds it (a scalable filter's manifest). */
    private static void raiseItems(Mergeable kind, Path file, long items) throws IOException {
        Path counted = kind.name().equals("scalable") ? file.resolve(ScalableBloomFilter.MANIFEST) : file;
        try (SketchRegion region = SketchRegions.open(counted, RegionMode.EXCLUSIVE)) {
            region.addItems(items);
        }
    }

    @Test
    void countMinsTotalWeightRefusesWhatWouldPassTheLimit() throws IOException {
        for (OpenMode mode : new OpenMode[] {OpenMode.EXCLUSIVE, OpenMode.SHARED}) {
            Path file = dir.resolve("weight-" + mode + ".cms");
            long weight;
            try (CountMinSketch sketch = CountMinSketch.builder()
                    .epsilon(0.1)
                    .delta(0.1)
                    .counterBits(64)
                    .create(file, mode)) {
                sketch.add(42L, 3);
                int merges = 0;
                while (sketch.totalWeight() <= LiveCounters.LIMIT / 2) {
                    sketch.merge(sketch);
                    merges++;
                }
                assertEquals(61, merges, "3 x 2^61 is the first N above half the limit");
                weight = sketch.totalWeight();
                String message = assertThrows(IllegalArgumentException.class, () -> sketch.merge(sketch))
                        .getMessage();
                assertEquals(
                        "the other sketch's total weight = " + weight + " would take the total weight N = " + weight
                                + " past " + LiveCounters.LIMIT + " (2^63 - 2^55 - 1); nothing was added",
                        message);
                assertEquals(weight, sketch.totalWeight(), "a refused merge changes nothing");
                assertEquals(weight, sketch.estimate(42L));
                assertThrows(IllegalArgumentException.class, () -> sketch.add(7L, LiveCounters.LIMIT - weight + 1));
                assertEquals(
                        LiveCounters.LIMIT - weight, sketch.add(7L, LiveCounters.LIMIT - weight), "up to the limit");
                assertThrows(IllegalArgumentException.class, () -> sketch.add(7L));
            }
            try (CountMinSketch reopened = CountMinSketch.open(file, OpenMode.READ_ONLY)) {
                assertEquals(LiveCounters.LIMIT, reopened.totalWeight());
                assertEquals(weight, reopened.estimate(42L));
            }
        }
    }

    /** A counting filter's counters stick at 15, so removes can outnumber adds; the net count stops at zero. */
    @Test
    void removalsNeverTakeTheNetCountBelowZero() throws IOException {
        for (OpenMode mode : new OpenMode[] {OpenMode.EXCLUSIVE, OpenMode.SHARED}) {
            Path file = dir.resolve("counting-" + mode + ".cbf");
            try (CountingBloomFilter filter = CountingBloomFilter.builder()
                    .expectedItems(100)
                    .falsePositiveRate(0.01)
                    .create(file, mode)) {
                for (int i = 0; i < 16; i++) {
                    filter.add(42L);
                }
                for (int i = 0; i < 17; i++) {
                    filter.remove(42L);
                }
                assertEquals(0, filter.itemsAdded(), mode.name());
            }
            try (CountingBloomFilter reopened = CountingBloomFilter.open(file, OpenMode.EXCLUSIVE)) {
                assertEquals(0, reopened.itemsAdded(), "the file opens: its count was never negative");
                assertTrue(reopened.mightContain(42L), "saturated counters keep the key");
            }
        }
    }
}
