package io.mapsketch.frequency;

import static io.mapsketch.enginetesting.TopKChecks.assertSound;
import static io.mapsketch.enginetesting.TopKChecks.exactCounts;
import static io.mapsketch.enginetesting.TopKChecks.exactTop;
import static io.mapsketch.enginetesting.TopKChecks.keys;
import static io.mapsketch.enginetesting.Zipf.zipfStream;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.IncompatibleSketchFileException;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import io.mapsketch.memory.SketchFileLayout;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The seed's Top-K demo, key forms, ranking and ties, files, merge, threads and the errors of Top-K. */
class TopKTest {

    @TempDir
    Path dir;

    static TopK.Builder builder(int k) {
        return TopK.builder().k(k).epsilon(0.001).delta(0.01).seed(7);
    }

    /** The seed's demo: 50,000 Zipf events over 10,000 keys, 2,719 x 5 counters; top-5 by sketch = exact top-5. */
    @Test
    void zipfTopFiveIsTheExactTopFive() throws IOException {
        long[] stream = zipfStream(2026, 50_000);
        Map<Long, Long> exact = exactCounts(stream);
        try (TopK sketch = builder(100).createAnonymous(OpenMode.EXCLUSIVE)) {
            for (long key : stream) {
                sketch.add(key);
            }
            assertEquals(2_719, sketch.width());
            assertEquals(5, sketch.depth());
            assertEquals(SketchKind.TOP_K, sketch.kind());
            assertEquals(100, sketch.top().size());
            assertEquals(exactTop(exact, 5), keys(sketch.top(5)));
            assertSound(sketch, exact);
            List<HeavyHitter> top = sketch.top();
            for (int i = 1; i < top.size(); i++) {
                assertTrue(HeavyHitter.byRank(top.get(i - 1), top.get(i)) < 0, "ranked largest first");
            }
        }
    }

    @Test
    void batchAddsListWhatSingleAddsList() throws IOException {
        long[] stream = zipfStream(11, 30_000);
        try (TopK single = builder(20).createAnonymous(OpenMode.EXCLUSIVE);
                TopK batch = builder(20).createAnonymous(OpenMode.EXCLUSIVE)) {
            for (long key : stream) {
                single.add(key);
            }
            batch.addAll(stream);
            assertEquals(single.top(), batch.top());
            assertSound(batch, exactCounts(stream));
        }
    }

    @Test
    void aBatchOfByteKeysCountsAndRanksAsSingleAdds() throws IOException {
        byte[] data = "a b a c a b".getBytes(StandardCharsets.UTF_8);
        int[] offsets = {0, 2, 4, 6, 8, 10};
        int[] lengths = {1, 1, 1, 1, 1, 1};
        try (TopK batch = builder(2).createAnonymous(OpenMode.SHARED);
                TopK single = builder(2).createAnonymous(OpenMode.EXCLUSIVE)) {
            batch.addAll(data, offsets, lengths, 6);
            for (int i = 0; i < 6; i++) {
                single.add(data, offsets[i], lengths[i]);
            }
            assertEquals(single.top(), batch.top());
            assertEquals(
                    List.of("a", "b"),
                    batch.top().stream().map(HeavyHitter::keyAsString).toList());
            assertEquals(6, batch.totalWeight());
            assertEquals(6, batch.itemsAdded());
        }
        try (TopK shortKeys = builder(2).maxKeyBytes(8).createAnonymous(OpenMode.EXCLUSIVE)) {
            byte[] mixed = "ok123456789".getBytes(StandardCharsets.UTF_8);
            assertThrows(
                    IllegalArgumentException.class,
                    () -> shortKeys.addAll(mixed, new int[] {0, 2}, new int[] {2, 9}, 2));
            assertEquals(0, shortKeys.totalWeight(), "every key is checked before anything is added");
        }
    }

    @Test
    void everyKeyFormOfTheSameBytesIsOneCandidate() throws IOException {
        byte[] utf8 = "naïve café".getBytes(StandardCharsets.UTF_8);
        try (TopK sketch = builder(4).createAnonymous(OpenMode.SHARED);
                Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(utf8.length + 3);
            MemorySegment.copy(MemorySegment.ofArray(utf8), 0, segment, 3, utf8.length);
            sketch.add("naïve café");
            sketch.add(utf8, 0, utf8.length);
            sketch.add(segment, 3, utf8.length, 2);
            sketch.add(0x0102_0304_0506_0708L, 3);
            List<HeavyHitter> top = sketch.top();
            assertEquals(2, top.size(), top.toString());
            assertEquals("naïve café", top.get(0).keyAsString());
            assertEquals(4, top.get(0).estimate());
            assertEquals(0x0102_0304_0506_0708L, top.get(1).keyAsLong());
            assertEquals(3, top.get(1).estimate());
            assertEquals(3, sketch.estimate(0x0102_0304_0506_0708L));
        }
    }

    @Test
    void equalEstimatesAreRankedByKeyBytesAndLaterKeysMustBeatTheSmallest() throws IOException {
        try (TopK sketch = builder(3).createAnonymous(OpenMode.EXCLUSIVE)) {
            for (String key : List.of("b", "c", "a", "d")) {
                sketch.add(key);
            }
            assertEquals(
                    List.of("a", "b", "c"),
                    sketch.top().stream().map(HeavyHitter::keyAsString).toList(),
                    "d's estimate 1 does not beat the smallest candidate's 1");
            assertEquals(
                    List.of("a", "b"),
                    sketch.top(2).stream().map(HeavyHitter::keyAsString).toList());
            sketch.add("d");
            assertEquals(
                    List.of("d", "a", "c"),
                    sketch.top().stream().map(HeavyHitter::keyAsString).toList(),
                    "d at 2 evicts the heap's root: b, the first of the three candidates at 1");
            assertEquals(List.of(), sketch.top(0));
        }
    }

    /** Top-K inherits saturation from its counters: the listed estimate stops at the largest one and says so. */
    @Test
    void aSaturatedCandidateIsListedAtTheLargestEstimate() throws IOException {
        try (TopK sketch = builder(2).createAnonymous(OpenMode.SHARED)) {
            sketch.add("heavy", 0xFFFF_FFF0L);
            sketch.add("light", 3);
            assertFalse(sketch.isSaturated("heavy"));
            assertEquals(0xFFFF_FFFFL, sketch.add("heavy", 100));
            assertTrue(sketch.isSaturated("heavy"));
            assertFalse(sketch.isSaturated("light"));
            List<HeavyHitter> top = sketch.top();
            assertEquals(sketch.maxEstimate(), top.getFirst().estimate());
            assertEquals("heavy", top.getFirst().keyAsString());
            assertEquals(3, top.get(1).estimate());
        }
    }

    @Test
    void aFileReopenedOrOpenedElsewhereListsTheSameCandidates() throws IOException {
        Path file = dir.resolve("top.sketch");
        long[] stream = zipfStream(5, 20_000);
        List<HeavyHitter> before;
        try (TopK sketch = builder(50).create(file, OpenMode.EXCLUSIVE)) {
            sketch.addAll(stream);
            before = sketch.top();
        }
        try (TopK reader = TopK.open(file, OpenMode.READ_ONLY)) {
            assertEquals(before, reader.top());
            assertEquals(50, reader.k());
            assertEquals(TopK.DEFAULT_MAX_KEY_BYTES, reader.maxKeyBytes());
            assertEquals(stream.length, reader.totalWeight());
        }
        try (TopK writer = TopK.open(file, OpenMode.SHARED)) {
            writer.add("a newcomer", 10_000);
            assertEquals("a newcomer", writer.top(1).getFirst().keyAsString());
        }
    }

    @Test
    void aKeyTooLongToStoreIsRefusedAndNothingChanges() throws IOException {
        try (TopK sketch = builder(3).maxKeyBytes(8).createAnonymous(OpenMode.EXCLUSIVE)) {
            IllegalArgumentException refused =
                    assertThrows(IllegalArgumentException.class, () -> sketch.add("123456789"));
            assertTrue(refused.getMessage().contains("key length = 9 bytes, must be in [0, 8]"), refused.getMessage());
            assertEquals(0, sketch.totalWeight());
            assertEquals(0, sketch.itemsAdded());
            assertEquals(0, sketch.estimate("123456789"));
            sketch.add("12345678");
            assertEquals(1, sketch.top().size());
        }
    }

    @Test
    void badBuilderParametersAreRefusedByName() {
        assertTrue(assertThrows(
                        IllegalArgumentException.class, () -> TopK.builder().k(0))
                .getMessage()
                .contains("k = 0, must be in [1, " + TopK.MAX_K + "]"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class, () -> TopK.builder().maxKeyBytes(7))
                .getMessage()
                .contains("maxKeyBytes = 7, must be in [8, " + TopK.MAX_KEY_BYTES + "]"));
        assertTrue(assertThrows(
                        IllegalStateException.class,
                        () -> TopK.builder().epsilon(0.01).delta(0.01).createAnonymous(OpenMode.SHARED))
                .getMessage()
                .contains("k was not set"));
        assertThrows(
                IllegalArgumentException.class,
                () -> builder(3).createAnonymous(OpenMode.SHARED).top(-1));
    }

    @Test
    void mergeSumsTheCountersAndReRanksTheUnionOfCandidates() throws IOException {
        long[] first = zipfStream(21, 25_000);
        long[] second = zipfStream(22, 25_000);
        Map<Long, Long> exact = exactCounts(first, second);
        try (TopK left = builder(30).createAnonymous(OpenMode.EXCLUSIVE);
                TopK right = builder(10).createAnonymous(OpenMode.SHARED);
                TopK whole = builder(30).createAnonymous(OpenMode.EXCLUSIVE)) {
            left.addAll(first);
            right.addAll(second);
            whole.addAll(first);
            whole.addAll(second);
            left.merge(right);
            assertEquals(whole.totalWeight(), left.totalWeight());
            for (long key : exact.keySet()) {
                assertEquals(whole.estimate(key), left.estimate(key), "merged counters are the union's");
            }
            assertEquals(exactTop(exact, 10), keys(left.top(10)));
            assertSound(left, exact);
        }
    }

    @Test
    void incompatibleSketchesAndKindsAreRefused() throws IOException {
        Path file = dir.resolve("top.sketch");
        try (TopK sketch = builder(3).create(file, OpenMode.EXCLUSIVE);
                TopK narrower =
                        TopK.builder().k(3).epsilon(0.01).delta(0.01).seed(7).createAnonymous(OpenMode.SHARED);
                TopK longerKeys = builder(3).maxKeyBytes(100).createAnonymous(OpenMode.SHARED)) {
            IncompatibleSketchException width =
                    assertThrows(IncompatibleSketchException.class, () -> sketch.merge(narrower));
            assertTrue(width.getMessage().contains("width"), width.getMessage());
            assertThrows(IncompatibleSketchException.class, () -> sketch.merge(longerKeys));
        }
        assertThrows(IncompatibleSketchFileException.class, () -> CountMinSketch.open(file, OpenMode.READ_ONLY));
    }

    @Test
    void aCandidateCountOutOfRangeInTheFileIsRefused() throws IOException {
        Path file = dir.resolve("top.sketch");
        long candidateCount;
        try (TopK sketch = builder(3).create(file, OpenMode.EXCLUSIVE)) {
            candidateCount = SketchFileLayout.HEADER_LENGTH + sketch.candidateLockOffset() + 16;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(0, 4), candidateCount);
        }
        CorruptSketchFileException corrupt =
                assertThrows(CorruptSketchFileException.class, () -> TopK.open(file, OpenMode.READ_ONLY));
        assertTrue(
                corrupt.getMessage().contains("candidate count is 4, expected a value in [0, 3]"),
                corrupt.getMessage());
        assertTrue(corrupt.getMessage().contains(file.toString()), corrupt.getMessage());
    }

    @Test
    void threadsAddingAtOnceLeaveTheCountersOfOneThreadAndTheSameTopFive() throws Exception {
        long[][] streams =
                IntStream.range(0, 4).mapToObj(t -> zipfStream(100 + t, 20_000)).toArray(long[][]::new);
        Map<Long, Long> exact = exactCounts(streams);
        try (TopK shared = builder(40).createAnonymous(OpenMode.SHARED);
                TopK sequential = builder(40).createAnonymous(OpenMode.EXCLUSIVE);
                ExecutorService pool = Executors.newFixedThreadPool(streams.length)) {
            List<Future<?>> done = new ArrayList<>();
            for (long[] stream : streams) {
                done.add(pool.submit(() -> {
                    for (long key : stream) {
                        shared.add(key);
                    }
                }));
            }
            for (long[] stream : streams) {
                sequential.addAll(stream);
            }
            for (Future<?> future : done) {
                future.get();
            }
            for (long key : exact.keySet()) {
                assertEquals(sequential.estimate(key), shared.estimate(key));
            }
            assertEquals(exactTop(exact, 5), keys(shared.top(5)));
            assertSound(shared, exact);
            assertEquals(0, shared.candidateRecoveries());
        }
    }

    @Test
    void toStringNamesKindAndShape() throws IOException {
        try (TopK sketch = builder(7).createAnonymous(OpenMode.SHARED)) {
            String text = sketch.toString();
            assertTrue(text.startsWith("TopK[anonymous TOP_K sketch, k 7, 2719 x 5 x 32-bit"), text);
        }
    }

    /** TOPK.ADD's reply: the key an add expelled from a full table, and nothing otherwise. */
    @Test
    void addExpellingNamesTheCandidateItTookThePlaceOf() throws IOException {
        try (TopK sketch = builder(2).createAnonymous(OpenMode.EXCLUSIVE)) {
            assertEquals(Optional.empty(), addExpelling(sketch, "a", 1), "a free place");
            assertEquals(Optional.empty(), addExpelling(sketch, "b", 2), "a free place");
            assertEquals(Optional.empty(), addExpelling(sketch, "c", 1), "not above the smallest");
            assertEquals(Optional.empty(), addExpelling(sketch, "b", 1), "a candidate already");
            Optional<HeavyHitter> expelled = addExpelling(sketch, "c", 5);
            assertEquals("a", expelled.orElseThrow().keyAsString());
            assertEquals(1, expelled.orElseThrow().estimate());
            assertEquals(
                    List.of("c", "b"),
                    sketch.top().stream().map(HeavyHitter::keyAsString).toList());
            assertEquals(10, sketch.totalWeight());
            byte[] tooLong = new byte[sketch.maxKeyBytes() + 1];
            assertThrows(IllegalArgumentException.class, () -> sketch.addExpelling(tooLong, 0, tooLong.length, 1));
            assertEquals(10, sketch.totalWeight(), "nothing was added");
        }
    }

    private static Optional<HeavyHitter> addExpelling(TopK sketch, String key, long count) {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        return sketch.addExpelling(bytes, 0, bytes.length, count);
    }
}
