package io.mapsketch.jmh;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * What the latency benchmarks share ({@link BloomLatencyBenchmark}, {@link CountMinLatencyBenchmark},
 * {@link HyperLogLogLatencyBenchmark}): JMH's {@code SampleTime} mode, one single-key call per
 * invocation, so that the percentiles JMH reports ({@code scorePercentiles}) are those of single calls,
 * in nanoseconds, the timer's own cost included ({@link TimerFloorBenchmark} measures it). mapsketch's
 * sketch lives in a file of a new temporary directory, deleted after the trial. An {@code impl} ending
 * in {@value #WRITER_SUFFIX} (such as {@code mapsketch-blocked-shared-writer}) is the {@code SHARED}
 * implementation without the suffix while a {@link SharedFileWriter}, a second JVM, adds to the same
 * file flat out: the setup returns once that JVM is adding, and the teardown stops it and prints how
 * many keys it added, as a line starting with {@code latency-writer}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx4g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
public abstract class LatencyBenchmark {

    /** The end of an {@code impl} name that asks for a concurrent writer JVM. */
    static final String WRITER_SUFFIX = "-writer";

    private Path directory;
    private Path file;
    private SharedFileWriter writer;

    /** Creates the state; JMH creates the concrete benchmarks once per fork. */
    protected LatencyBenchmark() {}

    /** The implementation under test (its {@code impl} param). */
    abstract String impl();

    /**
     * Creates the implementation {@code impl} (the param without {@value #WRITER_SUFFIX}) and
     * prepares what {@code method} reads.
     *
     * @param impl the implementation to create
     * @param file where mapsketch's sketch is to be created
     * @param method the benchmark method that runs in this fork
     * @throws IOException if the file cannot be created
     */
    abstract void prepare(String impl, Path file, String method) throws IOException;

    /** The keys the concurrent writer adds (the class comment says why these). */
    abstract SharedFileWriter.Keys writerKeys();

    /** Closes the implementation under test. */
    abstract void closeSketch() throws IOException;

    /**
     * Prepares the implementation and, for a writer case, starts the writer JVM and waits until it
     * adds.
     *
     * @param params tells which benchmark method runs in this fork
     * @throws IOException if the file cannot be created or the writer does not start
     */
    @Setup(Level.Trial)
    public final void setUp(BenchmarkParams params) throws IOException {
        String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
        boolean withWriter = impl().endsWith(WRITER_SUFFIX);
        String created = withWriter ? impl().substring(0, impl().length() - WRITER_SUFFIX.length()) : impl();
        if (withWriter && !(created.startsWith("mapsketch") && created.endsWith("-shared"))) {
            throw new IllegalArgumentException(
                    "impl " + impl() + ": a concurrent writer needs one of mapsketch's SHARED implementations");
        }
        directory = Files.createTempDirectory("latency-benchmark");
        file = directory.resolve("sketch");
        prepare(created, file, method);
        if (withWriter) {
            writer = SharedFileWriter.start(file, writerKeys());
        }
    }

    /**
     * Stops the writer (printing its count), closes the implementation and deletes the file.
     *
     * @throws IOException if the writer does not stop cleanly or the file cannot be deleted
     */
    @TearDown(Level.Trial)
    public final void tearDown() throws IOException {
        try (SharedFileWriter running = writer) {
            if (running != null) {
                long added = running.stop();
                System.out.printf("%nlatency-writer impl=%s keys=%s added=%d%n", impl(), writerKeys(), added);
            }
        } finally {
            try {
                closeSketch();
            } finally {
                Files.deleteIfExists(file);
                Files.deleteIfExists(directory);
            }
        }
    }
}
