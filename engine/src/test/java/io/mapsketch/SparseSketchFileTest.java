package io.mapsketch;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.testing.SmallDisk;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sparse copy of a HyperLogLog file (as {@code cp --sparse=always} or a restore leaves it) on a
 * disk without room for its holes: a writer's open is refused, typed, before anything is mapped,
 * where a store (or, on tmpfs, even a read) into a hole would raise SIGBUS: an
 * {@code InternalError} at best, a dead JVM once the access is compiled.
 */
class SparseSketchFileTest {

    @TempDir
    Path dir;

    @Test
    void aWriterOfASparseCopyOnAFullDiskIsRefused() throws Exception {
        Path original = dir.resolve("visitors.hll");
        try (HyperLogLog sketch = HyperLogLog.builder().precision(18).create(original, OpenMode.EXCLUSIVE)) {
            sketch.add("alice");
        }
        try (SmallDisk disk = SmallDisk.mount(dir, "small-disk", 64 * 1024)) {
            Path copy = SmallDisk.sparseCopy(original, disk.path().resolve("visitors.hll"));
            for (OpenMode mode : new OpenMode[] {OpenMode.SHARED, OpenMode.EXCLUSIVE}) {
                SketchFileStorageException refused = assertThrows(
                        SketchFileStorageException.class,
                        () -> HyperLogLog.open(copy, mode).close(),
                        mode.name());
                assertTrue(refused.getMessage().startsWith("sketch file " + copy + ": only "), refused.getMessage());
            }
        }
    }
}
