package io.mapsketch.memory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM running a test main class on the same JDK and class path as this test JVM, with a
 * line-oriented conversation over its standard output. Its standard error goes to a file (the JVM
 * may print warnings there; nothing asserts that it is empty).
 */
final class ChildJvm implements AutoCloseable {

    private final Process process;
    private final BufferedReader out;
    private final Path errors;

    private ChildJvm(Process process, Path errors) {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.errors = errors;
    }

    static ChildJvm start(Path workDir, Class<?> main, String... args) throws IOException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = new ArrayList<>(List.of(java, "-Xshare:auto", "-cp",
                System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        Path errors = workDir.resolve(main.getSimpleName() + "-" + System.nanoTime() + ".stderr");
        Process process = new ProcessBuilder(command).redirectError(errors.toFile()).start();
        return new ChildJvm(process, errors);
    }

    /** Reads the child's next line of output, failing with its stderr if it exits first. */
    String readLine() {
        try {
            String line = out.readLine();
            if (line == null) {
                throw new AssertionError("child JVM exited (status " + process.waitFor() + ") before answering; stderr:\n"
                        + Files.readString(errors));
            }
            return line;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Waits for a normal exit and returns the status. */
    int waitFor(Duration timeout) throws InterruptedException, IOException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("child JVM did not exit within " + timeout + "; stderr:\n"
                    + Files.readString(errors));
        }
        return process.exitValue();
    }

    /** SIGKILL: the child gets no chance to close anything. Returns once it is gone. */
    void kill() {
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for a killed child JVM", e);
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
    }
}
