package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.mapsketch.memory.SketchFileLayout;
import io.mapsketch.memory.WriterLockHolders;
import io.mapsketch.testing.ChildJvm;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The verbs at a file's doors: a file that other processes write is not replaced by {@code --force}
 * alone, paths that are no sketch file are named as given, a repaired writer count is reported, and
 * {@code info} shows who holds the writer lock.
 */
class SharedFileVerbsTest {

    @TempDir
    Path dir;

    private String bloom(String name) {
        String file = dir.resolve(name).toString();
        assertEquals(
                0,
                InProcess.run("bf", "create", file, "--capacity", "1000", "--error-rate", "0.01")
                        .status());
        return file;
    }

    private static void assertOneLineFault(InProcess.Result result, String start) {
        assertEquals(1, result.status(), result.err());
        assertEquals(1, result.err().lines().count(), result.err());
        assertTrue(result.err().startsWith("mapsketch: " + start), result.err());
    }

    /** Starts {@code bf add FILE} in a child JVM, which holds the file SHARED until its input ends. */
    private ChildJvm writer(String file) throws Exception {
        ChildJvm writer = ChildJvm.start(dir, Main.class, "bf", "add", file);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (WriterLockHolders.of(Path.of(file)).orElseThrow().isEmpty()) {
            assertTrue(writer.isAlive() && System.nanoTime() < deadline, "the writer did not open the file");
            Thread.sleep(10);
        }
        return writer;
    }

    @Test
    void forceDoesNotReplaceAFileThatAnotherProcessWrites() throws Exception {
        String file = bloom("busy.bf");
        try (ChildJvm writer = writer(file)) {
            String[] create = {"bf", "create", file, "--capacity", "10", "--error-rate", "0.1", "--force"};
            assertOneLineFault(
                    InProcess.run(create),
                    "sketch file " + file + ": cannot replace it while writers have" + " it open (pid " + writer.pid()
                            + " (SHARED))");
            assertEquals(
                    2,
                    InProcess.run("bf", "create", file, "--capacity", "10", "--error-rate", "0.1", "--replace-in-use")
                            .status(),
                    "--replace-in-use without --force");
            String[] replace = {
                "bf", "create", file, "--capacity", "10", "--error-rate", "0.1", "--force", "--replace-in-use"
            };
            InProcess.Result replaced = InProcess.run(replace);
            assertEquals(0, replaced.status(), replaced.err());
            writer.input().write("late\n".getBytes(StandardCharsets.UTF_8));
            writer.input().close();
            assertEquals(1, writer.waitFor(Duration.ofSeconds(60)), "the writer of the replaced file fails");
            String failure = writer.errors();
            assertTrue(
                    failure.contains("mapsketch: sketch file " + file + ": another file is at this path now"), failure);
        }
        assertEquals(List.of("0"), InProcess.run("bf", "exists", file, "late").lines(), "the new file has no late add");
    }

    @Test
    void pathsThatAreNoSketchFileAreNamedAsGiven() throws Exception {
        Path folder = Files.createDirectory(dir.resolve("folder"));
        assertOneLineFault(
                InProcess.run("cms", "query", folder.toString(), "x"),
                "sketch file " + folder + ": is a directory, not a regular file");
        for (String[] verb : new String[][] {{"bf", "exists", folder.toString(), "x"}, {"info", folder.toString()}}) {
            InProcess.Result result = InProcess.run(verb);
            assertOneLineFault(result, "sketch file " + folder + ": is a directory but not a scalable Bloom filter");
            assertTrue(!result.err().contains("manifest.sketch"), result.err());
        }
        Path fifo = dir.resolve("pipe");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assumeTrue(mkfifo.waitFor(10, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo is not available");
        InProcess.Result pipe =
                assertTimeoutPreemptively(Duration.ofSeconds(10), () -> InProcess.run("info", fifo.toString()));
        assertOneLineFault(pipe, "sketch file " + fifo + ": is a FIFO (named pipe), not a regular file");
    }

    @Test
    void aRepairedWriterCountIsReportedAndInfoShowsTheLockHolders() throws Exception {
        String file = bloom("counted.bf");
        try (FileChannel channel = FileChannel.open(Path.of(file), StandardOpenOption.WRITE)) {
            channel.write(
                    ByteBuffer.allocate(8)
                            .order(ByteOrder.LITTLE_ENDIAN)
                            .putInt(0, -1)
                            .putInt(4, 0),
                    SketchFileLayout.WRITERS_OFFSET);
        }
        String before = InProcess.run("info", file).out();
        assertTrue(
                before.matches(
                        "(?s).*\nattached writers: +-1\nwriters holding the lock: +0\n" + "cleanly closed: +false\n.*"),
                before);
        InProcess.Result added = InProcess.withInput("", "bf", "add", file, "x");
        assertEquals(0, added.status(), added.err());
        assertEquals(
                List.of("mapsketch: warning: sketch file " + file + ": the writer count was -1 although no other"
                        + " writer holds the file (impossible: a writer's lock was released while it was open); reset to 1,"
                        + " this writer"),
                added.err().lines().toList());
        String after = InProcess.run("info", file).out();
        assertTrue(
                after.matches(
                        "(?s).*\nattached writers: +0\nwriters holding the lock: +0\n" + "cleanly closed: +true\n.*"),
                after);
        try (ChildJvm holder = writer(file)) {
            String pid = Long.toString(holder.pid());
            String held = InProcess.run("info", file, "--json").out();
            assertTrue(
                    held.contains("\"attached_writers\": 1, \"writers_holding_the_lock\": 1, "
                            + "\"writer_lock_holders\": \"pid " + pid + " (SHARED)\", \"cleanly_closed\": false"),
                    held);
        }
    }
}
