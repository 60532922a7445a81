package io.mapsketch.frequency;

import io.mapsketch.OpenMode;
import io.mapsketch.internal.HeaderFormat;
import io.mapsketch.memory.HashScheme;
import io.mapsketch.memory.RegionMode;
import io.mapsketch.memory.SketchHeader;
import io.mapsketch.memory.SketchRegions;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Empty Count-Min and Top-K files of a chosen format version, made as the builds that wrote that
 * version made them: the builder's header parameters (the format description's), the version in the header, a zero payload.
 * Opening them is the engine's own path for files of that version.
 */
final class OlderFrequencyFiles {

    private OlderFrequencyFiles() {}

    /** Creates an empty Count-Min file of {@code version} and opens it in {@code mode}. */
    static CountMinSketch countMin(Path file, int version, CountMinFormat shape, long seed, OpenMode mode)
            throws IOException {
        create(file, version, shape, seed);
        return CountMinSketch.open(file, mode);
    }

    /** Creates an empty Top-K file of {@code version} with k candidates of 64-byte keys and opens it. */
    static TopK topK(Path file, int version, CountMinFormat shape, int k, long seed, OpenMode mode) throws IOException {
        create(file, version, new TopKFormat(shape, k, TopK.DEFAULT_MAX_KEY_BYTES), seed);
        return TopK.open(file, mode);
    }

    private static void create(Path file, int version, HeaderFormat format, long seed) throws IOException {
        SketchHeader header = SketchHeader.forNewSketch(
                        format.kind().id(), HashScheme.XXH3_64, seed, format.encode(), format.payloadBytes())
                .withFormatVersion(version);
        SketchRegions.create(file, header, RegionMode.EXCLUSIVE).close();
    }
}
