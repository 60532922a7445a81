package io.mapsketch.memory;

import static io.mapsketch.memory.SketchFileLayout.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import io.mapsketch.testing.ChildJvm;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Counters in slots (format version 5): each shared writer adds in a slot of its own, a read sums them
 * with the live line's words, and every promise of the live counters holds: exact sums, concurrent equal
 * to sequential, saturation and refusal at the limit, a fallback to the live words when every slot is
 * held, and a killed writer's slot kept in the sum and reused.
 */
class CounterSlotsTest {

    private static final Duration TIMEOUT = Duration.ofMinutes(2);
    private static final long TOKEN = RegionLock.currentProcessToken();

    @TempDir
    Path dir;

    private Path newFile() throws IOException {
        Path file = dir.resolve("slots-" + System.nanoTime() + ".sketch");
        return SketchFiles.create(
                file, SketchFiles.header(TestKinds.COUNT_MIN, 4096).withFormatVersion(COUNTER_SLOTS_VERSION));
    }

    private static long word(Path file, int offset) throws IOException {
        return MemorySegment.ofArray(Files.readAllBytes(file)).get(HeaderCodec.LONG, offset);
    }

    private static void putWords(Path file, int[] offsets, long[] values) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        for (int i = 0; i < offsets.length; i++) {
            MemorySegment.ofArray(bytes).set(HeaderCodec.LONG, offsets[i], values[i]);
        }
        Files.write(file, bytes);
    }

    @Test
    void eachSharedWriterAddsInASlotOfItsOwnAndReadsSumThem() throws IOException {
        Path file = newFile();
        try (SketchRegion first = SketchRegions.open(file, RegionMode.SHARED);
                SketchRegion second = SketchRegions.open(file, RegionMode.SHARED)) {
            first.addItems(3);
            first.addWeight(30);
            second.addItems(4);
            second.addWeight(40);
            assertEquals(7, first.itemsAdded());
            assertEquals(70, second.totalWeight());
            assertEquals(TOKEN, word(file, CounterSlots.slotOffset(0) + SLOT_OWNER));
            assertEquals(TOKEN, word(file, CounterSlots.slotOffset(1) + SLOT_OWNER));
            assertEquals(3, word(file, CounterSlots.slotOffset(0) + SLOT_ITEMS));
            assertEquals(40, word(file, CounterSlots.slotOffset(1) + SLOT_WEIGHT));
            assertEquals(0, word(file, ITEMS_OFFSET), "nothing on the live line's shared word");
        }
        assertEquals(0, word(file, CounterSlots.slotOffset(0) + SLOT_OWNER), "released at close");
        try (SketchRegion third = SketchRegions.open(file, RegionMode.SHARED)) {
            third.addItems(5);
            assertEquals(8, word(file, CounterSlots.slotOffset(0) + SLOT_ITEMS), "a freed slot is reused, counts kept");
            assertEquals(12, third.itemsAdded());
        }
        try (SketchRegion reader = SketchRegions.open(file, RegionMode.READ_ONLY)) {
            assertEquals(12, reader.itemsAdded());
            assertEquals(70, reader.totalWeight());
        }
    }

    @Test
    void writersBeyondTheSlotsAddToTheLiveWordsAndNothingIsLost() throws IOException {
        Path file = newFile();
        List<SketchRegion> writers = new ArrayList<>();
        try {
            for (int i = 0; i < COUNTER_SLOTS + 3; i++) {
                SketchRegion writer = SketchRegions.open(file, RegionMode.SHARED);
                writers.add(writer);
                writer.addItems(i + 1);
                writer.addWeight(2L * (i + 1));
            }
            long sum = (COUNTER_SLOTS + 3) * (COUNTER_SLOTS + 4) / 2;
            assertEquals(sum, writers.get(0).itemsAdded());
            assertEquals(2 * sum, writers.get(0).totalWeight());
            long late = (COUNTER_SLOTS + 1) + (COUNTER_SLOTS + 2) + (COUNTER_SLOTS + 3);
            assertEquals(late, word(file, ITEMS_OFFSET), "the three writers without a slot use the live word");
            assertEquals(
                    COUNTER_SLOTS,
                    MemorySegment.ofArray(Files.readAllBytes(file)).get(HeaderCodec.INT, SLOTS_IN_USE_OFFSET));
        } finally {
            for (SketchRegion writer : writers) {
                writer.close();
            }
        }
    }

    /** A slot near its cap sends its writer's additions to the live word; the sum stays exact. */
    @Test
    void aFullSlotAddsToTheLiveWord() throws IOException {
        Path file = newFile();
        SketchRegions.open(file, RegionMode.SHARED).close();
        putWords(
                file,
                new int[] {CounterSlots.slotOffset(0) + SLOT_ITEMS, CounterSlots.slotOffset(0) + SLOT_WEIGHT},
                new long[] {CounterSlots.SLOT_CAP - 10, CounterSlots.SLOT_CAP - 10});
        try (SketchRegion writer = SketchRegions.open(file, RegionMode.SHARED)) {
            writer.addItems(10);
            writer.addItems(1);
            writer.addWeight(10);
            writer.addWeight(1);
            assertEquals(CounterSlots.SLOT_CAP + 1, writer.itemsAdded());
            assertEquals(CounterSlots.SLOT_CAP + 1, writer.totalWeight());
        }
        assertEquals(CounterSlots.SLOT_CAP, word(file, CounterSlots.slotOffset(0) + SLOT_ITEMS));
        assertEquals(1, word(file, ITEMS_OFFSET));
        assertEquals(1, word(file, WEIGHT_OFFSET));
    }

    /**
     * The sole writer saturates and refuses against the sum with the slots, which it reads once: items
     * saturate when the live word plus the slots reaches the limit, and the weight is refused there.
     */
    @Test
    void theSoleWriterCountsTheSlotsAgainstTheLimit() throws IOException {
        Path file = newFile();
        SketchRegions.open(file, RegionMode.SHARED).close();
        putWords(
                file,
                new int[] {CounterSlots.slotOffset(0) + SLOT_ITEMS, CounterSlots.slotOffset(0) + SLOT_WEIGHT},
                new long[] {1000, 2000});
        try (SketchRegion writer = SketchRegions.open(file, RegionMode.EXCLUSIVE)) {
            writer.addItems(LiveCounters.LIMIT - 1010);
            writer.addWeight(LiveCounters.LIMIT - 2010);
            SoleWriterCounters counters = writer.soleWriterCounters();
            assertEquals(10, counters.weightRoom());
            assertEquals(LiveCounters.LIMIT - 10, counters.weight());
            counters.addItemsAndWeight(9, 10);
            assertEquals(LiveCounters.LIMIT - 1, writer.itemsAdded());
            assertEquals(LiveCounters.LIMIT, writer.totalWeight());
            assertEquals(0, counters.weightRoom());
            counters.addItems(1);
            assertEquals(Long.MAX_VALUE, writer.itemsAdded(), "saturated at the sum");
            counters.addItems(Long.MAX_VALUE);
            assertEquals(
                    LiveCounters.LIMIT - 1000, word(file, ITEMS_OFFSET), "the live word stops at L minus the slots");
        }
        try (SketchRegion writer = SketchRegions.open(file, RegionMode.SHARED)) {
            assertEquals(Long.MAX_VALUE, writer.itemsAdded());
            writer.addItems(1);
            assertEquals(Long.MAX_VALUE, writer.itemsAdded(), "a shared writer after it sees it saturated");
            assertThrows(IllegalArgumentException.class, () -> writer.addWeight(1), "no room left in the sum");
        }
    }

    /**
     * Threads adding small weights cross the gate below which no slot is read: the additions that take the
     * live word past it close the fast path, and the total is still the exact sum.
     */
    @Test
    void weightCrossingTheGateStaysExact() throws Exception {
        Path file = newFile();
        long start = CounterSlots.WEIGHT_GATE - (1L << 36);
        try (SketchRegion writer = SketchRegions.open(file, RegionMode.EXCLUSIVE)) {
            writer.addWeight(start);
        }
        long perThread = CounterWorker.total(200_000);
        List<Long> accepted = inThreads(file, 4, 200_000);
        assertEquals(List.of(perThread, perThread, perThread, perThread), accepted);
        try (SketchRegion reader = SketchRegions.open(file, RegionMode.READ_ONLY)) {
            assertEquals(start + 4 * perThread, reader.totalWeight());
        }
        int flags = MemorySegment.ofArray(Files.readAllBytes(file)).get(HeaderCodec.INT, SLOT_FLAGS_OFFSET);
        assertEquals(SLOT_FLAG_WEIGHT_NEAR_LIMIT, flags, "past the gate, every addition reads the slots");
    }

    /** Threads, each with a writer of its own, add their weights; returns each one's accepted sum. */
    private static List<Long> inThreads(Path file, int threads, int rounds) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<Long>> adders = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                adders.add(pool.submit(() -> {
                    try (SketchRegion mine = SketchRegions.open(file, RegionMode.SHARED)) {
                        start.await();
                        return CounterWorker.add(mine, true, rounds);
                    }
                }));
            }
            List<Long> accepted = new ArrayList<>();
            for (Future<Long> adder : adders) {
                accepted.add(adder.get());
            }
            return accepted;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Concurrent equals sequential: writers (one writer object per thread, two threads sharing one) add
     * generated lists of deltas at once, small ones into their slots and large ones on the live words; the
     * counters are the sums, as one thread adding everything would leave them.
     */
    @Test
    void concurrentAdditionsSumAsSequentialOnes() {
        qt().withFixedSeed(2405L)
                .withExamples(25)
                .forAll(
                        lists().of(lists().of(longs().between(0, 1L << 34)).ofSizeBetween(0, 400))
                                .ofSizeBetween(1, 5),
                        integers().between(0, 1))
                .checkAssert((perThread, sharing) -> {
                    try {
                        assertConcurrentEqualsSequential(perThread, sharing == 1);
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                });
    }

    private void assertConcurrentEqualsSequential(List<List<Long>> perThread, boolean firstTwoShare) throws Exception {
        Path file = newFile();
        long expected = perThread.stream()
                .flatMap(List::stream)
                .mapToLong(Long::longValue)
                .sum();
        ExecutorService pool = Executors.newFixedThreadPool(perThread.size());
        try (SketchRegion shared = SketchRegions.open(file, RegionMode.SHARED)) {
            CyclicBarrier start = new CyclicBarrier(perThread.size());
            List<Future<?>> adders = new ArrayList<>();
            for (int t = 0; t < perThread.size(); t++) {
                List<Long> deltas = perThread.get(t);
                boolean useShared = firstTwoShare && t < 2;
                adders.add(pool.submit(() -> {
                    SketchRegion mine = useShared ? shared : SketchRegions.open(file, RegionMode.SHARED);
                    try {
                        start.await();
                        for (long delta : deltas) {
                            mine.addWeight(delta);
                            mine.addItems(delta);
                        }
                    } finally {
                        if (mine != shared) {
                            mine.close();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> adder : adders) {
                adder.get();
            }
            assertEquals(expected, shared.itemsAdded());
            assertEquals(expected, shared.totalWeight());
        } finally {
            pool.shutdownNow();
        }
        try (SketchRegion reader = SketchRegions.open(file, RegionMode.READ_ONLY)) {
            assertEquals(expected, reader.itemsAdded(), "the file says the same after every writer closed");
        }
    }

    /**
     * A writer killed with SIGKILL while it adds leaves its slot counted: at least every acknowledged batch,
     * at most the batch it was adding; the next writer takes the dead writer's slot over and adds there.
     */
    @Test
    void aKilledWritersSlotKeepsCountingAndIsReused() throws Exception {
        Path file = newFile();
        for (int kill = 0; kill < 3; kill++) {
            long itemsBefore;
            long weightBefore;
            try (SketchRegion reader = SketchRegions.open(file, RegionMode.READ_ONLY)) {
                itemsBefore = reader.itemsAdded();
                weightBefore = reader.totalWeight();
            }
            long acked = 0;
            try (ChildJvm child = ChildJvm.start(dir, CounterWorker.class, "batches", file.toString())) {
                while (acked < 3 + kill) {
                    acked = ack(child.readLine());
                }
                child.kill();
                assertNotEquals(0, child.waitFor(TIMEOUT));
                for (String line : child.remainingLines()) {
                    acked = ack(line);
                }
            }
            long childToken = word(file, CounterSlots.slotOffset(0) + SLOT_OWNER);
            assertNotEquals(0, childToken, "the dead writer still owns its slot");
            assertNotEquals(TOKEN, childToken);
            try (SketchRegion next = SketchRegions.open(file, RegionMode.SHARED)) {
                long items = next.itemsAdded() - itemsBefore;
                long weight = next.totalWeight() - weightBefore;
                long least = acked * CounterWorker.BATCH;
                assertTrue(
                        items >= least && items <= least + CounterWorker.BATCH, items + " items, " + acked + " acks");
                assertTrue(weight >= least && weight <= least + CounterWorker.BATCH, weight + " weight, " + acked);
                assertEquals(
                        TOKEN, word(file, CounterSlots.slotOffset(0) + SLOT_OWNER), "the dead owner's slot, reused");
                long inSlot = word(file, CounterSlots.slotOffset(0) + SLOT_ITEMS);
                next.addItems(1);
                assertEquals(inSlot + 1, word(file, CounterSlots.slotOffset(0) + SLOT_ITEMS));
            }
        }
    }

    private static long ack(String line) {
        assertTrue(line != null && line.startsWith("ack "), String.valueOf(line));
        return Long.parseLong(line.substring("ack ".length()));
    }
}
