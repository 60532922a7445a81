package io.mapsketch.similarity;

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
import io.mapsketch.kernels.HashKernels;
import io.mapsketch.kernels.MinHashKernels;
import io.mapsketch.memory.HashScheme;
import io.mapsketch.memory.RegionMode;
import io.mapsketch.memory.SketchHeader;
import io.mapsketch.memory.SketchRegions;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** MinHash sizing, empty rows, key forms, batch paths, similarity queries, files and errors. */
class MinHashTest {

    @TempDir
    Path dir;

    static MinHash sketch(int rows, int slots, OpenMode mode) {
        return sketch(rows, slots, mode, MinHashDerivation.SUPER_MINHASH);
    }

    static MinHash sketch(int rows, int slots, OpenMode mode, MinHashDerivation derivation) {
        return MinHash.builder()
                .rows(rows)
                .signatureLength(slots)
                .seed(7)
                .derivation(derivation)
                .createAnonymous(mode);
    }

    @Test
    void standardErrorSizesTheSignature() throws IOException {
        assertEquals(400, MinHashSizing.slots(0.05));
        assertEquals(1, MinHashSizing.slots(1));
        assertEquals(2, MinHashSizing.slots(0.999));
        assertEquals(65_536, MinHashSizing.slots(1.0 / 256));
        try (MinHash minHash = MinHash.builder().rows(10).standardError(0.05).createAnonymous(OpenMode.EXCLUSIVE)) {
            assertEquals(400, minHash.signatureLength());
            assertEquals(10, minHash.rows());
            assertEquals(10 * 3_200, minHash.memoryBytes(), "400 slots are 3,200 bytes, already whole cache lines");
            assertEquals(0.05, minHash.standardError(), 1e-15);
            assertEquals(SketchKind.MINHASH, minHash.kind());
        }
        try (MinHash odd = sketch(3, 9, OpenMode.SHARED)) {
            assertEquals(3 * 128, odd.memoryBytes(), "9 slots (72 bytes) padded to two cache lines");
        }
    }

    @ParameterizedTest
    @EnumSource(MinHashDerivation.class)
    void emptyRowsAreAllMaximalSlotsAndTwoEmptySetsHaveSimilarityOne(MinHashDerivation derivation) throws IOException {
        try (MinHash minHash = sketch(3, 100, OpenMode.EXCLUSIVE, derivation)) {
            assertTrue(minHash.isEmpty(0));
            assertTrue(minHash.signature(2).isEmpty());
            assertEquals(MinHashSignature.EMPTY_SLOT, minHash.signature(1).slot(99));
            assertEquals(1.0, minHash.jaccard(0, 1));
            minHash.add(0, "x");
            assertFalse(minHash.isEmpty(0));
            assertEquals(0.0, minHash.jaccard(0, 1));
            assertEquals(0.0, minHash.signature(0).jaccard(minHash.signature(1)));
            assertEquals(1.0, minHash.signature(1).jaccard(minHash.signature(2)));
            long hash = HashKernels.xxh3Bytes(7, MemorySegment.ofArray("x".getBytes(StandardCharsets.UTF_8)), 0, 1);
            assertEquals(
                    derivation == MinHashDerivation.CLASSIC
                            ? MinHashKernels.derive(hash, 42)
                            : SuperMinHashReference.signature(new long[] {hash}, 100)[42],
                    minHash.signature(0).slot(42),
                    "one item: each slot is its derived value");
            assertEquals(derivation, minHash.derivation());
            assertEquals(derivation, minHash.signature(0).derivation());
        }
    }

    @Test
    void everyKeyFormOfTheSameBytesGivesTheSameSignature() throws IOException {
        String text = "grüße, 世界";
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        byte[] padded = new byte[utf8.length + 3];
        System.arraycopy(utf8, 0, padded, 2, utf8.length);
        try (MinHash minHash = sketch(5, 37, OpenMode.EXCLUSIVE);
                Arena arena = Arena.ofConfined()) {
            minHash.add(0, text);
            minHash.add(1, padded, 2, utf8.length);
            MemorySegment segment = arena.allocate(utf8.length + 5);
            MemorySegment.copy(MemorySegment.ofArray(utf8), 0, segment, 5, utf8.length);
            minHash.add(2, segment, 5, utf8.length);
            for (int row = 1; row < 3; row++) {
                assertEquals(minHash.signature(0), minHash.signature(row), "row " + row);
            }
            minHash.add(4, 0x0102030405060708L);
            MinHashSignature fromLong = minHash.signature(4);
            minHash.add(4, new byte[] {8, 7, 6, 5, 4, 3, 2, 1}, 0, 8);
            assertEquals(fromLong, minHash.signature(4), "a long is its eight little-endian bytes");
            assertEquals(5, minHash.itemsAdded());
        }
    }

    @Test
    void superMinHashMatchesTheDocumentedWorkedExample() {
        assertArrayEquals(
                new long[] {0x00033E278DCA8801L, 0x00022295674CA6A1L, 0x0001D7F1515598B6L, 0x00009CA066F1A4ABL},
                SuperMinHashReference.signature(new long[] {0}, 4));
    }

    @ParameterizedTest
    @EnumSource(MinHashDerivation.class)
    void batchAndSingleKeyPathsGiveTheSameRowsInBothModes(MinHashDerivation derivation) throws IOException {
        long[] keys = new SplittableRandom(9).longs(1_500).toArray();
        try (MinHash single = sketch(2, 77, OpenMode.EXCLUSIVE, derivation);
                MinHash shared = sketch(2, 77, OpenMode.SHARED, derivation);
                Arena arena = Arena.ofConfined()) {
            MemorySegment keySegment = arena.allocate(8L * keys.length + 3);
            MemorySegment.copy(
                    keys,
                    0,
                    keySegment,
                    ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN),
                    3,
                    keys.length);
            for (long key : keys) {
                single.add(0, key);
                shared.add(0, key);
            }
            single.addAll(1, keys);
            shared.addAll(1, keySegment, 3, keys.length);
            MinHashSignature expected = single.signature(0);
            assertEquals(expected, single.signature(1));
            assertEquals(expected, shared.signature(0));
            assertEquals(expected, shared.signature(1));
            assertEquals(2L * keys.length, shared.itemsAdded());
            assertThrows(IndexOutOfBoundsException.class, () -> shared.addAll(0, keySegment, 8, keys.length));
        }
    }

    @Test
    void mostSimilarRanksRowsBestFirstWithTiesToTheLowerRow() throws IOException {
        long[] base = new SplittableRandom(3).longs(1_000).toArray();
        try (MinHash minHash = sketch(6, 256, OpenMode.EXCLUSIVE)) {
            minHash.addAll(0, Arrays.copyOfRange(base, 0, 500));
            minHash.addAll(1, base);
            minHash.addAll(2, Arrays.copyOfRange(base, 0, 900));
            minHash.addAll(3, new SplittableRandom(4).longs(1_000).toArray());
            minHash.addAll(4, base);
            MinHashSignature query = minHash.signature(1);
            List<MinHash.Match> top = minHash.mostSimilar(query, 3);
            assertEquals(
                    List.of(
                            new MinHash.Match(1, 1.0),
                            new MinHash.Match(4, 1.0),
                            new MinHash.Match(2, minHash.jaccard(1, 2))),
                    top);
            List<MinHash.Match> all = minHash.mostSimilar(query, 100);
            assertEquals(6, all.size());
            assertEquals(0, all.get(3).row(), "about 0.5");
            assertEquals(new MinHash.Match(3, minHash.jaccard(1, 3)), all.get(4));
            assertEquals(new MinHash.Match(5, 0.0), all.get(5), "the empty row");
            assertEquals(minHash.jaccard(1, 0), minHash.jaccard(0, query));
            assertEquals(
                    List.of(new MinHash.Match(5, 1.0)),
                    minHash.mostSimilar(minHash.signature(5), 1),
                    "an empty query matches the empty row");
            assertEquals(
                    "n = 0, must be >= 1",
                    assertThrows(IllegalArgumentException.class, () -> minHash.mostSimilar(query, 0))
                            .getMessage());
        }
    }

    @Test
    void persistsAndReopensFromTheFileAlone() throws IOException {
        Path file = dir.resolve("sets.minhash");
        long[] keys = new SplittableRandom(8).longs(5_000).toArray();
        MinHashSignature first;
        List<MinHash.Match> ranking;
        try (MinHash minHash =
                MinHash.builder().rows(4).signatureLength(128).seed(99).create(file, OpenMode.EXCLUSIVE)) {
            assertTrue(minHash.isEmpty(3), "a new file's rows are empty");
            minHash.addAll(0, keys);
            minHash.addAll(1, Arrays.copyOf(keys, 3_000));
            minHash.add(2, "only");
            first = minHash.signature(0);
            ranking = minHash.mostSimilar(first, 4);
        }
        try (MinHash reopened = MinHash.open(file, OpenMode.READ_ONLY)) {
            assertEquals(4, reopened.rows());
            assertEquals(128, reopened.signatureLength());
            assertEquals(99, reopened.hashSeed());
            assertEquals(5_001 + 3_000, reopened.itemsAdded());
            assertEquals(first, reopened.signature(0));
            assertEquals(ranking, reopened.mostSimilar(first, 4));
            assertTrue(reopened.isEmpty(3));
            assertTrue(reopened.wasCleanlyClosed());
            assertTrue(assertThrows(IllegalStateException.class, () -> reopened.add(0, 1L))
                    .getMessage()
                    .contains("READ_ONLY"));
            assertThrows(IllegalStateException.class, () -> reopened.mergeRow(0, 1));
        }
        try (MinHash writer = MinHash.open(file, OpenMode.SHARED)) {
            writer.addAll(0, keys);
            assertEquals(first, writer.signature(0), "adding the same keys again changes nothing");
        }
        assertThrows(IncompatibleSketchFileException.class, () -> HyperLogLog.open(file, OpenMode.READ_ONLY));
    }

    @Test
    void hostileHeaderParametersAreRefusedAsCorrupt() throws IOException {
        assertEquals(
                "header parameter 'signature length' (index 0) is 0, expected a value in [1, 65536]",
                corruptMessage(new long[] {0, 1, 1}, 64));
        assertEquals(
                "header parameter 'signature length' (index 0) is 65537, expected a value in [1, 65536]",
                corruptMessage(new long[] {65_537, 1, 1}, 524_352));
        assertEquals(
                "header parameter 'derivation scheme' (index 1) is 3, expected a value in [1, 2]",
                corruptMessage(new long[] {8, 3, 1}, 64));
        assertEquals(
                "header parameter 'rows' (index 2) is -1, expected a value in [1, 2147483647]",
                corruptMessage(new long[] {8, 1, -1}, 64));
        assertEquals(
                "header parameter 'rows' (index 2) is 2147483648, expected a value in [1, 2147483647]",
                corruptMessage(new long[] {8, 1, 1L << 31}, 64));
        assertEquals(
                "payload length is 64 bytes, expected 128 (rows x ceil(8 x signature length / 64) x 64 bytes)",
                corruptMessage(new long[] {8, 1, 2}, 64));
        assertEquals(
                "payload length is 128 bytes, expected 64 (rows x ceil(8 x signature length / 64) x 64 bytes)",
                corruptMessage(new long[] {3, 1, 1}, 128));
    }

    private String corruptMessage(long[] parameters, long payload) throws IOException {
        Path file = dir.resolve("corrupt-"
                + String.join(
                        "-", Arrays.stream(parameters).mapToObj(Long::toString).toList()) + "-" + payload + ".minhash");
        SketchHeader header =
                SketchHeader.forNewSketch(SketchKind.MINHASH.id(), HashScheme.XXH3_64, 0, parameters, payload);
        SketchRegions.create(file, header, RegionMode.EXCLUSIVE).close();
        String message = assertThrows(CorruptSketchFileException.class, () -> MinHash.open(file, OpenMode.SHARED))
                .getMessage();
        assertTrue(message.startsWith("sketch file " + file + ": "), message);
        return message.substring(message.indexOf(": ") + 2);
    }

    @Test
    void badArgumentsAndIncompatibleSketchesAreNamed() throws IOException {
        assertEquals(
                "signatureLength = 0, must be in [1, 65536]",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> MinHash.builder().signatureLength(0))
                        .getMessage());
        assertEquals(
                "rows = 0, must be in [1, 2147483647]",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> MinHash.builder().rows(0))
                        .getMessage());
        assertEquals(
                "standardError = 0.001, must be in [0.00390625, 1] (1 / sqrt(k) for 1 to 65536 slots)",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> MinHash.builder().standardError(0.001))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> MinHash.builder().standardError(Double.NaN));
        assertTrue(assertThrows(
                        IllegalStateException.class, () -> MinHash.builder().createAnonymous(OpenMode.SHARED))
                .getMessage()
                .startsWith("signature length (or standard error) was not set"));
        try (MinHash a = sketch(2, 64, OpenMode.EXCLUSIVE);
                MinHash longer = sketch(2, 65, OpenMode.EXCLUSIVE);
                MinHash moreRows = sketch(3, 64, OpenMode.EXCLUSIVE);
                MinHash reseeded =
                        MinHash.builder().rows(2).signatureLength(64).seed(8).createAnonymous(OpenMode.SHARED)) {
            assertEquals(
                    "row = 2, must be in [0, 2)",
                    assertThrows(IllegalArgumentException.class, () -> a.add(2, 1L))
                            .getMessage());
            assertEquals(
                    "srcRow = -1, must be in [0, 2)",
                    assertThrows(IllegalArgumentException.class, () -> a.mergeRow(0, -1))
                            .getMessage());
            assertEquals(
                    "rowB = 5, must be in [0, 2)",
                    assertThrows(IllegalArgumentException.class, () -> a.jaccard(0, 5))
                            .getMessage());
            assertTrue(assertThrows(IncompatibleSketchException.class, () -> a.merge(longer))
                    .getMessage()
                    .startsWith("sketches differ in signature length: 64 here, 65 in the other sketch"));
            assertTrue(assertThrows(IncompatibleSketchException.class, () -> a.merge(moreRows))
                    .getMessage()
                    .startsWith("sketches differ in rows: 2 here, 3"));
            assertTrue(assertThrows(IncompatibleSketchException.class, () -> a.merge(reseeded))
                    .getMessage()
                    .startsWith("sketches differ in hash seed: 7 here, 8"));
            assertThrows(IncompatibleSketchException.class, () -> a.mergeRow(0, reseeded, 0));
            assertThrows(IncompatibleSketchException.class, () -> a.mergeRow(0, longer, 0));
            assertThrows(IncompatibleSketchException.class, () -> a.jaccard(0, reseeded.signature(0)));
            assertThrows(IncompatibleSketchException.class, () -> a.mostSimilar(longer.signature(0), 1));
            assertThrows(IncompatibleSketchException.class, () -> a.signature(0).union(longer.signature(0)));
            try (MinHash classic = sketch(2, 64, OpenMode.SHARED, MinHashDerivation.CLASSIC)) {
                String refusal =
                        "sketches differ in derivation scheme: 2 (SUPER_MINHASH) here, 1 (CLASSIC) in the other";
                assertTrue(assertThrows(IncompatibleSketchException.class, () -> a.merge(classic))
                        .getMessage()
                        .startsWith(refusal));
                assertTrue(assertThrows(IncompatibleSketchException.class, () -> a.mergeRow(0, classic, 1))
                        .getMessage()
                        .startsWith(refusal));
                assertTrue(assertThrows(IncompatibleSketchException.class, () -> a.jaccard(0, classic.signature(0)))
                        .getMessage()
                        .startsWith(refusal));
                assertThrows(IncompatibleSketchException.class, () -> a.mergeRow(0, classic.signature(0)));
                assertThrows(IncompatibleSketchException.class, () -> a.mostSimilar(classic.signature(0), 1));
                assertTrue(assertThrows(
                                IncompatibleSketchException.class,
                                () -> classic.signature(0).jaccard(a.signature(0)))
                        .getMessage()
                        .startsWith("sketches differ in derivation scheme: 1 (CLASSIC) here, 2 (SUPER_MINHASH)"));
                assertThrows(
                        IncompatibleSketchException.class, () -> a.signature(0).union(classic.signature(0)));
            }
            a.mergeRow(1, moreRows, 2);
            assertEquals(
                    "slot = 64, must be in [0, 64)",
                    assertThrows(
                                    IllegalArgumentException.class,
                                    () -> a.signature(0).slot(64))
                            .getMessage());
        }
    }

    @Test
    void signaturesRoundTripThroughTheirValues() throws IOException {
        try (MinHash minHash = sketch(1, 20, OpenMode.EXCLUSIVE)) {
            minHash.addAll(0, new long[] {1, 2, 3});
            MinHashSignature signature = minHash.signature(0);
            MinHashSignature copy = MinHashSignature.of(signature.toArray(), 7, signature.derivation());
            assertEquals(signature, copy);
            assertEquals(signature.hashCode(), copy.hashCode());
            assertArrayEquals(signature.toArray(), copy.toArray());
            assertEquals(1.0, copy.jaccard(signature));
            assertTrue(copy.toString().startsWith("MinHashSignature[20 slots, seed 7"));
        }
    }
}
