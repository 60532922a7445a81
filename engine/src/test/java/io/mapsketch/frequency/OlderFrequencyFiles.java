package io.mapsketch.frequency;

import io.mapsketch.memory.HashScheme;
import io.mapsketch.memory.RegionMode;
import io.mapsketch.memory.SketchRegions;
import io.mapsketch.OpenMode;
import io.mapsketch.memory.SketchHeader;
import io.mapsketch.SketchKind;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Empty Count-Min and Top-K files of a chosen format version, made as the builds that wrote that
 * version made them: the builder's header parameters, the version in the header, a zero payload.
 * Opening them is the engine's own path for files of that version.
 */
final class OlderFrequencyFiles {

    private OlderFrequencyFiles() {
    }

    /** Creates an empty Count-Min file of {@code version} and opens it in {@code mode}. */
    static CountMinSketch countMin(Path file, int version, CountMinParameters shape, long seed, OpenMode mode)
            throws IOException {
        create(file, SketchKind.COUNT_MIN, version, shape.toHeader(), shape.counterBytesTotal(), seed);
        return CountMinSketch.open(file, mode);
    }

    /** Creates an empty Top-K file of {@code version} with k candidates of 64-byte keys and opens it. */
    static TopK topK(Path file, int version, CountMinParameters shape, int k, long seed, OpenMode mode)
            throws IOException {
        long[] parameters = Arrays.copyOf(shape.toHeader(), CountMinParameters.COUNT + 2);
        parameters[CountMinParameters.COUNT] = k;
        parameters[CountMinParameters.COUNT + 1] = TopK.DEFAULT_MAX_KEY_BYTES;
        create(file, SketchKind.TOP_K, version, parameters,
                shape.counterBytesTotal() + CandidateTable.bytes(k, TopK.DEFAULT_MAX_KEY_BYTES), seed);
        return TopK.open(file, mode);
    }

    private static void create(Path file, SketchKind kind, int version, long[] parameters, long payloadBytes,
            long seed) throws IOException {
        SketchHeader header = SketchHeader.forNewSketch(kind.id(), HashScheme.XXH3_64, seed, parameters, payloadBytes)
                .withFormatVersion(version);
        SketchRegions.create(file, header, RegionMode.EXCLUSIVE).close();
    }
}
