package io.mapsketch.jmh;

import io.mapsketch.jmh.HyperLogLogImplementations.Sketch;
import java.nio.file.Path;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;

/**
 * The latency of single HyperLogLog calls: percentiles of one {@code add} or one {@code estimate}, in
 * nanoseconds ({@link LatencyBenchmark}: {@code SampleTime}, one call per invocation), for mapsketch's
 * {@code HyperLogLog} in {@code EXCLUSIVE} and {@code SHARED} mode and in {@code SHARED} mode while a
 * second JVM adds to the same file flat out ({@code mapsketch-shared-writer}), against DataSketches'
 * {@code HllSketch} ({@code HLL_8}), configured as in {@link HyperLogLogBenchmark}
 * ({@link HyperLogLogImplementations}). Precision 14: 16 KiB of registers, in cache (a HyperLogLog has
 * no out-of-cache size).
 *
 * <p><b>Keys and state.</b> The setup adds 2^20 distinct keys (indices {@code 0 .. 2^20 - 1} of
 * {@link KeyStreams#key}); {@link #add} adds them again, walked with a cursor, so an add is the steady
 * state of a dense sketch: hash, pick a register, compare, and almost never raise. {@link #estimate}
 * asks the filled sketch. The writer JVM adds new keys, never repeated
 * ({@link SharedFileWriter.Keys#fresh}): past a few million keys a new key raises a register rarely
 * (about m / n of the time), and each raise changes a register line the reader reads and the
 * header's summary line, which makes mapsketch's next estimate compute afresh instead of returning its
 * kept one. The fill does not otherwise matter: an add or an estimate costs the same whatever the
 * count.
 */
public class HyperLogLogLatencyBenchmark extends LatencyBenchmark {

    private static final int FILL_KEYS = 1 << 20;

    /**
     * Implementation: {@code mapsketch}, {@code mapsketch-shared}, {@code mapsketch-shared-writer} or
     * {@code datasketches-hll8} (or any other of {@link HyperLogLogImplementations}).
     */
    @Param({"mapsketch", "mapsketch-shared", "mapsketch-shared-writer", "datasketches-hll8"})
    public String impl;

    /** Precision p: 2^p registers. */
    @Param({"14"})
    public int precision;

    private Sketch sketch;
    private long[] keys;
    private int cursor;

    /** Creates the state; JMH calls this once per fork. */
    public HyperLogLogLatencyBenchmark() {}

    @Override
    String impl() {
        return impl;
    }

    @Override
    void prepare(String created, Path file, String method) {
        sketch = HyperLogLogImplementations.create(created, precision, SketchPlacement.inFile(file));
        keys = new long[FILL_KEYS];
        for (int i = 0; i < FILL_KEYS; i++) {
            keys[i] = KeyStreams.key(i);
        }
        sketch.addAll(keys);
    }

    @Override
    SharedFileWriter.Keys writerKeys() {
        return SharedFileWriter.Keys.fresh();
    }

    @Override
    void closeSketch() {
        sketch.close();
    }

    /**
     * Adds the next key (one already added).
     *
     * @return the sketch, so the work is not dead
     */
    @Benchmark
    public Object add() {
        int at = cursor;
        cursor = (at + 1) & (FILL_KEYS - 1);
        sketch.add(keys[at]);
        return sketch;
    }

    /**
     * Estimates the distinct count.
     *
     * @return the estimate
     */
    @Benchmark
    public double estimate() {
        return sketch.estimate();
    }
}
