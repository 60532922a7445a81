package io.mapsketch.memory;

import static io.mapsketch.memory.SketchFileLayout.FORMAT_VERSION;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SketchImagePiecesTest {

    @TempDir
    Path dir;

    @Test
    void aPayloadInPiecesGivesTheImageOfTheWholeRegion() {
        qt().withFixedSeed(2201)
                .withExamples(30)
                .forAll(integers().between(0, 300_000), integers().between(1, 90_000), longs().all())
                .checkAssert((length, largestPiece, contentSeed) -> {
                    SketchHeader header = header(length);
                    byte[] payload = new byte[length];
                    new SplittableRandom(contentSeed).nextBytes(payload);
                    byte[] image;
                    try (SketchRegion region = SketchRegions.anonymous(header, RegionMode.EXCLUSIVE)) {
                        MemorySegment.copy(
                                MemorySegment.ofArray(payload),
                                0,
                                region.payload().segment(),
                                0,
                                length);
                        region.addItems(length / 3 + 1);
                        region.addWeight(7);
                        image = SketchImages.write(region, header.createdMillis());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    List<MemorySegment> pieces = pieces(payload, largestPiece, new SplittableRandom(contentSeed + 1));
                    try {
                        Path file = Files.createTempFile(dir, "pieces", ".sketch");
                        Files.delete(file);
                        SketchImages.create(header, () -> length / 3 + 1, () -> 7, pieces.iterator(), file);
                        assertArrayEquals(image, Files.readAllBytes(file));
                        Files.delete(file);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
    }

    @Test
    void piecesThatDoNotAddUpToThePayloadLeaveNoFile() throws IOException {
        SketchHeader header = header(1_000);
        Path file = dir.resolve("short.sketch");
        IllegalArgumentException shortOne = assertThrows(
                IllegalArgumentException.class,
                () -> SketchImages.create(
                        header,
                        () -> 0,
                        () -> 0,
                        List.of(MemorySegment.ofArray(new byte[999])).iterator(),
                        file));
        assertTrue(shortOne.getMessage().contains("add up to 999 bytes, the payload has 1000"), shortOne.getMessage());
        IllegalArgumentException longOne = assertThrows(
                IllegalArgumentException.class,
                () -> SketchImages.create(
                        header,
                        () -> 0,
                        () -> 0,
                        List.of(MemorySegment.ofArray(new byte[1_001])).iterator(),
                        file));
        assertTrue(longOne.getMessage().contains("more than the payload's 1000 bytes"), longOne.getMessage());
        assertFalse(Files.exists(file));
        try (var left = Files.list(dir)) {
            assertFalse(left.findAny().isPresent(), "no temporary file is left");
        }
    }

    private static List<MemorySegment> pieces(byte[] payload, int largest, SplittableRandom random) {
        List<MemorySegment> pieces = new ArrayList<>();
        for (int at = 0; at < payload.length; ) {
            int size = Math.min(payload.length - at, 1 + random.nextInt(largest));
            pieces.add(MemorySegment.ofArray(payload).asSlice(at, size));
            at += size;
        }
        return pieces;
    }

    private static SketchHeader header(long payloadLength) {
        return SketchFiles.header(TestKinds.COUNT_MIN, payloadLength).withFormatVersion(FORMAT_VERSION);
    }
}
