package io.mapsketch.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
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
 * prints its warnings there; nothing asserts that it is empty). Shared with other modules' tests
 * through this module's test jar.
 */
public final class ChildJvm implements AutoCloseable {

    private final Process process;
    private final BufferedReader out;
    private final Path errors;

    private ChildJvm(Process process, Path errors) {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.errors = errors;
    }

    /**
     * The flag that grants the memory module's downcalls native access on the class path, as the
     * test JVM has it.
     */
    public static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    /**
     * Starts {@code main} with {@code args}; the test JVM's vector flag (if any) and
     * {@link #NATIVE_ACCESS} are passed on.
     *
     * @param workDir where the child's stderr file goes
     * @param main the main class, on this JVM's class path
     * @param args its arguments
     * @return the running child
     * @throws IOException if it cannot be started
     */
    public static ChildJvm start(Path workDir, Class<?> main, String... args) throws IOException {
        return start(workDir, List.of(NATIVE_ACCESS), main, args);
    }

    /**
     * Starts {@code main} with {@code args} and the given JVM options instead of {@link #NATIVE_ACCESS};
     * the test JVM's vector flag (if any) is passed on.
     *
     * @param workDir where the child's stderr file goes
     * @param jvmOptions options for the child JVM
     * @param main the main class, on this JVM's class path
     * @param args its arguments
     * @return the running child
     * @throws IOException if it cannot be started
     */
    public static ChildJvm start(Path workDir, List<String> jvmOptions, Class<?> main, String... args)
            throws IOException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = new ArrayList<>(List.of(java, "-Xshare:auto"));
        String vectorFlag = System.getProperty("mapsketch.test.vectorFlag", "");
        if (!vectorFlag.isBlank()) {
            command.add(vectorFlag);
        }
        // The JVM's own warnings go to stdout by default, where one (say, that the perf-data file of its
        // pid is locked by another process) would take the place of the child's first answer.
        command.addAll(List.of("-Xlog:disable", "-Xlog:all=warning:stderr"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        Path errors = workDir.resolve(main.getSimpleName() + "-" + System.nanoTime() + ".stderr");
        Process process =
                new ProcessBuilder(command).redirectError(errors.toFile()).start();
        return new ChildJvm(process, errors);
    }

    /**
     * Returns what the child wrote on its standard error so far.
     *
     * @return the text
     * @throws IOException if the file cannot be read
     */
    public String errors() throws IOException {
        return Files.readString(errors);
    }

    /**
     * Reads the child's next line of output, failing with its stderr if it exits first.
     *
     * @return the line
     */
    public String readLine() {
        try {
            String line = out.readLine();
            if (line == null) {
                throw new AssertionError("child JVM exited (status " + process.waitFor()
                        + ") before answering; stderr:\n" + Files.readString(errors));
            }
            return line;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /**
     * Reads every line the child wrote that has not been read yet, up to the end of its output (for
     * example after {@link #kill()}: what it printed before it died).
     *
     * @return the lines, in order
     */
    public List<String> remainingLines() {
        try {
            List<String> lines = new ArrayList<>();
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                lines.add(line);
            }
            return lines;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Waits for the child to exit, killing it and failing if it takes longer than {@code timeout}.
     *
     * @param timeout how long to wait
     * @return its exit status
     * @throws InterruptedException if interrupted while waiting
     * @throws IOException if its stderr cannot be read for the failure message
     */
    public int waitFor(Duration timeout) throws InterruptedException, IOException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(
                    "child JVM did not exit within " + timeout + "; stderr:\n" + Files.readString(errors));
        }
        return process.exitValue();
    }

    /**
     * Returns the child's process id.
     *
     * @return the pid
     */
    public long pid() {
        return process.pid();
    }

    /**
     * Tells whether the child is still running.
     *
     * @return {@code true} until it exits
     */
    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Returns the child's standard input.
     *
     * @return a stream to write lines to the child
     */
    public OutputStream input() {
        return process.getOutputStream();
    }

    /**
     * Writes one line to the child's standard input: the go-ahead a worker waits for after it says
     * {@code ready}, so that several children start their work at about the same moment.
     *
     * @throws IOException if the child's input is closed
     */
    public void go() throws IOException {
        OutputStream in = process.getOutputStream();
        in.write('\n');
        in.flush();
    }

    /**
     * SIGKILL: the child gets no chance to close anything. Returns once it is gone; what it printed
     * before it died can still be read ({@link #remainingLines()}).
     */
    public void kill() {
        process.toHandle().destroyForcibly();
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
