package io.mapsketch.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arrays;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every field written at creation, in every format version, is read back unchanged, from a file and from memory. */
class HeaderRoundTripTest {

    @TempDir
    Path dir;

    @Test
    void randomHeadersSurviveCreateAndOpen() {
        qt().withFixedSeed(20261130L)
                .withExamples(150)
                .forAll(
                        integers().all(),
                        longs().all(),
                        arrays().ofClass(longs().all(), Long.class).withLength(SketchFileLayout.PARAMETER_COUNT),
                        longs().between(0, 3 * 4096 + 17))
                .checkAssert((kind, seed, parameters, payloadLength) -> {
                    int version = SketchFileLayout.FIRST_FORMAT_VERSION
                            + Math.floorMod(
                                    seed, SketchFileLayout.FORMAT_VERSION - SketchFileLayout.FIRST_FORMAT_VERSION + 1);
                    SketchHeader written = SketchHeader.forNewSketch(
                                    kind, HashScheme.XXH3_64, seed, unbox(parameters), payloadLength)
                            .withFormatVersion(version);
                    Path file = dir.resolve("round-trip.sketch");
                    try {
                        SketchRegions.create(file, written, RegionMode.EXCLUSIVE, CreateFlag.OVERWRITE_EXISTING)
                                .close();
                        try (SketchRegion read = SketchRegions.open(
                                file, RegionMode.READ_ONLY, (opened, found) -> assertEquals(kind, found))) {
                            assertEquals(written, read.header());
                            assertEquals(payloadLength, read.payload().byteSize());
                            assertEquals(written.fileLength(), Files.size(file));
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
    }

    @Test
    void anonymousRegionsCarryTheSameHeader() throws IOException {
        SketchHeader written = SketchFiles.header(TestKinds.HYPERLOGLOG, 16_384);
        try (SketchRegion region = SketchRegions.anonymous(written, RegionMode.SHARED)) {
            assertEquals(written, region.header());
            assertEquals(16_384, region.payload().byteSize());
            assertEquals(0, region.payload().segment().address() % SketchFileLayout.CACHE_LINE);
        }
    }

    private static long[] unbox(Long[] values) {
        long[] out = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = values[i];
        }
        return out;
    }
}
