package io.mapsketch.memory;

import static io.mapsketch.memory.Faults.assertFault;
import static io.mapsketch.memory.FileFault.Reason.LOCKED;
import static io.mapsketch.memory.FileFault.Reason.REPLACED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.testing.ChildJvm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Creating a file over one that writers have open: refused, naming their pids, unless the caller
 * explicitly replaces a file in use; then each writer of the old file finds out at its next
 * {@code force()} or {@code close()}.
 */
class ReplacementTest {

    @TempDir
    Path dir;

    private Path file;

    private SketchHeader header() {
        return SketchFiles.header(TestKinds.COUNT_MIN, 4096);
    }

    private Path existing() throws IOException {
        file = SketchFiles.create(dir.resolve("in-use.sketch"), header());
        return file;
    }

    private void overwrite(CreateFlag... options) throws IOException {
        SketchRegions.create(file, header(), RegionMode.EXCLUSIVE, options).close();
    }

    @Test
    void aFileWithAWriterInAnotherProcessIsNotReplaced() throws Exception {
        existing();
        try (ChildJvm writer = ChildJvm.start(dir, RegionWorker.class, "hold-then-close", file.toString(), "SHARED")) {
            String pid = writer.readLine().substring("held ".length());
            byte[] before = Files.readAllBytes(file);
            FileFault refused = assertFault(LOCKED, () -> overwrite(CreateFlag.OVERWRITE_EXISTING));
            assertTrue(
                    refused.getMessage()
                            .startsWith("sketch file " + file + ": cannot replace it while writers have"
                                    + " it open (pid " + pid + " (SHARED))"),
                    refused.getMessage());
            assertTrue(refused.getMessage().contains("CreateOption.REPLACE_IN_USE"), refused.getMessage());
            assertEquals(List.of(file.getFileName().toString()), names(), "the new file's temporary file is gone");
            assertArrayEquals(before, Files.readAllBytes(file), "the file is untouched");
            writer.go();
            assertEquals("ok", writer.readLine(), "force");
            assertEquals("ok", writer.readLine(), "close");
        }
        overwrite(CreateFlag.OVERWRITE_EXISTING);
    }

    @Test
    void aWriterInThisProcessAlsoKeepsItsFile() throws IOException {
        existing();
        try (SketchRegion writer = SketchRegions.open(file, RegionMode.SHARED)) {
            FileFault refused = assertFault(LOCKED, () -> overwrite(CreateFlag.OVERWRITE_EXISTING));
            assertTrue(
                    refused.getMessage()
                            .contains("pid " + ProcessHandle.current().pid() + " (SHARED)"),
                    refused.getMessage());
            writer.force();
        }
    }

    @Test
    void theHoldersOfTheWriterLockAreListed() throws Exception {
        existing();
        assertEquals(Optional.of(List.of()), WriterLockHolders.of(file));
        try (ChildJvm shared = ChildJvm.start(dir, RegionWorker.class, "hold-then-close", file.toString(), "SHARED");
                SketchRegion here = SketchRegions.open(file, RegionMode.SHARED)) {
            long pid = Long.parseLong(shared.readLine().substring("held ".length()));
            List<WriterLockHolders.Holder> holders = WriterLockHolders.of(file).orElseThrow();
            assertEquals(2, holders.size(), holders.toString());
            assertTrue(holders.contains(new WriterLockHolders.Holder(pid, RegionMode.SHARED)), holders.toString());
            assertTrue(
                    holders.contains(
                            new WriterLockHolders.Holder(ProcessHandle.current().pid(), RegionMode.SHARED)),
                    holders.toString());
            assertEquals(RegionMode.SHARED, here.mode());
        }
        try (SketchRegion exclusive = SketchRegions.open(file, RegionMode.EXCLUSIVE)) {
            assertEquals(
                    Optional.of(List.of(
                            new WriterLockHolders.Holder(ProcessHandle.current().pid(), RegionMode.EXCLUSIVE))),
                    WriterLockHolders.of(file));
            assertEquals(RegionMode.EXCLUSIVE, exclusive.mode());
        }
    }

    /** Replacing a file in use, asked for: the writer's later force() and close() say so. */
    @Test
    void aWriterWhoseFileWasReplacedFailsAtForceAndClose() throws Exception {
        existing();
        try (ChildJvm writer = ChildJvm.start(dir, RegionWorker.class, "hold-then-close", file.toString(), "SHARED")) {
            writer.readLine();
            overwrite(CreateFlag.REPLACE_IN_USE);
            writer.go();
            String force = writer.readLine();
            assertTrue(
                    force.startsWith("failed REPLACED: sketch file " + file + ": another file is at this path now"),
                    force);
            String close = writer.readLine();
            assertTrue(close.startsWith("failed REPLACED"), close);
        }
        try (SketchRegion replaced = SketchRegions.open(file, RegionMode.EXCLUSIVE)) {
            assertTrue(replaced.wasCleanlyClosed(), "the new file knows nothing of the old one's writer");
        }
    }

    /**
     * A writer that opens the old file while it is being replaced gets the gate only after the rename,
     * finds there that the path names another file, and opens that one: no writer ever attaches to a
     * file that is no longer at its path, however the opens and replacements interleave.
     */
    @Test
    void writersOpeningDuringReplacementsAlwaysWriteTheFileAtThePath() throws Exception {
        existing();
        int replacements = 0;
        try (ChildJvm writer =
                ChildJvm.start(dir, RegionWorker.class, "churn-through-replacements", file.toString(), "400")) {
            while (replacements < 400) {
                try {
                    overwrite(CreateFlag.OVERWRITE_EXISTING);
                    replacements++;
                } catch (FileFault inUse) {
                    assertEquals(LOCKED, inUse.reason(), inUse::getMessage);
                    Thread.onSpinWait();
                }
                if (replacements % 20 == 0 && !writer.isAlive()) {
                    break;
                }
            }
            assertEquals("done 0", writer.readLine(), "writers that found their file replaced at close");
        }
        assertTrue(replacements > 10, "replacements between the writer's opens: " + replacements);
    }

    @Test
    void aWriterWhoseFileWasDeletedFailsAtForceAndClose() throws IOException {
        existing();
        SketchRegion writer = SketchRegions.open(file, RegionMode.SHARED);
        Files.delete(file);
        UncheckedIOException force = assertThrows(UncheckedIOException.class, writer::force);
        assertTrue(force.getCause() instanceof FileFault fault && fault.reason() == REPLACED, force.toString());
        assertTrue(force.getCause().getMessage().contains("no file is at this path any more"), force.toString());
        assertFault(REPLACED, writer::close);
        assertTrue(writer.isClosed());
        writer.close();
    }

    private List<String> names() throws IOException {
        try (var files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> !n.endsWith(".stderr"))
                    .sorted()
                    .toList();
        }
    }
}
