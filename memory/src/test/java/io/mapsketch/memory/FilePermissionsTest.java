package io.mapsketch.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.mapsketch.testing.ChildJvm;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may read and change a sketch file: new files are 0644 or, asked for, 0600; a read-only opener
 * cannot change a byte; a user without write permission cannot open the file as a writer.
 */
class FilePermissionsTest {

    private static final String NOBODY = "65534";

    @TempDir
    Path dir;

    private static SketchHeader header() {
        return SketchHeader.forNewSketch(TestKinds.HYPERLOGLOG, HashScheme.XXH3_64, 1, new long[] {6}, 64);
    }

    @Test
    void newFilesAreReadableByAllOrByTheirOwnerOnly() throws IOException {
        Path shared = dir.resolve("shared.sketch");
        Path personal = dir.resolve("personal.sketch");
        SketchRegions.create(shared, header(), RegionMode.EXCLUSIVE).close();
        SketchRegions.create(personal, header(), RegionMode.EXCLUSIVE, CreateFlag.OWNER_ONLY)
                .close();
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(shared)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(personal)));
        SketchRegions.create(personal, header(), RegionMode.EXCLUSIVE, CreateFlag.OVERWRITE_EXISTING)
                .close();
        assertEquals(
                "rw-r--r--",
                PosixFilePermissions.toString(Files.getPosixFilePermissions(personal)),
                "a replacement gets the permissions asked for it");
    }

    @Test
    void aReadOnlyOpenerCannotChangeAByte() throws IOException {
        Path file = dir.resolve("read-only.sketch");
        SketchRegions.create(file, header(), RegionMode.EXCLUSIVE).close();
        byte[] before = Files.readAllBytes(file);
        try (SketchRegion reader = SketchRegions.open(file, RegionMode.READ_ONLY)) {
            RuntimeException store =
                    assertThrows(RuntimeException.class, () -> reader.payload().putLong(0, -1));
            assertTrue(store.getMessage().contains("read-only"), store.getMessage());
            assertThrows(RuntimeException.class, () -> reader.payload().compareAndSetLong(8, 0, 1));
            assertThrows(IllegalStateException.class, () -> reader.addItems(1));
        }
        assertArrayEquals(before, Files.readAllBytes(file));
    }

    /**
     * Runs a child JVM as user nobody (setpriv) against a 0444 file: it may open it read-only and is
     * refused as a writer. Needs root (to drop to nobody) and setpriv; skipped otherwise, saying which.
     */
    @Test
    void aUserWithoutWritePermissionCannotOpenAWriter() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root to run a child as nobody");
        Path setpriv = Stream.of("/usr/bin/setpriv", "/bin/setpriv")
                .map(Path::of)
                .filter(Files::isExecutable)
                .findFirst()
                .orElse(null);
        assumeTrue(setpriv != null, "needs setpriv to drop privileges");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path file = dir.resolve("frozen.sketch");
        SketchRegions.create(file, header(), RegionMode.EXCLUSIVE).close();
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--r--r--"));
        Path classes = copyClassDirectories(dir.resolve("classes"));
        assertEquals(
                "opened READ_ONLY",
                runAsNobody(setpriv, classes, file, "READ_ONLY").getFirst());
        List<String> writer = runAsNobody(setpriv, classes, file, "SHARED");
        String all = String.join("\n", writer);
        assertTrue(all.contains("AccessDeniedException") && all.contains(file.toString()), all);
    }

    /** Copies the class directories of this JVM's class path where user nobody can read them. */
    private static Path copyClassDirectories(Path target) throws IOException {
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path source = Path.of(entry);
            if (!Files.isDirectory(source)) {
                continue;
            }
            try (Stream<Path> tree = Files.walk(source)) {
                for (Path from : (Iterable<Path>) tree::iterator) {
                    Path to = target.resolve(source.relativize(from).toString());
                    if (Files.isDirectory(from)) {
                        Files.createDirectories(to);
                    } else if (!Files.exists(to)) {
                        Files.copy(from, to);
                    }
                }
            }
        }
        try (Stream<Path> tree = Files.walk(target)) {
            for (Path path : (Iterable<Path>) tree::iterator) {
                Files.setPosixFilePermissions(
                        path, PosixFilePermissions.fromString(Files.isDirectory(path) ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
        return target;
    }

    /** Runs {@code RegionWorker try-open FILE MODE} as nobody; returns its stdout and stderr lines. */
    private static List<String> runAsNobody(Path setpriv, Path classes, Path file, String mode) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = new ArrayList<>(List.of(
                setpriv.toString(),
                "--reuid=" + NOBODY,
                "--regid=" + NOBODY,
                "--clear-groups",
                java,
                ChildJvm.NATIVE_ACCESS,
                "-cp",
                classes.toString(),
                RegionWorker.class.getName(),
                "try-open",
                file.toString(),
                mode));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "child as nobody did not finish");
        return List.of(new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).split("\n"));
    }
}
