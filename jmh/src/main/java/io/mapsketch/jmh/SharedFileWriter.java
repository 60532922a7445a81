package io.mapsketch.jmh;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.frequency.FrequencySketch;
import io.mapsketch.membership.MembershipFilter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.LongUnaryOperator;

/**
 * A child JVM that opens a sketch file {@code SHARED} and adds keys to it flat out, one
 * {@code add(long)} at a time, until its parent tells it to stop: the concurrent writer of the
 * latency benchmarks. The parent side ({@link #start}, {@link #stop}) runs the child with the parent's
 * own {@code java}, class path and {@code --add-modules jdk.incubator.vector}.
 *
 * <p>Protocol: the child prints {@code adding} on its standard output once its first
 * {@value #CHUNK} adds are done, adds until a line (or the end) arrives on its standard input, then
 * prints {@code added N} (the keys it added) and exits. Its standard error is the parent's.
 *
 * <p>Keys ({@link Keys}): {@code present N} cycles through keys {@code 0 .. N - 1} of
 * {@link KeyStreams#key} in a seeded random order (a filter that holds them keeps exactly its bits);
 * {@code zipf N} cycles through {@link BenchmarkSettings#frequencyStream} of {@code N} keys;
 * {@code fresh} adds keys from index 2^50 on, never repeated.
 */
public final class SharedFileWriter implements AutoCloseable {

    /** Adds between two looks at the stop flag. */
    static final int CHUNK = 1024;

    private static final long FRESH_FIRST_INDEX = 1L << 50;
    private static final long ORDER_SEED = 0x51A7_ED0F_F11E_0001L;
    private static final long STOP_TIMEOUT_SECONDS = 60;

    /** The keys a writer adds: {@code present N}, {@code zipf N} or {@code fresh}. */
    record Keys(String kind, int count) {

        /** Keys {@code 0 .. count - 1}, cycled in a seeded random order. */
        static Keys present(int count) {
            return new Keys("present", count);
        }

        /** The frequency question's Zipf stream of {@code length} keys, cycled. */
        static Keys zipf(int length) {
            return new Keys("zipf", length);
        }

        /** Keys never added before, never repeated. */
        static Keys fresh() {
            return new Keys("fresh", 0);
        }

        List<String> arguments() {
            return List.of(kind, Integer.toString(count));
        }

        /** Key number {@code i} of the sequence the writer adds. */
        LongUnaryOperator sequence() {
            return switch (kind) {
                case "present" -> cycle(presentKeys(count));
                case "zipf" -> cycle(BenchmarkSettings.frequencyStream(count));
                case "fresh" -> i -> KeyStreams.key(FRESH_FIRST_INDEX + i);
                default -> throw new IllegalArgumentException("keys " + kind + " are none of present, zipf, fresh");
            };
        }

        private static long[] presentKeys(int count) {
            long[] keys = new long[count];
            for (int i = 0; i < count; i++) {
                keys[i] = KeyStreams.key(i);
            }
            KeyStreams.shuffle(keys, new SplittableRandom(ORDER_SEED));
            return keys;
        }

        private static LongUnaryOperator cycle(long[] keys) {
            return i -> keys[(int) (i % keys.length)];
        }
    }

    private final Process process;
    private final BufferedReader output;

    private SharedFileWriter(Process process) {
        this.process = process;
        this.output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /**
     * Starts a writer of {@code file} and returns once it is adding.
     *
     * @param file a sketch file that a {@code SHARED} writer can open
     * @param keys what it adds
     * @return the running writer
     * @throws IOException if the child cannot be started, or ends or says something else before adding
     */
    static SharedFileWriter start(Path file, Keys keys) throws IOException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(List.of(
                java.toString(),
                "--add-modules=jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                SharedFileWriter.class.getName(),
                file.toString()));
        command.addAll(keys.arguments());
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        SharedFileWriter writer = new SharedFileWriter(process);
        String first = writer.output.readLine();
        if (!"adding".equals(first)) {
            process.destroyForcibly();
            throw new IOException("the writer of " + file + " did not start adding; it said " + first);
        }
        return writer;
    }

    /**
     * Tells the writer to stop and waits for it to exit.
     *
     * @return the keys it added
     * @throws IOException if it does not report its count or does not exit cleanly in time
     */
    long stop() throws IOException {
        try (Writer input = process.outputWriter(StandardCharsets.UTF_8)) {
            input.write("stop\n");
        }
        String last = output.readLine();
        try {
            if (!process.waitFor(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IOException("the writer did not exit cleanly after 'stop'; its last line: " + last);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the writer", e);
        }
        if (last == null || !last.startsWith("added ")) {
            throw new IOException("the writer did not report its count; it said " + last);
        }
        return Long.parseLong(last.substring("added ".length()));
    }

    /** Kills the writer if it still runs (after a failed setup or stop). */
    @Override
    public void close() {
        process.destroyForcibly();
    }

    /**
     * The child: {@code SharedFileWriter FILE KIND COUNT}.
     *
     * @param args the sketch file and the {@link Keys}
     * @throws IOException if the file cannot be opened {@code SHARED}
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: SharedFileWriter FILE KIND COUNT; got " + List.of(args));
        }
        LongUnaryOperator keys = new Keys(args[1], Integer.parseInt(args[2])).sequence();
        PrintStream out = System.out;
        try (Sketch sketch = Sketch.open(Path.of(args[0]), OpenMode.SHARED)) {
            LongConsumer add = adder(sketch);
            StopSignal stop = StopSignal.onInput();
            long added = addChunk(add, keys, 0);
            out.println("adding");
            out.flush();
            while (!stop.raised()) {
                added = addChunk(add, keys, added);
            }
            out.println("added " + added);
            out.flush();
        }
    }

    private static long addChunk(LongConsumer add, LongUnaryOperator keys, long from) {
        for (int i = 0; i < CHUNK; i++) {
            add.accept(keys.applyAsLong(from + i));
        }
        return from + CHUNK;
    }

    private static LongConsumer adder(Sketch sketch) {
        return switch (sketch) {
            case MembershipFilter filter -> filter::add;
            case FrequencySketch frequencies -> frequencies::add;
            case HyperLogLog counter -> counter::add;
            default -> throw new IllegalArgumentException(sketch.kind() + " has no add(long) that this writer knows");
        };
    }

    /** Raised when a line, or the end, arrives on standard input. */
    private static final class StopSignal {

        private volatile boolean raised;

        static StopSignal onInput() {
            StopSignal signal = new StopSignal();
            Thread watcher = new Thread(
                    () -> {
                        try {
                            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
                        } catch (IOException e) {
                            // an unreadable input ends the writer as its end would
                        }
                        signal.raised = true;
                    },
                    "stop-signal");
            watcher.setDaemon(true);
            watcher.start();
            return signal;
        }

        boolean raised() {
            return raised;
        }
    }
}
