package io.mapsketch.memory;

import static io.mapsketch.memory.Faults.assertFault;
import static io.mapsketch.memory.FileFault.Reason.CORRUPT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another program changes the length of a file that a writer maps. Nothing can make an access past
 * the new end safe (once compiled, a vector load there kills the JVM with SIGBUS; see
 * docs/reliability.md), but the writer is told at its next {@code force()} and at {@code close()},
 * which touch nothing of the mapping then, and the next open refuses the file.
 */
class TruncatedFileTest {

    @TempDir
    Path dir;

    private static void setLength(Path file, long length) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            if (length < channel.size()) {
                channel.truncate(length);
            } else {
                channel.write(ByteBuffer.allocate(1), length - 1);
            }
        }
    }

    private void assertToldAtForceAndClose(long newLength) throws IOException {
        Path file = SketchFiles.create(
                dir.resolve("resized-" + newLength + ".sketch"), SketchFiles.header(TestKinds.COUNT_MIN, 1 << 20));
        SketchRegion writer = SketchRegions.open(file, RegionMode.SHARED);
        setLength(file, newLength);
        UncheckedIOException force = assertThrows(UncheckedIOException.class, writer::force);
        assertTrue(force.getCause() instanceof FileFault fault && fault.reason() == CORRUPT, force.toString());
        assertTrue(
                force.getCause()
                        .getMessage()
                        .startsWith("sketch file " + file + ": file length is " + newLength + " bytes, but "
                                + (4096 + (1 << 20)) + " are mapped"),
                force.getCause().getMessage());
        FileFault close = assertFault(CORRUPT, writer::close);
        assertEquals(force.getCause().getMessage(), close.getMessage());
        assertTrue(writer.isClosed());
        assertFault(CORRUPT, () -> SketchRegions.open(file, RegionMode.READ_ONLY));
    }

    @Test
    void truncatedBelowTheHeader() throws IOException {
        assertToldAtForceAndClose(0);
    }

    @Test
    void truncatedInThePayload() throws IOException {
        assertToldAtForceAndClose(4096 + 8192);
    }

    @Test
    void extended() throws IOException {
        assertToldAtForceAndClose(4096 + (2 << 20));
    }
}
