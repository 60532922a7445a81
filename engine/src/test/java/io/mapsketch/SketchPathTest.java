package io.mapsketch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.MembershipFilter;
import io.mapsketch.membership.ScalableBloomFilter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A path that holds no sketch of the kind asked for is refused in terms of the path the caller gave,
 * never of a file inside it that the caller never wrote.
 */
class SketchPathTest {

    @TempDir
    Path dir;

    @Test
    void aDirectoryWithoutAManifestIsNamedAsGiven() throws Exception {
        Path folder = Files.createDirectory(dir.resolve("folder"));
        for (OpenMode mode : OpenMode.values()) {
            CorruptSketchFileException scalable =
                    assertThrows(CorruptSketchFileException.class, () -> ScalableBloomFilter.open(folder, mode));
            assertEquals(folder, scalable.file());
            assertEquals(
                    "sketch file " + folder + ": is a directory but not a scalable Bloom filter (it holds no"
                            + " manifest)",
                    scalable.getMessage());
            CorruptSketchFileException membership =
                    assertThrows(CorruptSketchFileException.class, () -> MembershipFilter.open(folder, mode));
            assertEquals(scalable.getMessage(), membership.getMessage());
        }
        assertFalse(Files.exists(folder.resolve(ScalableBloomFilter.MANIFEST)), "nothing was created");
    }

    @Test
    void aDirectoryIsNoSketchFile() throws Exception {
        Path folder = Files.createDirectory(dir.resolve("counts"));
        CorruptSketchFileException refused =
                assertThrows(CorruptSketchFileException.class, () -> CountMinSketch.open(folder, OpenMode.SHARED));
        assertTrue(
                refused.getMessage().startsWith("sketch file " + folder + ": is a directory, not a regular file"),
                refused.getMessage());
    }

    @Test
    void aScalableFilterIsADirectory() throws Exception {
        Path file = dir.resolve("flat.bf");
        BloomFilter.builder()
                .expectedItems(100)
                .falsePositiveRate(0.01)
                .create(file, OpenMode.EXCLUSIVE)
                .close();
        CorruptSketchFileException refused = assertThrows(
                CorruptSketchFileException.class, () -> ScalableBloomFilter.open(file, OpenMode.READ_ONLY));
        assertEquals(
                "sketch file " + file + ": is not a directory, and a scalable Bloom filter is one",
                refused.getMessage());
        Path missing = dir.resolve("missing");
        NoSuchFileException none =
                assertThrows(NoSuchFileException.class, () -> ScalableBloomFilter.open(missing, OpenMode.READ_ONLY));
        assertEquals(missing.toString(), none.getFile());
    }
}
