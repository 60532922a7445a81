package io.mapsketch.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.mapsketch.testing.SmallDisk;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sketch file with holes (a sparse copy, a restore) gets its blocks reserved when it is opened
 * for writing, so that a store through the mapping cannot meet a full disk later (SIGBUS); the
 * contents do not change ({@link SmallDisk#allocatedBytes} reads the allocation).
 */
class SparseFileTest {

    private static final long PAYLOAD = 8 << 20;

    @TempDir
    Path dir;

    private Path sparse() throws Exception {
        Path valid = SketchFiles.create(dir.resolve("valid.sketch"), SketchFiles.header(TestKinds.COUNT_MIN, PAYLOAD));
        Path copy = SmallDisk.sparseCopy(valid, dir.resolve("sparse.sketch"));
        assumeTrue(SmallDisk.allocatedBytes(copy) < PAYLOAD / 2, "this file system does not keep holes");
        return copy;
    }

    @Test
    void openingForWritingReservesEveryBlock() throws Exception {
        Path file = sparse();
        byte[] before = Files.readAllBytes(file);
        try (SketchRegion region = SketchRegions.open(file, RegionMode.SHARED)) {
            long allocated = SmallDisk.allocatedBytes(file);
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
        long allocated = SmallDisk.allocatedBytes(file);
        try (SketchRegion region = SketchRegions.open(file, RegionMode.READ_ONLY)) {
            assertEquals(0, region.payload().getLong(PAYLOAD - 8));
        }
        assertEquals(allocated, SmallDisk.allocatedBytes(file));
    }
}
