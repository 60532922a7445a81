package io.mapsketch.jmh;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.CountingBloomFilter;
import io.mapsketch.membership.CuckooFilter;
import io.mapsketch.membership.MembershipFilter;
import io.mapsketch.micrometer.SketchMetrics;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a metrics scrape costs: every gauge of {@link SketchMetrics} read once ({@code scrape}, with no
 * pass interval, so every figure is computed), and the one payload pass a fill ratio takes
 * ({@code fillRatio}), for a filter of {@code kind} sized for and holding {@code keys} keys at 1%
 * ({@link #kind} {@code COUNT_MIN}: a sketch at epsilon 0.001, delta 0.01 with 32-bit counters, whose
 * saturated counters need a pass once N reaches 2^32 - 1, which it does here). Milliseconds per call.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class SketchGaugeBenchmark {

    /** The sketch: {@code BLOOM}, {@code BLOCKED_BLOOM}, {@code COUNTING_BLOOM}, {@code CUCKOO} or {@code COUNT_MIN}. */
    @Param({"BLOOM", "BLOCKED_BLOOM", "COUNTING_BLOOM", "CUCKOO", "COUNT_MIN"})
    public String kind;

    /** Keys the filter is sized for and holds. */
    @Param({"50000000"})
    public int keys;

    private Sketch sketch;
    private SimpleMeterRegistry registry;

    /** Creates the state; JMH calls this once per fork. */
    public SketchGaugeBenchmark() {}

    /** Builds the sketch, fills it and binds its gauges. */
    @Setup
    public void setUp() {
        sketch = switch (kind) {
            case "BLOOM" ->
                BloomFilter.builder()
                        .expectedItems(keys)
                        .falsePositiveRate(0.01)
                        .createAnonymous(OpenMode.EXCLUSIVE);
            case "BLOCKED_BLOOM" ->
                BlockedBloomFilter.builder()
                        .expectedItems(keys)
                        .falsePositiveRate(0.01)
                        .createAnonymous(OpenMode.EXCLUSIVE);
            case "COUNTING_BLOOM" ->
                CountingBloomFilter.builder()
                        .expectedItems(keys)
                        .falsePositiveRate(0.01)
                        .createAnonymous(OpenMode.EXCLUSIVE);
            case "CUCKOO" ->
                CuckooFilter.builder()
                        .expectedItems(keys)
                        .falsePositiveRate(0.01)
                        .createAnonymous(OpenMode.EXCLUSIVE);
            case "COUNT_MIN" ->
                CountMinSketch.builder()
                        .epsilon(0.001)
                        .delta(0.01)
                        .counterBits(32)
                        .createAnonymous(OpenMode.EXCLUSIVE);
            default -> throw new IllegalArgumentException("kind = " + kind + ", must be one of the @Param values");
        };
        long[] chunk = new long[1 << 20];
        for (long first = 0; first < keys; first += chunk.length) {
            int count = (int) Math.min(chunk.length, keys - first);
            long[] batch = count == chunk.length ? chunk : new long[count];
            for (int i = 0; i < count; i++) {
                batch[i] = KeyStreams.key(first + i);
            }
            switch (sketch) {
                case MembershipFilter filter -> filter.addAll(batch);
                case CountMinSketch cms -> cms.addAll(batch);
                default -> throw new AssertionError(sketch);
            }
        }
        if (sketch instanceof CountMinSketch cms) {
            cms.add(-1L, 0xFFFF_FFFFL);
        }
        registry = new SimpleMeterRegistry();
        new SketchMetrics(sketch, Tags.empty(), Duration.ZERO).bindTo(registry);
    }

    /**
     * Frees the sketch.
     *
     * @throws IOException if it cannot be closed
     */
    @TearDown
    public void tearDown() throws IOException {
        sketch.close();
    }

    /**
     * Reads every gauge once, as a scrape does.
     *
     * @return the sum of the readings, so that none is optimised away
     */
    @Benchmark
    public double scrape() {
        double sum = 0;
        for (Meter meter : registry.getMeters()) {
            sum += ((Gauge) meter).value();
        }
        return sum;
    }

    /**
     * One payload pass: the filter's fill ratio (a Count-Min sketch's saturated counters).
     *
     * @return the figure
     */
    @Benchmark
    public double fillRatio() {
        return sketch instanceof MembershipFilter filter
                ? filter.fillRatio()
                : ((CountMinSketch) sketch).saturatedCounters();
    }
}
