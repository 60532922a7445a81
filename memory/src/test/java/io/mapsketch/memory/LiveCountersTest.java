package io.mapsketch.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.testing.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live line's counters never wrap: items added saturate at {@link LiveCounters#LIMIT} (read as
 * {@code Long.MAX_VALUE}) and never go below zero, the total weight refuses what would pass the limit;
 * for the exclusive writer's plain stores, and for shared writers in threads and in processes adding
 * near the top at once, exactly.
 */
class LiveCountersTest {

    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    private static final int ROUNDS = 1_000_000;

    @TempDir
    Path dir;

    /** The live words in the live line alone (version 4), and summed with the counter slots (version 5). */
    private static final int[] VERSIONS = {
        SketchFileLayout.PAYLOAD_CHECKSUM_VERSION, SketchFileLayout.COUNTER_SLOTS_VERSION
    };

    private Path newFile(long items, long weight) throws Exception {
        return newFile(SketchFileLayout.PAYLOAD_CHECKSUM_VERSION, items, weight);
    }

    private Path newFile(int version, long items, long weight) throws Exception {
        Path file = dir.resolve("counted-" + System.nanoTime() + ".sketch");
        SketchFiles.create(file, SketchFiles.header(TestKinds.COUNT_MIN, 4096).withFormatVersion(version));
        try (SketchRegion writer = SketchRegions.open(file, RegionMode.EXCLUSIVE)) {
            writer.addItems(items);
            writer.addWeight(weight);
        }
        return file;
    }

    /** A weighted count or total: the product, or Long.MAX_VALUE past it (a signed or an unsigned overflow). */
    @Test
    void aProductPastLongMaxValueIsLongMaxValue() {
        assertEquals(0, LiveCounters.times(0, Long.MAX_VALUE));
        assertEquals(LiveCounters.LIMIT, LiveCounters.times(LiveCounters.LIMIT, 1));
        assertEquals(6L << 40, LiveCounters.times(3L << 40, 2));
        assertEquals(Long.MAX_VALUE, LiveCounters.times(1L << 62, 2), "past 2^63 - 1, the sign bit");
        assertEquals(Long.MAX_VALUE, LiveCounters.times(1L << 62, 5), "past 2^64");
        assertEquals(Long.MAX_VALUE, LiveCounters.times(Long.MAX_VALUE, Long.MAX_VALUE));
    }

    @Test
    void itemsSaturateAndStaySaturatedInEveryMode() throws Exception {
        for (int version : VERSIONS) {
            for (RegionMode mode : new RegionMode[] {RegionMode.EXCLUSIVE, RegionMode.SHARED}) {
                Path file = newFile(version, LiveCounters.LIMIT - 5, 0);
                try (SketchRegion region = SketchRegions.open(file, mode)) {
                    region.addItems(3);
                    assertEquals(LiveCounters.LIMIT - 2, region.itemsAdded(), mode.name() + " " + version);
                    region.addItems(2);
                    assertEquals(Long.MAX_VALUE, region.itemsAdded(), "at the limit the counter is saturated");
                    region.addItems(Long.MAX_VALUE);
                    assertEquals(Long.MAX_VALUE, region.itemsAdded(), "a delta of 2^63 - 1 does not wrap it");
                    if (version < SketchFileLayout.COUNTER_SLOTS_VERSION) {
                        region.removeItems(1_000);
                        assertEquals(Long.MAX_VALUE, region.itemsAdded(), "a removal leaves it saturated");
                    } else {
                        assertThrows(IllegalStateException.class, () -> region.removeItems(1), "slots only add");
                    }
                    region.addItems(1);
                    assertEquals(Long.MAX_VALUE, region.itemsAdded());
                }
                try (SketchRegion reopened = SketchRegions.open(file, RegionMode.READ_ONLY)) {
                    assertEquals(Long.MAX_VALUE, reopened.itemsAdded(), "a saturated file opens and says so");
                }
            }
        }
    }

    @Test
    void removalsNeverTakeTheItemsBelowZero() throws Exception {
        for (RegionMode mode : new RegionMode[] {RegionMode.EXCLUSIVE, RegionMode.SHARED}) {
            Path file = newFile(3, 0);
            try (SketchRegion region = SketchRegions.open(file, mode)) {
                region.removeItems(2);
                assertEquals(1, region.itemsAdded(), mode.name());
                region.removeItems(5);
                assertEquals(0, region.itemsAdded());
                region.removeItems(Long.MAX_VALUE);
                assertEquals(0, region.itemsAdded());
                region.addItems(4);
                assertEquals(4, region.itemsAdded());
            }
            try (SketchRegion reopened = SketchRegions.open(file, RegionMode.READ_ONLY)) {
                assertEquals(4, reopened.itemsAdded());
            }
        }
    }

    @Test
    void theSoleWritersPlainCountersSaturateFloorAndNeverWrap() throws Exception {
        Path file = newFile(LiveCounters.LIMIT - 1, LiveCounters.LIMIT - 10);
        try (SketchRegion writer = SketchRegions.open(file, RegionMode.EXCLUSIVE);
                SketchRegion reader = SketchRegions.open(file, RegionMode.READ_ONLY)) {
            SoleWriterCounters counters = writer.soleWriterCounters();
            counters.addItemsAndWeight(5, 10);
            assertEquals(Long.MAX_VALUE, reader.itemsAdded());
            assertEquals(LiveCounters.LIMIT, reader.totalWeight());
            counters.addItems(-7);
            assertEquals(Long.MAX_VALUE, reader.itemsAdded(), "saturated stays saturated");
            assertThrows(ArithmeticException.class, () -> counters.addItemsAndWeight(1, Long.MAX_VALUE));
            assertEquals(LiveCounters.LIMIT, reader.totalWeight(), "a refused weight stores nothing");
        }
        Path small = newFile(2, 0);
        try (SketchRegion writer = SketchRegions.open(small, RegionMode.EXCLUSIVE)) {
            SoleWriterCounters counters = writer.soleWriterCounters();
            counters.addItems(-5);
            assertEquals(0, writer.itemsAdded(), "never below zero");
            counters.addItems(Long.MIN_VALUE);
            assertEquals(0, writer.itemsAdded());
        }
    }

    @Test
    void weightPastTheLimitIsRefusedAndChangesNothing() throws Exception {
        for (int version : VERSIONS) {
            for (RegionMode mode : new RegionMode[] {RegionMode.EXCLUSIVE, RegionMode.SHARED}) {
                Path file = newFile(version, 0, LiveCounters.LIMIT - 10);
                try (SketchRegion region = SketchRegions.open(file, mode)) {
                    region.addWeight(8);
                    assertEquals(LiveCounters.LIMIT - 2, region.totalWeight(), mode.name() + " " + version);
                    String message = assertThrows(IllegalArgumentException.class, () -> region.addWeight(3))
                            .getMessage();
                    assertEquals(
                            "delta = 3 would take the total weight " + (LiveCounters.LIMIT - 2) + " past "
                                    + LiveCounters.LIMIT + " (2^63 - 2^55 - 1); nothing was added",
                            message);
                    assertThrows(IllegalArgumentException.class, () -> region.addWeight(Long.MAX_VALUE));
                    region.addWeight(2);
                    assertEquals(LiveCounters.LIMIT, region.totalWeight(), "up to the limit itself");
                }
            }
        }
    }

    /**
     * Four threads add near the top, by getAndAdd and by compare-and-set at once: exact below the limit. Two
     * share one writer, two have one each (in a file with counter slots, a slot each).
     */
    @Test
    void sharedThreadsAddingNearTheTopAreExact() throws Exception {
        for (int version : VERSIONS) {
            int threads = 4;
            long perThread = CounterWorker.total(ROUNDS);
            long total = threads * perThread;
            Path exact = newFile(version, LiveCounters.LIMIT - total - 1, LiveCounters.LIMIT - total);
            assertEquals(List.of(perThread, perThread, perThread, perThread), inThreads(exact, threads, true));
            inThreads(exact, threads, false);
            try (SketchRegion region = SketchRegions.open(exact, RegionMode.READ_ONLY)) {
                assertEquals(LiveCounters.LIMIT - 1, region.itemsAdded(), "every add counted, none lost");
                assertEquals(LiveCounters.LIMIT, region.totalWeight());
            }
            Path over = newFile(version, LiveCounters.LIMIT - total / 2, LiveCounters.LIMIT - total / 2);
            long accepted = inThreads(over, threads, true).stream()
                    .mapToLong(Long::longValue)
                    .sum();
            inThreads(over, threads, false);
            try (SketchRegion region = SketchRegions.open(over, RegionMode.READ_ONLY)) {
                assertEquals(Long.MAX_VALUE, region.itemsAdded(), "saturated, not wrapped");
                assertEquals(LiveCounters.LIMIT - total / 2 + accepted, region.totalWeight(), "N is the accepted sum");
                assertTrue(accepted < total, "some were refused");
                assertTrue(
                        region.totalWeight() > LiveCounters.LIMIT - (1L << 34),
                        "only near the top, where no delta fit");
            }
        }
    }

    /**
     * Each thread's accepted sum, after all ran {@link CounterWorker#add}: even threads on one SHARED region,
     * odd ones on a SHARED region of their own.
     */
    private static List<Long> inThreads(Path file, int threads, boolean weight) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
        AtomicBoolean running = new AtomicBoolean(true);
        try (SketchRegion region = SketchRegions.open(file, RegionMode.SHARED)) {
            CyclicBarrier start = new CyclicBarrier(threads);
            Future<?> watcher = pool.submit(() -> {
                while (running.get()) {
                    assertTrue(region.totalWeight() >= 0 && region.itemsAdded() >= 0, "a counter wrapped");
                }
                return null;
            });
            List<Future<Long>> adders = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                boolean own = t % 2 == 1;
                Callable<Long> adder = () -> {
                    if (!own) {
                        start.await();
                        return CounterWorker.add(region, weight, ROUNDS);
                    }
                    try (SketchRegion mine = SketchRegions.open(file, RegionMode.SHARED)) {
                        start.await();
                        return CounterWorker.add(mine, weight, ROUNDS);
                    }
                };
                adders.add(pool.submit(adder));
            }
            List<Long> accepted = new ArrayList<>();
            for (Future<Long> adder : adders) {
                accepted.add(adder.get());
            }
            running.set(false);
            watcher.get();
            return accepted;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Two processes add near the top at once: the same promises across processes. */
    @Test
    void sharedProcessesAddingNearTheTopAreExact() throws Exception {
        for (int version : VERSIONS) {
            long perChild = CounterWorker.total(ROUNDS);
            Path file = newFile(version, LiveCounters.LIMIT - 2 * perChild - 1, LiveCounters.LIMIT - perChild);
            List<Long> items = inChildren(file, "items");
            List<Long> weights = inChildren(file, "weight");
            try (SketchRegion region = SketchRegions.open(file, RegionMode.READ_ONLY)) {
                assertEquals(List.of(perChild, perChild), items);
                assertEquals(LiveCounters.LIMIT - 1, region.itemsAdded(), "every add of both processes counted");
                long accepted = weights.get(0) + weights.get(1);
                assertTrue(
                        accepted <= perChild && accepted > perChild - (1L << 34),
                        "refused only near the top: " + accepted);
                assertEquals(LiveCounters.LIMIT - perChild + accepted, region.totalWeight(), "N is the accepted sum");
            }
        }
    }

    private List<Long> inChildren(Path file, String counter) throws Exception {
        List<ChildJvm> children = new ArrayList<>();
        try (SketchRegion parent = SketchRegions.open(file, RegionMode.SHARED)) {
            for (int child = 0; child < 2; child++) {
                children.add(
                        ChildJvm.start(dir, CounterWorker.class, counter, file.toString(), Integer.toString(ROUNDS)));
            }
            for (ChildJvm child : children) {
                assertEquals("ready", child.readLine());
            }
            parent.payload().putLongRelease(CounterWorker.GO, 1);
            List<Long> accepted = new ArrayList<>();
            for (ChildJvm child : children) {
                String line = child.readLine();
                assertTrue(line.startsWith("accepted "), line);
                accepted.add(Long.parseLong(line.substring("accepted ".length())));
                assertEquals(0, child.waitFor(TIMEOUT));
            }
            parent.payload().putLongRelease(CounterWorker.GO, 0);
            return accepted;
        } finally {
            for (ChildJvm child : children) {
                child.close();
            }
        }
    }
}
