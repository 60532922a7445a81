package io.mapsketch.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sketch file with holes (a sparse copy, a restore) gets its blocks reserved when it is opened
 * for writing, so that a store through the mapping cannot meet a full disk later (SIGBUS); the
 * contents do not change. Allocated blocks are read with {@code stat -c %b} (512-byte units).
 */
class SparseFileTest {

    private static final long PAYLOAD = 8 << 20;

    @TempDir
    Path dir;

    /**
     * Writes a sparse copy of a valid sketch file: its header page, then a hole up to its length.
     *
     * @return the copy
     */
    static Path sparseCopy(Path valid, Path copy) throws IOException {
        byte[] header = new byte[SketchFileLayout.HEADER_LENGTH];
        System.arraycopy(Files.readAllBytes(valid), 0, header, 0, header.length);
        try (RandomAccessFile file = new RandomAccessFile(copy.toFile(), "rw")) {
            file.write(header);
            file.setLength(Files.size(valid));
        }
        return copy;
    }

    static long allocatedBytes(Path file) throws Exception {
        Process stat = new ProcessBuilder("stat", "-c", "%b", file.toString()).redirectErrorStream(true).start();
        String out = new String(stat.getInputStream().readAllBytes()).trim();
        assumeTrue(stat.waitFor(10, TimeUnit.SECONDS) && stat.exitValue() == 0, "stat -c %b failed: " + out);
        return 512 * Long.parseLong(out);
    }

    private Path sparse() throws Exception {
        Path valid = SketchFiles.create(dir.resolve("valid.sketch"), SketchFiles.header(SketchKind.COUNT_MIN, PAYLOAD));
        Path copy = sparseCopy(valid, dir.resolve("sparse.sketch"));
        assumeTrue(allocatedBytes(copy) < PAYLOAD / 2, "this file system does not keep holes");
        return copy;
    }

    @Test
    void openingForWritingReservesEveryBlock() throws Exception {
        Path file = sparse();
        byte[] before = Files.readAllBytes(file);
        try (SketchRegion region = SketchRegion.open(file, AccessMode.SHARED)) {
            long allocated = allocatedBytes(file);
            assertTrue(allocated >= Files.size(file), "allocated " + allocated + " of " + Files.size(file) + " bytes");
            assertEquals(0, region.payload().getLong(PAYLOAD - 8));
        }
        byte[] after = Files.readAllBytes(file);
        after[SketchFileLayout.FLAGS_OFFSET] = before[SketchFileLayout.FLAGS_OFFSET];
        assertArrayEquals(before, after, "contents unchanged (but for the clean-close flag)");
    }

    @Test
    void openingReadOnlyReservesNothing() throws Exception {
        Path file = sparse();
        long allocated = allocatedBytes(file);
        try (SketchRegion region = SketchRegion.open(file, AccessMode.READ_ONLY)) {
            assertEquals(0, region.payload().getLong(PAYLOAD - 8));
        }
        assertEquals(allocated, allocatedBytes(file));
    }
}
