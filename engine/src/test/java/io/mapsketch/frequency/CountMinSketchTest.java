package io.mapsketch.frequency;

import static io.mapsketch.enginetesting.Zipf.zipfKey;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.IncompatibleSketchFileException;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.enginetesting.Payloads;
import io.mapsketch.enginetesting.Zipf;
import io.mapsketch.internal.SketchInternals;
import io.mapsketch.memory.HashScheme;
import io.mapsketch.memory.LiveCounters;
import io.mapsketch.memory.RegionMode;
import io.mapsketch.memory.SketchHeader;
import io.mapsketch.memory.SketchRegions;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The seed's numbers, the Zipf demo, key forms, batch paths, saturation, files and the errors of Count-Min. */
class CountMinSketchTest {

    @TempDir
    Path dir;

    static CountMinSketch.Builder builder(double epsilon, double delta, int bits, boolean conservative) {
        return CountMinSketch.builder()
                .epsilon(epsilon)
                .delta(delta)
                .counterBits(bits)
                .conservativeUpdate(conservative)
                .seed(7);
    }

    static CountMinSketch sketch(double epsilon, double delta, int bits, boolean conservative, OpenMode mode) {
        return builder(epsilon, delta, bits, conservative).createAnonymous(mode);
    }

    @Test
    void epsilonOneThousandthAndDeltaOnePercentAre2719By5() throws IOException {
        try (CountMinSketch cms = sketch(0.001, 0.01, 32, false, OpenMode.EXCLUSIVE)) {
            assertEquals(2_719, cms.width());
            assertEquals(5, cms.depth());
            assertEquals(32, cms.counterBits());
            assertEquals(5 * 10_880, cms.memoryBytes(), "2,719 x 4 bytes = 10,876, padded to 10,880 per row");
            assertEquals(0.001, cms.epsilon());
            assertEquals(0.01, cms.delta());
            assertEquals(0, cms.errorBound());
            assertEquals(0, cms.totalWeight());
            assertEquals(SketchKind.COUNT_MIN, cms.kind());
            assertEquals(0xFFFF_FFFFL, cms.maxEstimate());
            assertFalse(cms.isConservative());
        }
        try (CountMinSketch wide = sketch(0.001, 0.01, 64, true, OpenMode.SHARED)) {
            assertEquals(5 * 21_760, wide.memoryBytes());
            assertEquals(Long.MAX_VALUE, wide.maxEstimate());
            assertTrue(wide.isConservative());
        }
    }

    /** The seed's demo: 50,000 Zipf events over 10,000 keys into 2,719 x 5 counters, plain and conservative. */
    @Test
    void zipfStreamIsNeverUndercountAndRarelyBeyondTheBound() throws IOException {
        int keys = 10_000;
        int events = 50_000;
        long[] exact = new long[keys];
        Zipf zipf = new Zipf(keys, 1.0, 2026);
        int[] stream = new int[events];
        for (int i = 0; i < events; i++) {
            stream[i] = zipf.next();
            exact[stream[i]]++;
        }
        try (CountMinSketch plain = sketch(0.001, 0.01, 32, false, OpenMode.EXCLUSIVE);
                CountMinSketch conservative = sketch(0.001, 0.01, 32, true, OpenMode.EXCLUSIVE)) {
            for (int rank : stream) {
                plain.add(zipfKey(rank));
                conservative.add(zipfKey(rank));
            }
            assertEquals(events, plain.totalWeight());
            assertEquals(50, plain.errorBound());
            int distinct = 0;
            long[] beyond = new long[2];
            long[] max = new long[2];
            double[] sum = new double[2];
            for (int rank = 0; rank < keys; rank++) {
                if (exact[rank] == 0) {
                    continue;
                }
                distinct++;
                long p = plain.estimate(zipfKey(rank));
                long c = conservative.estimate(zipfKey(rank));
                assertTrue(p >= exact[rank], "plain undercounts rank " + rank);
                assertTrue(c >= exact[rank], "conservative undercounts rank " + rank);
                assertTrue(c <= p, "conservative above plain at rank " + rank);
                long[] over = {p - exact[rank], c - exact[rank]};
                for (int v = 0; v < 2; v++) {
                    if (over[v] > 0.001 * events) {
                        beyond[v]++;
                    }
                    max[v] = Math.max(max[v], over[v]);
                    sum[v] += over[v];
                }
            }
            String[] names = {"plain", "conservative"};
            for (int v = 0; v < 2; v++) {
                double fraction = (double) beyond[v] / distinct;
                System.out.printf(
                        "Count-Min Zipf demo (%s): %d distinct keys, %.4f%% beyond eps N = 50,"
                                + " max overestimate %d, mean %.3f%n",
                        names[v], distinct, 100 * fraction, max[v], sum[v] / distinct);
                assertTrue(fraction <= 0.01, names[v] + ": fraction beyond the bound " + fraction);
            }
        }
    }

    @Test
    void everyKeyFormOfTheSameBytesHitsTheSameCounters() throws IOException {
        long key = 0x0102030405060708L;
        byte[] bytes = ByteBuffer.allocate(8)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putLong(key)
                .array();
        byte[] text = "naïve café".getBytes(StandardCharsets.UTF_8);
        try (CountMinSketch cms = sketch(0.01, 0.01, 32, false, OpenMode.EXCLUSIVE);
                Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(20);
            MemorySegment.copy(bytes, 0, segment, ValueLayout.JAVA_BYTE, 5, 8);
            assertEquals(1, cms.add(key));
            assertEquals(3, cms.add(bytes, 0, 8, 2));
            assertEquals(4, cms.add(segment, 5, 8));
            assertEquals(5, cms.add(bytes, 0, 8));
            assertEquals(10, cms.add(segment, 5, 8, 5));
            assertEquals(10, cms.estimate(key));
            assertEquals(10, cms.estimate(bytes, 0, 8));
            assertEquals(10, cms.estimate(segment, 5, 8));
            assertEquals(2, cms.add("naïve café", 2));
            assertEquals(3, cms.add(new StringBuilder("naïve café")));
            assertEquals(3, cms.estimate(text, 0, text.length));
            assertEquals(3, cms.estimate("naïve café"));
            assertEquals(7, cms.itemsAdded());
            assertEquals(13, cms.totalWeight());
        }
    }

    @Test
    void batchAndSingleKeyPathsFillTheSameCountersInBothModes() throws IOException {
        long[] keys = new SplittableRandom(5).longs(3_000, 0, 500).toArray();
        for (OpenMode mode : new OpenMode[] {OpenMode.EXCLUSIVE, OpenMode.SHARED}) {
            for (boolean conservative : new boolean[] {false, true}) {
                try (CountMinSketch batch = sketch(0.01, 0.05, 32, conservative, mode);
                        CountMinSketch fromSegment = sketch(0.01, 0.05, 32, conservative, mode);
                        CountMinSketch single = sketch(0.01, 0.05, 32, conservative, OpenMode.EXCLUSIVE);
                        Arena arena = Arena.ofConfined()) {
                    batch.addAll(keys);
                    MemorySegment segment = arena.allocate(8L * keys.length + 3);
                    for (int i = 0; i < keys.length; i++) {
                        segment.set(
                                ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN),
                                3 + 8L * i,
                                keys[i]);
                    }
                    fromSegment.addAll(segment, 3, keys.length);
                    for (long key : keys) {
                        single.add(key);
                    }
                    String variant = mode + (conservative ? " conservative" : " plain");
                    assertArrayEquals(Payloads.bytes(single), Payloads.bytes(batch), variant);
                    assertArrayEquals(
                            Payloads.bytes(single), Payloads.bytes(fromSegment), variant + ", keys from a segment");
                    assertEquals(keys.length, batch.itemsAdded());
                    assertEquals(keys.length, batch.totalWeight());
                    assertEquals(keys.length, fromSegment.totalWeight());
                }
            }
        }
    }

    /**
     * More keys than one hashing batch, half of them added, in both counter widths and update rules,
     * in a sketch small enough to be estimated key by key and one of more than 1 MiB, estimated row by
     * row.
     */
    @Test
    void batchEstimatesEqualSingleKeyEstimates() throws IOException {
        SplittableRandom random = new SplittableRandom(6);
        long[] added = random.longs(4_000, 0, 700).toArray();
        long[] probes = new long[1_337];
        for (int i = 0; i < probes.length; i++) {
            probes[i] = i % 2 == 0 ? added[random.nextInt(added.length)] : random.nextLong();
        }
        for (double epsilon : new double[] {0.01, 0.00002}) {
            for (int bits : new int[] {32, 64}) {
                for (boolean conservative : new boolean[] {false, true}) {
                    try (CountMinSketch cms = sketch(epsilon, 0.05, bits, conservative, OpenMode.EXCLUSIVE)) {
                        assertEquals(epsilon < 0.01, cms.memoryBytes() > 1 << 20, "the size at eps = " + epsilon);
                        assertBatchEstimatesEqualSingleKeyEstimates(cms, added, probes, bits + " bits, eps " + epsilon);
                    }
                }
            }
        }
    }

    private static void assertBatchEstimatesEqualSingleKeyEstimates(
            CountMinSketch cms, long[] added, long[] probes, String what) {
        cms.addAll(added);
        long[] estimates = new long[probes.length + 2];
        Arrays.fill(estimates, -1);
        cms.estimateAll(probes, estimates);
        for (int i = 0; i < probes.length; i++) {
            assertEquals(cms.estimate(probes[i]), estimates[i], what + ", key " + i);
        }
        assertEquals(-1, estimates[probes.length], "past the keys nothing is written");
        assertTrue(estimates[0] > 0, "an added key has a positive estimate");
        String message = assertThrows(
                        IllegalArgumentException.class, () -> cms.estimateAll(probes, new long[probes.length - 1]))
                .getMessage();
        assertEquals("estimates.length = 1336, must be >= keys.length = 1337", message);
    }

    @Test
    void thirtyTwoBitCountersSaturateAndSaySo() throws IOException {
        long max = 0xFFFF_FFFFL;
        for (OpenMode mode : new OpenMode[] {OpenMode.EXCLUSIVE, OpenMode.SHARED}) {
            for (boolean conservative : new boolean[] {false, true}) {
                try (CountMinSketch cms = sketch(0.1, 0.1, 32, conservative, mode)) {
                    assertEquals(max - 10, cms.add(1L, max - 10));
                    assertFalse(cms.isSaturated(1L));
                    assertEquals(0, cms.saturatedCounters());
                    assertEquals(max, cms.add(1L, 100));
                    assertEquals(cms.depth(), cms.saturatedCounters(), "the key's counter in each row");
                    assertEquals(max, cms.add(1L, LiveCounters.LIMIT - max - 90));
                    assertTrue(cms.isSaturated(1L));
                    byte[] one = ByteBuffer.allocate(8)
                            .order(ByteOrder.LITTLE_ENDIAN)
                            .putLong(1L)
                            .array();
                    assertTrue(cms.isSaturated(one, 0, 8));
                    assertTrue(cms.isSaturated(MemorySegment.ofArray(one), 0, 8));
                    assertEquals(max, cms.estimate(1L));
                    assertEquals(LiveCounters.LIMIT, cms.totalWeight());
                    for (int row = 0; row < cms.depth(); row++) {
                        long saturated = 0;
                        for (int column = 0; column < cms.width(); column++) {
                            long value = cms.counter(row, column);
                            assertTrue(value == 0 || value == max, "row " + row + " holds " + value);
                            saturated += value == max ? 1 : 0;
                        }
                        assertEquals(1, saturated, "row " + row);
                    }
                    String message = assertThrows(IllegalArgumentException.class, () -> cms.add(2L))
                            .getMessage();
                    assertTrue(
                            message.startsWith("count = 1 would take the total weight N = " + LiveCounters.LIMIT),
                            message);
                }
            }
        }
    }

    /** 64-bit counters reach 2^64 - 1 only through merges; the counters are set near it directly. */
    @Test
    void sixtyFourBitCountersSaturateAtTwoToTheSixtyFourMinusOne() throws IOException {
        for (OpenMode mode : new OpenMode[] {OpenMode.EXCLUSIVE, OpenMode.SHARED}) {
            for (boolean conservative : new boolean[] {false, true}) {
                try (CountMinSketch cms = sketch(0.1, 0.1, 64, conservative, mode);
                        CountMinSketch other = sketch(0.1, 0.1, 64, false, OpenMode.EXCLUSIVE)) {
                    cms.add(1L, 5);
                    MemorySegment counters = SketchInternals.payload(cms).segment();
                    for (long offset = 0; offset < counters.byteSize(); offset += 8) {
                        if (counters.get(ValueLayout.JAVA_LONG, offset) != 0) {
                            counters.set(ValueLayout.JAVA_LONG, offset, -3L);
                        }
                    }
                    assertEquals(Long.MAX_VALUE, cms.estimate(1L));
                    assertTrue(cms.isSaturated(1L));
                    assertEquals(Long.MAX_VALUE, cms.add(1L, 1_000));
                    other.add(1L, 7);
                    cms.merge(other);
                    for (int row = 0; row < cms.depth(); row++) {
                        long saturated = 0;
                        for (int column = 0; column < cms.width(); column++) {
                            long value = cms.counter(row, column);
                            assertTrue(value == 0 || value == -1L, "row " + row + " holds " + value);
                            saturated += value == -1L ? 1 : 0;
                        }
                        assertEquals(1, saturated, "row " + row);
                    }
                    assertTrue(cms.isSaturated(1L));
                    byte[] one = ByteBuffer.allocate(8)
                            .order(ByteOrder.LITTLE_ENDIAN)
                            .putLong(1L)
                            .array();
                    assertTrue(cms.isSaturated(one, 0, 8));
                    assertTrue(cms.isSaturated(MemorySegment.ofArray(one), 0, 8));
                    assertEquals(1_012, cms.totalWeight());
                }
            }
        }
    }

    @Test
    void persistsAndReopensFromTheFileAlone() throws IOException {
        Path file = dir.resolve("counts.cms");
        long[] keys = new SplittableRandom(8).longs(20_000, 0, 2_000).toArray();
        byte[] counters;
        try (CountMinSketch cms = builder(0.002, 0.001, 64, true).seed(99).create(file, OpenMode.EXCLUSIVE)) {
            cms.addAll(keys);
            cms.add("heavy", 1_000);
            counters = Payloads.bytes(cms);
        }
        try (CountMinSketch reopened = CountMinSketch.open(file, OpenMode.READ_ONLY)) {
            assertEquals(1_360, reopened.width());
            assertEquals(7, reopened.depth());
            assertEquals(64, reopened.counterBits());
            assertTrue(reopened.isConservative());
            assertEquals(0.002, reopened.epsilon());
            assertEquals(0.001, reopened.delta());
            assertEquals(99, reopened.hashSeed());
            assertEquals(20_001, reopened.itemsAdded());
            assertEquals(21_000, reopened.totalWeight());
            assertEquals(42, reopened.errorBound());
            assertTrue(reopened.estimate("heavy") >= 1_000);
            assertArrayEquals(counters, Payloads.bytes(reopened));
            assertTrue(reopened.wasCleanlyClosed());
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> reopened.add(1));
            assertTrue(e.getMessage().contains("READ_ONLY"), e.getMessage());
            assertThrows(IllegalStateException.class, () -> reopened.add("x", 3));
            assertThrows(IllegalStateException.class, () -> reopened.addAll(new long[] {1}));
            try (CountMinSketch other = builder(0.002, 0.001, 64, true).seed(99).createAnonymous(OpenMode.EXCLUSIVE)) {
                assertThrows(IllegalStateException.class, () -> reopened.merge(other));
            }
        }
        try (CountMinSketch writer = CountMinSketch.open(file, OpenMode.SHARED)) {
            long before = writer.estimate(keys[0]);
            assertTrue(before >= 1);
            assertTrue(writer.add(keys[0], 2) >= before + 2 || writer.isSaturated(keys[0]));
        }
        assertThrows(IncompatibleSketchFileException.class, () -> HyperLogLog.open(file, OpenMode.READ_ONLY));
        Path hll = dir.resolve("distinct.hll");
        HyperLogLog.builder().precision(10).create(hll, OpenMode.EXCLUSIVE).close();
        assertThrows(IncompatibleSketchFileException.class, () -> CountMinSketch.open(hll, OpenMode.READ_ONLY));
    }

    @Test
    void headerParametersThatDisagreeAreRefusedAsCorrupt() throws IOException {
        long eps = Double.doubleToLongBits(0.01);
        long delta = Double.doubleToLongBits(0.05);
        long good = 3 * CounterMatrix.rowStride(272, 4);
        assertEquals(
                "header parameter 'width' (index 0) is 0, expected a value in [1, 2147483647]",
                corruptMessage(new long[] {0, 3, 4, 0, eps, delta}, good));
        assertEquals(
                "header parameter 'depth' (index 1) is 746, expected a value in [1, 745]",
                corruptMessage(new long[] {272, 746, 4, 0, eps, delta}, good));
        assertEquals(
                "header parameter 'counter bytes' (index 2) is 5, expected 4 or 8",
                corruptMessage(new long[] {272, 3, 5, 0, eps, delta}, good));
        assertEquals(
                "header parameter 'conservative' (index 3) is 2, expected a value in [0, 1]",
                corruptMessage(new long[] {272, 3, 4, 2, eps, delta}, good));
        assertEquals(
                "header parameter 'epsilon' (index 4) is 1.5, expected a value in (0.0, 1.0)",
                corruptMessage(new long[] {272, 3, 4, 0, Double.doubleToLongBits(1.5), delta}, good));
        assertEquals(
                "header parameter 'delta' (index 5) is NaN, expected a value in (0.0, 1.0)",
                corruptMessage(new long[] {272, 3, 4, 0, eps, Double.doubleToLongBits(Double.NaN)}, good));
        assertEquals(
                "width is 271, but epsilon 0.01 gives 272",
                corruptMessage(new long[] {271, 3, 4, 0, eps, delta}, good));
        assertEquals("depth is 4, but delta 0.05 gives 3", corruptMessage(new long[] {272, 4, 4, 0, eps, delta}, good));
        assertEquals(
                "payload length is 3264 bytes, expected 6528 (depth rows of width counters of counter bytes,"
                        + " each row rounded up to 64 bytes)",
                corruptMessage(new long[] {272, 3, 8, 0, eps, delta}, good));
    }

    private String corruptMessage(long[] parameters, long payload) throws IOException {
        Path file = dir.resolve("corrupt-" + java.util.Arrays.hashCode(parameters) + ".cms");
        SketchHeader header =
                SketchHeader.forNewSketch(SketchKind.COUNT_MIN.id(), HashScheme.XXH3_64, 0, parameters, payload);
        SketchRegions.create(file, header, RegionMode.EXCLUSIVE).close();
        String message = assertThrows(
                        CorruptSketchFileException.class, () -> CountMinSketch.open(file, OpenMode.SHARED))
                .getMessage();
        assertTrue(message.contains(file.toString()), message);
        return message.substring(message.indexOf(": ") + 2);
    }

    @Test
    void builderAddsAndMergesNameWhatIsWrong() throws IOException {
        assertEquals(
                "epsilon = 0.0, must be in (0, 1)",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> CountMinSketch.builder().epsilon(0))
                        .getMessage());
        assertEquals(
                "delta = 1.0, must be in (0, 1)",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> CountMinSketch.builder().delta(1))
                        .getMessage());
        assertEquals(
                "counterBits = 16, must be 32 or 64",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> CountMinSketch.builder().counterBits(16))
                        .getMessage());
        assertTrue(assertThrows(
                        IllegalStateException.class,
                        () -> CountMinSketch.builder().delta(0.1).createAnonymous(OpenMode.SHARED))
                .getMessage()
                .startsWith("epsilon was not set"));
        assertTrue(assertThrows(
                        IllegalStateException.class,
                        () -> CountMinSketch.builder().epsilon(0.1).createAnonymous(OpenMode.SHARED))
                .getMessage()
                .startsWith("delta was not set"));
        try (CountMinSketch base = sketch(0.01, 0.01, 32, false, OpenMode.EXCLUSIVE);
                CountMinSketch wider = sketch(0.005, 0.01, 32, false, OpenMode.EXCLUSIVE);
                CountMinSketch deeper = sketch(0.01, 0.001, 32, false, OpenMode.EXCLUSIVE);
                CountMinSketch longs = sketch(0.01, 0.01, 64, false, OpenMode.EXCLUSIVE);
                CountMinSketch reseeded = builder(0.01, 0.01, 32, false).seed(8).createAnonymous(OpenMode.SHARED);
                CountMinSketch conservative = sketch(0.01, 0.01, 32, true, OpenMode.SHARED)) {
            assertEquals(
                    "count = 0, must be in [1, 9223372036854775807]",
                    assertThrows(IllegalArgumentException.class, () -> base.add(1L, 0))
                            .getMessage());
            assertEquals(
                    "count = -5, must be in [1, 9223372036854775807]",
                    assertThrows(IllegalArgumentException.class, () -> base.add("k", -5))
                            .getMessage());
            assertTrue(assertThrows(IncompatibleSketchException.class, () -> base.merge(wider))
                    .getMessage()
                    .startsWith("sketches differ in width: 272 here, 544 in the other sketch"));
            assertTrue(assertThrows(IncompatibleSketchException.class, () -> base.merge(deeper))
                    .getMessage()
                    .startsWith("sketches differ in depth: 5 here, 7"));
            assertTrue(assertThrows(IncompatibleSketchException.class, () -> base.merge(longs))
                    .getMessage()
                    .startsWith("sketches differ in counter bytes: 4 here, 8"));
            assertTrue(assertThrows(IncompatibleSketchException.class, () -> base.merge(reseeded))
                    .getMessage()
                    .startsWith("sketches differ in hash seed: 7 here, 8"));
            conservative.add(3L, 4);
            base.add(3L, 1);
            base.merge(conservative);
            assertEquals(5, base.estimate(3L));
            assertEquals(5, base.totalWeight());
            assertEquals(2, base.itemsAdded());
        }
    }

    /** CMS.INITBYDIM: the shape given is the shape made, and the recorded epsilon and delta size to it. */
    @Test
    void dimensionsMakeExactlyThatShape() throws IOException {
        for (int[] shape : new int[][] {{3, 1}, {2_000, 5}, {2_719, 7}, {1_000_003, 20}}) {
            Path file = dir.resolve("dims-" + shape[0] + "x" + shape[1]);
            CountMinSketch.builder()
                    .dimensions(shape[0], shape[1])
                    .create(file, OpenMode.EXCLUSIVE)
                    .close();
            try (CountMinSketch cms = CountMinSketch.open(file, OpenMode.READ_ONLY)) {
                assertEquals(shape[0], cms.width());
                assertEquals(shape[1], cms.depth());
                assertEquals(shape[0], CountMinSizing.width(cms.epsilon()));
                assertEquals(shape[1], CountMinSizing.depth(cms.delta()));
            }
        }
        assertThrows(
                IllegalArgumentException.class, () -> CountMinSketch.builder().dimensions(2, 5));
        assertThrows(
                IllegalArgumentException.class, () -> CountMinSketch.builder().dimensions(100, 0));
    }

    /** CMS.MERGE WEIGHTS: a weight w adds w times the other's counters, N and items. */
    @Test
    void aWeightedMergeAddsTheOtherThatManyTimes() throws IOException {
        for (OpenMode mode : new OpenMode[] {OpenMode.EXCLUSIVE, OpenMode.SHARED}) {
            try (CountMinSketch into = sketch(0.01, 0.01, 32, false, mode);
                    CountMinSketch other = sketch(0.01, 0.01, 32, false, OpenMode.EXCLUSIVE);
                    CountMinSketch thrice = sketch(0.01, 0.01, 32, false, OpenMode.EXCLUSIVE)) {
                into.add("a", 2);
                other.add("a", 3);
                other.add("b", 1);
                into.merge(other, 3);
                assertEquals(11, into.estimate("a"), mode.name());
                assertEquals(3, into.estimate("b"), mode.name());
                assertEquals(14, into.totalWeight(), mode.name());
                assertEquals(7, into.itemsAdded(), mode.name());
                thrice.add("a", 2);
                for (int i = 0; i < 3; i++) {
                    thrice.merge(other);
                }
                assertArrayEquals(
                        SketchInternals.payload(thrice).segment().toArray(ValueLayout.JAVA_BYTE),
                        SketchInternals.payload(into).segment().toArray(ValueLayout.JAVA_BYTE),
                        "the same counters as three merges");
                assertThrows(IllegalArgumentException.class, () -> into.merge(other, 0));
                assertThrows(IllegalArgumentException.class, () -> into.merge(other, Long.MAX_VALUE));
                assertEquals(14, into.totalWeight(), "nothing was merged");
            }
        }
    }
}
