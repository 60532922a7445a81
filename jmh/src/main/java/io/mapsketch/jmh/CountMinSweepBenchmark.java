package io.mapsketch.jmh;

import static io.mapsketch.jmh.BenchmarkSettings.COUNT_MIN_DELTA;
import static io.mapsketch.jmh.BenchmarkSettings.FREQUENCY_STREAM_KEYS;
import static io.mapsketch.jmh.BenchmarkSettings.frequencyStream;

import io.mapsketch.frequency.CountMinSizing;
import io.mapsketch.jmh.CountMinImplementations.Sketch;
import java.io.IOException;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The cost of a Count-Min sketch's single-key {@code add} and {@code estimate} as the sketch grows
 * from 53 KiB (in L2) to 1 GiB (ten times the L3 cache): mapsketch's {@code CountMinSketch}
 * ({@code EXCLUSIVE}, 32-bit counters) against DataSketches', stream-lib's and Spark's, configured as
 * in {@link CountMinBenchmark} (its class comment says how, and where the peers differ), with
 * {@link MemoryFloorBenchmark}'s floors in the same run. Scores are keys per second.
 *
 * <p><b>Sizes.</b> {@link #size} is the bytes of mapsketch's counter matrix, header excluded: delta
 * 0.01 (5 rows) and the widest rows of a multiple of 16 counters (whole 64-byte lines, so no row is
 * padded) that fit, {@code width = floor(size / 320) * 16}; epsilon is {@code e / width}. The peers
 * get the same width and depth, so the same error bound, in 64-bit counters: twice the bytes.
 *
 * <p><b>State.</b> Both methods run on a sketch that holds the frequency question's whole Zipf stream
 * of 2^24 keys ({@link BenchmarkSettings#frequencyStream}), added in the setup, so that every counter
 * the keys reach has been written (its page touched) before the measurement. {@link #add} then adds
 * the stream again, {@value #BATCH} keys per call; {@link #estimate} asks {@link CountMinBenchmark}'s
 * probes (half stream positions, half keys never added), {@value #BATCH} per call, the answers
 * stored. A Count-Min sketch has no fill that changes its cost: every add and estimate touches one
 * counter per row. The setup prints each sketch's shape and counter bytes, as a line starting with
 * {@code sweep-countmin}. So that a short warm-up does not time the JIT, the setup adds the stream's
 * first 2^18 keys one at a time (the rest in batches) and estimates 2^18 probes one at a time.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx6g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
public class CountMinSweepBenchmark {

    /** Keys per benchmark call. */
    static final int BATCH = CountMinBenchmark.BATCH;

    private static final int ROW_LINE_COUNTERS = 16;
    /** Single-key calls the setup makes, so that the JIT has compiled them before JMH's warm-up. */
    private static final int COMPILE_CALLS = 1 << 18;

    /** Implementation: {@code mapsketch}, {@code datasketches}, {@code streamlib} or {@code spark}. */
    @Param({"mapsketch", "datasketches", "streamlib", "spark"})
    public String impl;

    /** Bytes of mapsketch's counter matrix, at most; the rows are as wide as fits. */
    @Param({"54400", "524288", "4194304", "33554432", "268435456", "1073741824"})
    public long size;

    private Sketch sketch;
    private KeyChunks keys;
    private final long[] estimates = new long[BATCH];

    /** Creates the state; JMH calls this once per fork. */
    public CountMinSweepBenchmark() {}

    /**
     * Creates the sketch, adds the stream, and cuts the stream (adds) or the probes (estimates) into
     * chunks.
     *
     * @param params tells which benchmark method runs in this fork
     * @throws IOException if mapsketch's file cannot be created
     */
    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) throws IOException {
        double epsilon = epsilon(size);
        sketch = CountMinImplementations.create(impl, epsilon);
        long[] stream = frequencyStream(FREQUENCY_STREAM_KEYS);
        for (int i = 0; i < COMPILE_CALLS; i++) {
            sketch.add(stream[i]);
        }
        long[] chunk = new long[BATCH];
        for (int from = COMPILE_CALLS; from < stream.length; from += BATCH) {
            System.arraycopy(stream, from, chunk, 0, BATCH);
            sketch.addAll(chunk);
        }
        System.out.printf(
                "%nsweep-countmin impl=%s size=%d epsilon=%s shape=%s counter-bytes=%d%n",
                impl, size, epsilon, sketch.shape(), sketch.counterBytes());
        if (params.getBenchmark().endsWith(".add")) {
            keys = new KeyChunks(stream, BATCH);
            return;
        }
        SplittableRandom random = new SplittableRandom(CountMinBenchmark.PROBE_SEED);
        long[] probes = CountMinBenchmark.probes(stream, random);
        KeyStreams.shuffle(probes, random);
        long sum = 0;
        for (int i = 0; i < COMPILE_CALLS; i++) {
            sum += sketch.estimate(probes[i]);
        }
        if (sum < 0) {
            throw new IllegalStateException(impl + " estimates below 0");
        }
        keys = new KeyChunks(probes, BATCH);
    }

    /**
     * The epsilon whose rows are the widest whole lines that fit {@code size} bytes at delta 0.01.
     *
     * @param size bytes of the counter matrix, at least 320 (one line per row)
     * @return {@code e / width}, nudged so that {@link CountMinSizing#width} gives that width
     * @throws IllegalArgumentException if {@code size} holds no line per row
     */
    static double epsilon(long size) {
        int depth = CountMinSizing.depth(COUNT_MIN_DELTA);
        long lines = size / ((long) depth * ROW_LINE_COUNTERS * Integer.BYTES);
        if (lines < 1) {
            throw new IllegalArgumentException("size = " + size + ", must be at least "
                    + depth * ROW_LINE_COUNTERS * Integer.BYTES + " (one 64-byte line per row)");
        }
        long width = lines * ROW_LINE_COUNTERS;
        double epsilon = Math.E / (width - 0.5);
        if (CountMinSizing.width(epsilon) != width) {
            throw new IllegalStateException(
                    "epsilon " + epsilon + " gives width " + CountMinSizing.width(epsilon) + ", not " + width);
        }
        return epsilon;
    }

    /**
     * Frees the sketch (and deletes mapsketch's file).
     *
     * @throws IOException if the file cannot be deleted
     */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        sketch.close();
    }

    /**
     * Adds the next {@value #BATCH} keys of the stream one at a time.
     *
     * @return the sketch, so the work is not dead
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object add() {
        long[] batch = keys.next();
        Sketch target = sketch;
        for (int i = 0; i < BATCH; i++) {
            target.add(batch[i]);
        }
        return target;
    }

    /**
     * Estimates the next {@value #BATCH} probes one at a time, half present and half absent keys.
     *
     * @return the estimates
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long[] estimate() {
        long[] batch = keys.next();
        long[] answers = estimates;
        Sketch source = sketch;
        for (int i = 0; i < BATCH; i++) {
            answers[i] = source.estimate(batch[i]);
        }
        return answers;
    }
}
