package io.mapsketch.jmh;

import static io.mapsketch.jmh.BenchmarkSettings.BLOOM_FALSE_POSITIVE_RATE;
import static io.mapsketch.jmh.BenchmarkSettings.COUNT_MIN_DELTA;
import static io.mapsketch.jmh.BenchmarkSettings.SKETCH_SEED;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.membership.BlockedBloomFilter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * One writer process of {@link ManyWritersBenchmark}: {@code SKETCH FILE FIRST COUNT} warms its add loop up
 * on an anonymous {@code SHARED} sketch of the same shape, opens the file {@code SHARED}, says
 * {@code ready}, waits for {@code go} on standard input, adds keys {@code FIRST .. FIRST + COUNT - 1}
 * ({@link KeyStreams#key}) one at a time, and says {@code done T0 T1 C} with the {@link System#nanoTime}
 * of its first and after its last add (one clock for every process of the machine) and the CPU time its
 * thread spent adding, in nanoseconds.
 */
public final class ManyWritersWorker {

    /** Keys each warm-up pass adds, and the passes: enough for C2 to compile the add path. */
    private static final int WARM_UP_KEYS = 1_000_000;

    private static final int WARM_UP_PASSES = 2;

    private ManyWritersWorker() {}

    /** The sketches of the question: blocked Bloom at 50M keys, Count-Min of 64 MiB, HyperLogLog at p = 14. */
    enum Shape {
        BLOCKED_BLOOM("blocked-bloom"),
        COUNT_MIN("count-min"),
        HYPERLOGLOG("hyperloglog");

        final String label;

        Shape(String label) {
            this.label = label;
        }

        static Shape of(String label) {
            for (Shape shape : values()) {
                if (shape.label.equals(label)) {
                    return shape;
                }
            }
            throw new IllegalArgumentException(
                    "sketch = " + label + ", must be one of blocked-bloom, count-min, hyperloglog");
        }

        /**
         * The keys a round of this sketch adds, of the run's {@code keys}: HyperLogLog's add costs about a
         * twentieth of the others' (17 ns of CPU per key against 330 and 510 ns in the writers suite), so it
         * takes thirty times as many, so that its round outlasts the writers' start
         * ({@code docs/design/live-counters.md}, "Measured: many writer processes").
         */
        long keys(long keys) {
            return this == HYPERLOGLOG ? Math.multiplyExact(keys, 30) : keys;
        }

        /** Creates the sketch in {@code file}, or anonymous if {@code file} is null, open {@code SHARED}. */
        Sketch create(Path file) throws IOException {
            return switch (this) {
                case BLOCKED_BLOOM -> {
                    var builder = BlockedBloomFilter.builder()
                            .expectedItems(50_000_000)
                            .falsePositiveRate(BLOOM_FALSE_POSITIVE_RATE)
                            .seed(SKETCH_SEED);
                    yield file == null
                            ? builder.createAnonymous(OpenMode.SHARED)
                            : builder.create(file, OpenMode.SHARED);
                }
                case COUNT_MIN -> {
                    var builder = CountMinSketch.builder()
                            .epsilon(CountMinBenchmark.LARGE_EPSILON)
                            .delta(COUNT_MIN_DELTA)
                            .counterBits(32)
                            .seed(SKETCH_SEED);
                    yield file == null
                            ? builder.createAnonymous(OpenMode.SHARED)
                            : builder.create(file, OpenMode.SHARED);
                }
                case HYPERLOGLOG -> {
                    var builder = HyperLogLog.builder().precision(14).seed(SKETCH_SEED);
                    yield file == null
                            ? builder.createAnonymous(OpenMode.SHARED)
                            : builder.create(file, OpenMode.SHARED);
                }
            };
        }

        /** Adds keys {@code first .. first + count - 1}, one call per key. */
        void addKeys(Sketch sketch, long first, long count) {
            switch (this) {
                case BLOCKED_BLOOM -> {
                    BlockedBloomFilter filter = (BlockedBloomFilter) sketch;
                    for (long i = first; i < first + count; i++) {
                        filter.add(KeyStreams.key(i));
                    }
                }
                case COUNT_MIN -> {
                    CountMinSketch counts = (CountMinSketch) sketch;
                    for (long i = first; i < first + count; i++) {
                        counts.add(KeyStreams.key(i));
                    }
                }
                case HYPERLOGLOG -> {
                    HyperLogLog distinct = (HyperLogLog) sketch;
                    for (long i = first; i < first + count; i++) {
                        distinct.add(KeyStreams.key(i));
                    }
                }
            }
        }
    }

    /**
     * Runs one writer, as the class comment says.
     *
     * @param args the sketch, the file, the first key's index and the number of keys
     * @throws IOException if the file cannot be opened
     */
    public static void main(String[] args) throws IOException {
        Shape shape = Shape.of(args[0]);
        Path file = Path.of(args[1]);
        long first = Long.parseLong(args[2]);
        long count = Long.parseLong(args[3]);
        for (int pass = 0; pass < WARM_UP_PASSES; pass++) {
            try (Sketch scratch = shape.create(null)) {
                shape.addKeys(scratch, -(pass + 1L) * WARM_UP_KEYS, WARM_UP_KEYS);
            }
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        try (Sketch sketch = Sketch.open(file, OpenMode.SHARED)) {
            System.out.println("ready");
            if (!"go".equals(in.readLine())) {
                throw new IllegalStateException("expected go on standard input");
            }
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long cpu = threads.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            shape.addKeys(sketch, first, count);
            long end = System.nanoTime();
            cpu = threads.getCurrentThreadCpuTime() - cpu;
            System.out.println("done " + start + " " + end + " " + cpu);
        }
    }
}
