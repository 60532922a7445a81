package io.mapsketch.memory;

import static io.mapsketch.memory.Faults.assertFault;
import static io.mapsketch.memory.FileFault.Reason.STORAGE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.testing.SmallDisk;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Creating sketch files on a full disk: a 1 MiB tmpfs mounted for the test. Creation writes every
 * byte of the file before it gets its name, so a file that does not fit fails with an IOException
 * naming it and leaves nothing behind, and a file that was created can never meet a full disk
 * through its mapping ({@link SmallDisk}: skipped, saying so, where mounting is refused).
 */
class FullDiskTest {

    private static final long SMALL_DISK = 1 << 20;

    @TempDir
    Path dir;

    private SmallDisk smallDisk;
    private Path disk;

    @BeforeEach
    void mountSmallDisk() throws Exception {
        smallDisk = SmallDisk.mount(dir, "small-disk", SMALL_DISK);
        disk = smallDisk.path();
    }

    @AfterEach
    void unmount() throws Exception {
        if (smallDisk != null) {
            smallDisk.close();
        }
    }

    private static SketchHeader header(long payloadBytes) {
        return SketchHeader.forNewSketch(TestKinds.COUNT_MIN, HashScheme.XXH3_64, 1, new long[0], payloadBytes);
    }

    private List<String> names() throws IOException {
        try (Stream<Path> files = Files.list(disk)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aFileLargerThanTheFreeSpaceFailsCleanlyAndLeavesNothing() throws IOException {
        Path big = disk.resolve("big.sketch");
        IOException full = assertThrows(
                IOException.class, () -> SketchRegions.create(big, header(2 * SMALL_DISK), RegionMode.SHARED));
        assertTrue(full.getMessage().startsWith("cannot create " + big + ": writing its "), full.getMessage());
        assertTrue(full.getMessage().contains("No space left on device"), full.getMessage());
        assertEquals(List.of(), names(), "neither the file nor its temporary file is left");
    }

    /**
     * A sparse copy of a file larger than the disk (written there as its header and a hole): a writer
     * is refused before anything is mapped, since a store into a hole would kill the JVM with SIGBUS;
     * a reader, who stores nothing, may open it.
     */
    @Test
    void aSparseFileThatCannotBeBackedIsRefusedToWriters() throws Exception {
        Path valid = dir.resolve("valid.sketch");
        SketchRegions.create(valid, header(2 * SMALL_DISK), RegionMode.SHARED).close();
        Path sparse = SmallDisk.sparseCopy(valid, disk.resolve("restored.sketch"));
        for (RegionMode mode : new RegionMode[] {RegionMode.SHARED, RegionMode.EXCLUSIVE}) {
            FileFault refused =
                    assertFault(STORAGE, () -> SketchRegions.open(sparse, mode).close(), mode.name());
            assertTrue(refused.getMessage().startsWith("sketch file " + sparse + ": only "), refused.getMessage());
            assertTrue(refused.getMessage().contains("ENOSPC (no space left on device)"), refused.getMessage());
        }
        try (SketchRegion reader = SketchRegions.open(sparse, RegionMode.READ_ONLY)) {
            assertEquals(0, reader.payload().getLong(2 * SMALL_DISK - 8));
            assertTrue(reader.wasCleanlyClosed(), "no writer registered");
        }
    }

    @Test
    void filesAreCreatedUntilTheDiskIsFullAndEveryCreatedOneStaysUsable() throws IOException {
        long payload = 192 * 1024;
        int created = 0;
        while (true) {
            Path file = disk.resolve("part-" + created + ".sketch");
            try {
                SketchRegions.create(file, header(payload), RegionMode.EXCLUSIVE)
                        .close();
                created++;
            } catch (IOException full) {
                assertTrue(full.getMessage().contains("No space left on device"), full.getMessage());
                assertFalse(Files.exists(file));
                break;
            }
        }
        assertTrue(created >= 3 && created < 6, "1 MiB holds 3 to 5 files of 196 KiB: " + created);
        assertEquals(created, names().size(), "no temporary file is left: " + names());
        for (int i = 0; i < created; i++) {
            try (SketchRegion region = SketchRegions.open(disk.resolve("part-" + i + ".sketch"), RegionMode.SHARED)) {
                for (long offset = 0; offset < payload; offset += 4096) {
                    region.payload().putLong(offset, -1);
                }
                region.force();
            }
        }
    }
}
