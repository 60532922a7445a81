package io.mapsketch.memory;

import io.mapsketch.testing.HeaderSeal;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;

/** Small helpers for tests that write sketch files byte by byte. */
final class SketchFiles {

    private SketchFiles() {}

    static SketchHeader header(int kind, long payloadLength) {
        return SketchHeader.forNewSketch(kind, HashScheme.XXH3_64, 42, new long[] {95_851, 7}, payloadLength);
    }

    static Path create(Path file, SketchHeader header) throws IOException {
        SketchRegions.create(file, header, RegionMode.SHARED).close();
        return file;
    }

    /** Rewrites a header page's CRC after a deliberate edit, so the edit itself is what is tested. */
    static void rewriteChecksum(byte[] fileBytes) {
        HeaderSeal.rewriteChecksum(fileBytes);
    }

    static void putInt(byte[] bytes, int offset, int value) {
        MemorySegment.ofArray(bytes).set(HeaderCodec.INT, offset, value);
    }

    static Path write(Path file, byte[] bytes) throws IOException {
        return Files.write(file, bytes);
    }
}
