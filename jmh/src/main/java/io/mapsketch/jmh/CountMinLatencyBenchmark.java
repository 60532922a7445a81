package io.mapsketch.jmh;

import static io.mapsketch.jmh.BenchmarkSettings.FREQUENCY_STREAM_KEYS;
import static io.mapsketch.jmh.BenchmarkSettings.frequencyStream;

import io.mapsketch.jmh.CountMinImplementations.Sketch;
import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;

/**
 * The latency of single-key Count-Min calls: percentiles of one {@code add} or one {@code estimate},
 * in nanoseconds ({@link LatencyBenchmark}: {@code SampleTime}, one call per invocation), for
 * mapsketch's {@code CountMinSketch} in {@code EXCLUSIVE} and {@code SHARED} mode and in {@code SHARED}
 * mode while a second JVM adds to the same file flat out ({@code mapsketch-shared-writer}), against
 * DataSketches' {@code CountMinSketch}, configured as in {@link CountMinBenchmark}
 * ({@link CountMinImplementations}: delta 0.01, 32-bit counters for mapsketch, the same width and depth
 * for the peer).
 *
 * <p><b>Sizes.</b> {@code size} is mapsketch's counter bytes, as in {@link CountMinBenchmark}: 54,400
 * (2,719 x 5 counters, in L1/L2) for the in-cache targets, and 64 MiB in the full profile.
 *
 * <p><b>Keys and state.</b> {@link #add} walks, with a cursor, the frequency question's Zipf stream of
 * 2^24 keys ({@link BenchmarkSettings#frequencyStream}) into a sketch created empty for the trial;
 * {@link #estimate} walks {@link CountMinBenchmark}'s probes (half keys of the stream, drawn as often
 * as they occur, half keys never added, shuffled) over a sketch that holds the whole stream. The
 * writer JVM adds the same stream ({@link SharedFileWriter.Keys#zipf}), so its adds raise the very
 * counters the reader reads and raises, most often those of the heaviest keys: the cache lines of the
 * matrix move between the two cores, as they do when two processes count one stream. The fill does not
 * matter here: an add or an estimate costs the same whatever the counters hold (32-bit counters stay
 * far from saturation in a trial).
 */
public class CountMinLatencyBenchmark extends LatencyBenchmark {

    /**
     * Implementation: {@code mapsketch}, {@code mapsketch-shared}, {@code mapsketch-shared-writer} or
     * {@code datasketches} (or any other of {@link CountMinImplementations}).
     */
    @Param({"mapsketch", "mapsketch-shared", "mapsketch-shared-writer", "datasketches"})
    public String impl;

    /** Bytes of mapsketch's 32-bit counter matrix: 54400 or 67118080, as in {@link CountMinBenchmark}. */
    @Param({"54400", "67118080"})
    public long size;

    private Sketch sketch;
    private long[] keys;
    private int cursor;

    /** Creates the state; JMH calls this once per fork. */
    public CountMinLatencyBenchmark() {}

    @Override
    String impl() {
        return impl;
    }

    @Override
    void prepare(String created, Path file, String method) throws IOException {
        sketch = CountMinImplementations.create(created, CountMinBenchmark.epsilon(size), file);
        long[] stream = frequencyStream(FREQUENCY_STREAM_KEYS);
        if (method.equals("add")) {
            keys = stream;
            return;
        }
        sketch.addAll(stream);
        SplittableRandom random = new SplittableRandom(CountMinBenchmark.PROBE_SEED);
        keys = CountMinBenchmark.probes(stream, random);
        KeyStreams.shuffle(keys, random);
    }

    @Override
    SharedFileWriter.Keys writerKeys() {
        return SharedFileWriter.Keys.zipf(FREQUENCY_STREAM_KEYS);
    }

    @Override
    void closeSketch() throws IOException {
        sketch.close();
    }

    /**
     * Adds the next key of the stream (a count of 1).
     *
     * @return the sketch, so the work is not dead
     */
    @Benchmark
    public Object add() {
        int at = cursor;
        cursor = (at + 1) & (FREQUENCY_STREAM_KEYS - 1);
        sketch.add(keys[at]);
        return sketch;
    }

    /**
     * Estimates the next probe.
     *
     * @return the estimate
     */
    @Benchmark
    public long estimate() {
        int at = cursor;
        cursor = (at + 1) & (FREQUENCY_STREAM_KEYS - 1);
        return sketch.estimate(keys[at]);
    }
}
