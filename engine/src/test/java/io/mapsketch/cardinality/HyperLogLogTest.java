package io.mapsketch.cardinality;

import static io.mapsketch.enginetesting.SeededKeys.distinctKeys;
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
import io.mapsketch.enginetesting.Payloads;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.memory.HashScheme;
import io.mapsketch.memory.RegionMode;
import io.mapsketch.memory.SketchHeader;
import io.mapsketch.memory.SketchRegions;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The seed's numbers, key forms, batch paths, files, bounds and the errors of HyperLogLog. */
class HyperLogLogTest {

    @TempDir
    Path dir;

    static HyperLogLog sketch(int precision, OpenMode mode) {
        return HyperLogLog.builder().precision(precision).seed(7).createAnonymous(mode);
    }

    @Test
    void precisionFourteenIsSixteenKilobytesAtPointEightOnePercent() throws IOException {
        try (HyperLogLog hll = sketch(14, OpenMode.EXCLUSIVE)) {
            assertEquals(16_384, hll.registerCount());
            assertEquals(16_384, hll.memoryBytes());
            assertEquals(0.008125, hll.relativeStandardError(), 1e-12);
            assertEquals(SketchKind.HYPERLOGLOG, hll.kind());
        }
        try (HyperLogLog ten = sketch(10, OpenMode.EXCLUSIVE);
                HyperLogLog four = sketch(4, OpenMode.EXCLUSIVE)) {
            assertEquals(1_024, ten.memoryBytes());
            assertEquals(0.0325, ten.relativeStandardError(), 1e-12);
            assertEquals(64, four.memoryBytes(), "16 registers, rounded up to a cache line");
        }
    }

    @Test
    void aBatchOfByteKeysSetsTheRegistersSingleAddsSet() throws IOException {
        byte[] data = "alice\nbob\ncarol\ndave\n".repeat(300).getBytes(StandardCharsets.UTF_8);
        int[] offsets = new int[1200];
        int[] lengths = new int[1200];
        int count = 0;
        for (int from = 0, i = 0; i < data.length; i++) {
            if (data[i] == '\n') {
                offsets[count] = from;
                lengths[count++] = i - from;
                from = i + 1;
            }
        }
        try (HyperLogLog single = sketch(10, OpenMode.EXCLUSIVE);
                HyperLogLog batch = sketch(10, OpenMode.SHARED)) {
            for (int i = 0; i < count; i++) {
                single.add(data, offsets[i], lengths[i]);
            }
            batch.addAll(data, offsets, lengths, count);
            assertArrayEquals(Payloads.bytes(single), Payloads.bytes(batch));
            assertEquals(4, Math.round(batch.estimate()));
            assertEquals(1200, batch.itemsAdded());
        }
    }

    @Test
    void registerAndRankMatchTheDocumentedWorkedExamples() {
        assertEquals(72, HyperLogLogLayout.registerIndex(0x0123456789ABCDEFL, 14));
        assertEquals(1, HyperLogLogLayout.rank(0x0123456789ABCDEFL, 14));
        assertEquals(16_383, HyperLogLogLayout.registerIndex(0xFFFC000000000001L, 14));
        assertEquals(50, HyperLogLogLayout.rank(0xFFFC000000000001L, 14));
        assertEquals(0, HyperLogLogLayout.registerIndex(0, 14));
        assertEquals(51, HyperLogLogLayout.rank(0, 14));
        assertEquals(61, HyperLogLogLayout.rank(0, 4), "the largest rank of all, within the histogram's 0..64");
    }

    @Test
    void twoHundredThousandDistinctKeysAreWithinThreeStandardErrors() throws IOException {
        try (HyperLogLog hll = sketch(14, OpenMode.EXCLUSIVE)) {
            hll.addAll(distinctKeys(1, 200_000));
            double estimate = hll.estimate();
            assertEquals(200_000, estimate, 3 * hll.relativeStandardError() * 200_000, "estimate " + estimate);
            assertTrue(hll.lowerBound(3) <= 200_000 && 200_000 <= hll.upperBound(3));
            assertEquals(200_000, hll.itemsAdded());
        }
    }

    @Test
    void unionOfTwoShardsSharingTwentyThousandIsWithinThreeStandardErrors() throws IOException {
        long[] keys = distinctKeys(2, 100_000);
        try (HyperLogLog left = sketch(14, OpenMode.EXCLUSIVE);
                HyperLogLog right = sketch(14, OpenMode.SHARED)) {
            left.addAll(Arrays.copyOfRange(keys, 0, 60_000));
            right.addAll(Arrays.copyOfRange(keys, 40_000, 100_000));
            byte[] leftBefore = Payloads.bytes(left);
            byte[] rightBefore = Payloads.bytes(right);
            double union = HyperLogLog.estimateUnion(left, right);
            assertEquals(100_000, union, 3 * left.relativeStandardError() * 100_000, "union " + union);
            assertArrayEquals(leftBefore, Payloads.bytes(left), "estimateUnion modifies nothing");
            assertArrayEquals(rightBefore, Payloads.bytes(right));
            left.merge(right);
            assertEquals(union, left.estimate(), "the union count is the estimate of the merge");
            assertEquals(120_000, left.itemsAdded(), "items added counts repeats");
        }
    }

    @Test
    void theClassicEstimateWeighsRanksByEachSchemesLargestRank() throws IOException {
        HyperLogLogBuilder[] schemes = {
            HyperLogLog.builder().precision(14).seed(7),
            HyperLogLog.builder().redisHashing().precision(14),
            HyperLogLog.builder().dataSketchesHashing().precision(14)
        };
        for (HyperLogLogBuilder scheme : schemes) {
            try (HyperLogLog hll = scheme.createAnonymous(OpenMode.EXCLUSIVE)) {
                for (long key : distinctKeys(11, 200_000)) {
                    hll.add(key);
                }
                // 200,000 keys at p = 14 lie above linear counting's range: the raw harmonic mean answers,
                // within 5% (six standard errors) of the truth and of the scheme's own estimate.
                assertEquals(
                        200_000, hll.classicEstimate(), 10_000, hll.estimator() + ": classic " + hll.classicEstimate());
                assertEquals(hll.estimate(), hll.classicEstimate(), 10_000, hll + ": estimate " + hll.estimate());
            }
        }
    }

    @Test
    void aThousandKeysReadWithinOnePercentAndAnEmptySketchReadsZero() throws IOException {
        try (HyperLogLog hll = sketch(14, OpenMode.SHARED)) {
            assertEquals(0, hll.estimate());
            assertEquals(0, hll.classicEstimate());
            assertEquals(0, hll.lowerBound(2));
            assertEquals(0, hll.upperBound(2));
            hll.add(42L);
            assertEquals(1, hll.estimate(), 0.01);
            for (long key : distinctKeys(3, 999)) {
                hll.add(key);
            }
            assertEquals(1_000, hll.estimate(), 10, "improved " + hll.estimate());
            assertEquals(1_000, hll.classicEstimate(), 10, "classic (linear counting) " + hll.classicEstimate());
        }
    }

    @Test
    void boundsWidenWithStandardDeviationsAndNameBadArguments() throws IOException {
        try (HyperLogLog hll = sketch(6, OpenMode.EXCLUSIVE)) {
            hll.addAll(distinctKeys(4, 5_000));
            double estimate = hll.estimate();
            assertEquals(estimate, hll.lowerBound(0));
            assertEquals(estimate, hll.upperBound(0));
            assertTrue(hll.lowerBound(2) < hll.lowerBound(1) && hll.lowerBound(1) < estimate);
            assertTrue(hll.upperBound(2) > hll.upperBound(1) && hll.upperBound(1) > estimate);
            assertEquals(estimate / (1 - 2 * 0.13), hll.upperBound(2), 1e-9 * estimate);
            assertEquals(Double.POSITIVE_INFINITY, hll.upperBound(8), "13% x 8 leaves no finite upper bound");
            assertEquals(
                    "standardDeviations = -1.0, must be finite and >= 0",
                    assertThrows(IllegalArgumentException.class, () -> hll.lowerBound(-1))
                            .getMessage());
            assertThrows(IllegalArgumentException.class, () -> hll.upperBound(Double.NaN));
        }
        try (HyperLogLog few = sketch(14, OpenMode.EXCLUSIVE)) {
            few.addAll(distinctKeys(5, 50));
            assertTrue(few.lowerBound(100) >= 49, "at least the non-empty registers");
        }
    }

    @Test
    void everyKeyFormOfTheSameBytesFillsTheSameRegisters() throws IOException {
        String text = "grüße, 世界 🌍";
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        byte[] padded = new byte[utf8.length + 3];
        System.arraycopy(utf8, 0, padded, 2, utf8.length);
        try (HyperLogLog fromString = sketch(4, OpenMode.EXCLUSIVE);
                HyperLogLog fromBytes = sketch(4, OpenMode.SHARED);
                HyperLogLog fromSegment = sketch(4, OpenMode.EXCLUSIVE);
                Arena arena = Arena.ofConfined()) {
            assertTrue(fromString.add(text));
            assertFalse(fromString.add(new StringBuilder(text)), "the same characters again");
            assertTrue(fromBytes.add(padded, 2, utf8.length));
            MemorySegment segment = arena.allocate(utf8.length + 5);
            MemorySegment.copy(MemorySegment.ofArray(utf8), 0, segment, 5, utf8.length);
            assertTrue(fromSegment.add(segment, 5, utf8.length));
            byte[] expected = Payloads.bytes(fromString);
            assertArrayEquals(expected, Payloads.bytes(fromBytes));
            assertArrayEquals(expected, Payloads.bytes(fromSegment));

            assertTrue(fromString.add(0x0102030405060708L));
            assertFalse(
                    fromString.add(new byte[] {8, 7, 6, 5, 4, 3, 2, 1}, 0, 8),
                    "a long is its eight little-endian bytes");
            assertEquals(4, fromString.itemsAdded());
        }
    }

    @Test
    void batchAndSingleKeyPathsFillTheSameRegistersInBothModes() throws IOException {
        long[] keys = new SplittableRandom(9).longs(5_000).toArray();
        try (HyperLogLog single = sketch(11, OpenMode.EXCLUSIVE);
                HyperLogLog sharedSingle = sketch(11, OpenMode.SHARED);
                HyperLogLog batch = sketch(11, OpenMode.EXCLUSIVE);
                HyperLogLog sharedBatch = sketch(11, OpenMode.SHARED);
                Arena arena = Arena.ofConfined()) {
            for (long key : keys) {
                single.add(key);
                sharedSingle.add(key);
            }
            batch.addAll(keys);
            MemorySegment keySegment = arena.allocate(8L * keys.length + 3);
            MemorySegment.copy(
                    keys,
                    0,
                    keySegment,
                    ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN),
                    3,
                    keys.length);
            sharedBatch.addAll(keySegment, 3, keys.length);
            byte[] expected = Payloads.bytes(single);
            assertArrayEquals(expected, Payloads.bytes(sharedSingle));
            assertArrayEquals(expected, Payloads.bytes(batch));
            assertArrayEquals(expected, Payloads.bytes(sharedBatch));
            assertEquals(keys.length, sharedBatch.itemsAdded());
            assertThrows(IndexOutOfBoundsException.class, () -> batch.addAll(keySegment, 8, keys.length));
        }
    }

    @Test
    void persistsAndReopensFromTheFileAlone() throws IOException {
        Path file = dir.resolve("distinct.hll");
        long[] keys = distinctKeys(8, 30_000);
        double estimate;
        try (HyperLogLog hll = HyperLogLog.builder().precision(12).seed(99).create(file, OpenMode.EXCLUSIVE)) {
            hll.addAll(keys);
            estimate = hll.estimate();
        }
        try (HyperLogLog reopened = HyperLogLog.open(file, OpenMode.READ_ONLY)) {
            assertEquals(12, reopened.precision());
            assertEquals(99, reopened.hashSeed());
            assertEquals(30_000, reopened.itemsAdded());
            assertEquals(estimate, reopened.estimate());
            assertTrue(reopened.wasCleanlyClosed());
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> reopened.add(1));
            assertTrue(e.getMessage().contains("READ_ONLY"), e.getMessage());
            assertThrows(IllegalStateException.class, () -> reopened.addAll(new long[] {1}));
            try (HyperLogLog other = sketch(12, OpenMode.EXCLUSIVE)) {
                assertThrows(IllegalStateException.class, () -> reopened.merge(other));
            }
        }
        try (HyperLogLog writer = HyperLogLog.open(file, OpenMode.SHARED)) {
            assertFalse(writer.add(keys[0]), "a key added before the restart");
        }
        assertThrows(IncompatibleSketchFileException.class, () -> BlockedBloomFilter.open(file, OpenMode.READ_ONLY));
    }

    @Test
    void headerParametersThatDisagreeAreRefusedAsCorrupt() throws IOException {
        assertEquals(
                "header parameter 'precision' (index 0) is 22, expected a value in [4, 21]",
                corruptMessage(new long[] {22}, 1 << 22));
        assertTrue(
                corruptMessage(new long[] {10}, 64)
                        .endsWith(
                                "payload length is 64 bytes, expected 1024 (2^precision one-byte registers, rounded up to 64 bytes)"));

        Path file = dir.resolve("register.hll");
        HyperLogLog.builder().precision(10).create(file, OpenMode.EXCLUSIVE).close();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[] {56}), 4096 + 5);
        }
        String message = assertThrows(
                        CorruptSketchFileException.class, () -> HyperLogLog.open(file, OpenMode.READ_ONLY))
                .getMessage();
        assertTrue(message.endsWith("1 registers hold more than the largest rank 55"), message);
    }

    private String corruptMessage(long[] parameters, long payload) throws IOException {
        Path file = dir.resolve("corrupt-" + parameters[0] + "-" + payload + ".hll");
        SketchHeader header =
                SketchHeader.forNewSketch(SketchKind.HYPERLOGLOG.id(), HashScheme.XXH3_64, 0, parameters, payload);
        SketchRegions.create(file, header, RegionMode.EXCLUSIVE).close();
        String message = assertThrows(CorruptSketchFileException.class, () -> HyperLogLog.open(file, OpenMode.SHARED))
                .getMessage();
        assertTrue(message.contains(file.toString()), message);
        return message.substring(message.indexOf(": ") + 2);
    }

    @Test
    void builderAndMergesNameWhatIsWrong() throws IOException {
        assertEquals(
                "precision = 3, must be in [4, 18] (in [4, 21] for a sketch that hashes as DataSketches does)",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> HyperLogLog.builder().precision(3))
                        .getMessage());
        assertEquals(
                "precision = 19, must be in [4, 18] for XXH3_64 hashing (in [4, 21] only with dataSketchesHashing())",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> HyperLogLog.builder().precision(19).createAnonymous(OpenMode.EXCLUSIVE))
                        .getMessage());
        assertTrue(assertThrows(
                        IllegalStateException.class, () -> HyperLogLog.builder().createAnonymous(OpenMode.SHARED))
                .getMessage()
                .startsWith("precision was not set"));
        try (HyperLogLog twelve = sketch(12, OpenMode.EXCLUSIVE);
                HyperLogLog fourteen = sketch(14, OpenMode.EXCLUSIVE);
                HyperLogLog reseeded =
                        HyperLogLog.builder().precision(12).seed(8).createAnonymous(OpenMode.SHARED)) {
            assertTrue(assertThrows(IncompatibleSketchException.class, () -> twelve.merge(fourteen))
                    .getMessage()
                    .startsWith("sketches differ in precision: 12 here, 14 in the other sketch"));
            assertTrue(assertThrows(IncompatibleSketchException.class, () -> twelve.merge(reseeded))
                    .getMessage()
                    .startsWith("sketches differ in hash seed: 7 here, 8"));
            assertThrows(IncompatibleSketchException.class, () -> twelve.mergeFolded(reseeded));
            assertThrows(IncompatibleSketchException.class, () -> HyperLogLog.estimateUnion(twelve, reseeded));
            assertEquals(
                    "cannot fold precision 12 up to 14: a sketch folds only to an equal or lower precision",
                    assertThrows(IllegalArgumentException.class, () -> fourteen.mergeFolded(twelve))
                            .getMessage());
            assertEquals(
                    "sketches is empty; the union needs at least one sketch",
                    assertThrows(IllegalArgumentException.class, HyperLogLog::estimateUnion)
                            .getMessage());
        }
    }
}
