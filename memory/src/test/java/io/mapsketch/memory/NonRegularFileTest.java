package io.mapsketch.memory;

import static io.mapsketch.memory.Faults.assertFault;
import static io.mapsketch.memory.FileFault.Reason.CORRUPT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.mapsketch.testing.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A path that names no regular file is refused, typed and naming the path, before anything is
 * opened that could block: a FIFO (opening one for reading waits for a writer forever), a directory,
 * a device, and a symbolic link to any of them.
 */
class NonRegularFileTest {

    private static final Duration PROMPTLY = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private Path fifo() throws Exception {
        Path fifo = dir.resolve("pipe.sketch");
        Process mkfifo =
                new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assumeTrue(mkfifo.waitFor(10, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo is not available");
        return fifo;
    }

    private static void assertRefused(Path path, RegionMode mode, String what) {
        FileFault refused = assertTimeoutPreemptively(
                PROMPTLY,
                () -> assertFault(CORRUPT, () -> SketchRegions.open(path, mode).close()));
        assertEquals(path, refused.file());
        assertTrue(
                refused.getMessage().startsWith("sketch file " + path + ": is " + what + ", not a regular file"),
                refused.getMessage());
    }

    @ParameterizedTest
    @EnumSource(RegionMode.class)
    void aFifoIsRefusedAtOnceInEveryMode(RegionMode mode) throws Exception {
        assertRefused(fifo(), mode, "a FIFO (named pipe)");
    }

    @ParameterizedTest
    @EnumSource(RegionMode.class)
    void aDirectoryIsRefusedInEveryMode(RegionMode mode) throws Exception {
        Path directory = Files.createDirectory(dir.resolve("folder.sketch"));
        assertRefused(directory, mode, "a directory");
    }

    @Test
    void aDeviceIsRefused() {
        Path device = Path.of("/dev/null");
        assumeTrue(Files.exists(device), "no /dev/null");
        assertRefused(device, RegionMode.READ_ONLY, "a character device");
    }

    @Test
    void aLinkIsFollowedToWhatItNames() throws Exception {
        Path toFifo = Files.createSymbolicLink(dir.resolve("to-pipe.sketch"), fifo());
        assertRefused(toFifo, RegionMode.READ_ONLY, "a FIFO (named pipe)");
        Path file = SketchFiles.create(dir.resolve("real.sketch"), SketchFiles.header(TestKinds.BLOOM, 4096));
        Path toFile = Files.createSymbolicLink(dir.resolve("to-real.sketch"), file);
        try (SketchRegion region = SketchRegions.open(toFile, RegionMode.SHARED)) {
            assertEquals(TestKinds.BLOOM, region.header().kindId());
        }
    }

    /** Creation with overwrite does not replace a directory (or a FIFO) that is in the way. */
    @Test
    void creationDoesNotReplaceADirectory() throws Exception {
        Path directory = Files.createDirectory(dir.resolve("occupied.sketch"));
        FileFault refused = assertFault(
                CORRUPT,
                () -> SketchRegions.create(
                        directory,
                        SketchFiles.header(TestKinds.BLOOM, 4096),
                        RegionMode.SHARED,
                        CreateFlag.OVERWRITE_EXISTING));
        assertTrue(refused.getMessage().contains("is a directory"), refused.getMessage());
        assertTrue(Files.isDirectory(directory));
    }

    /**
     * Without native access a path is checked before it is opened: a FIFO is still refused, typed,
     * in a JVM that denies native access (where the library says once what that leaves unprotected).
     */
    @Test
    void withoutNativeAccessAFifoIsStillRefused() throws Exception {
        Path fifo = fifo();
        try (ChildJvm child = ChildJvm.start(
                dir,
                List.of("--illegal-native-access=deny"),
                RegionWorker.class,
                "try-open",
                fifo.toString(),
                "READ_ONLY")) {
            assertEquals(1, child.waitFor(Duration.ofSeconds(60)));
            String errors = child.errors();
            assertTrue(
                    errors.contains(
                            "refused CORRUPT: sketch file " + fifo + ": is a FIFO (named pipe), not a regular file"),
                    errors);
        }
    }
}
