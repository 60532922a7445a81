package io.mapsketch.jmh;

import static io.mapsketch.jmh.BenchmarkSettings.COUNT_MIN_DELTA;
import static io.mapsketch.jmh.BenchmarkSettings.FREQUENCY_STREAM_KEYS;
import static io.mapsketch.jmh.BenchmarkSettings.SKETCH_SEED;
import static io.mapsketch.jmh.BenchmarkSettings.frequencyStream;

import com.clearspring.analytics.stream.StreamSummary;
import io.mapsketch.OpenMode;
import io.mapsketch.frequency.CountMinSizing;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.frequency.TopK;
import java.io.IOException;
import java.util.Locale;
import org.apache.datasketches.frequencies.FrequentLongsSketch;

/** The frequency rows of {@link MemoryFootprint}: the Count-Min sketches and the Top-K structures. */
final class FrequencyFootprint {

    private static final String QUESTION = "frequency";
    private static final int STREAM_KEYS = FREQUENCY_STREAM_KEYS;

    private FrequencyFootprint() {}

    /**
     * Measures every sketch at the Count-Min and the Top-K benchmarks' settings, after their Zipf stream.
     *
     * @param recorder where the rows go
     * @throws IOException if a sketch file cannot be created, measured or deleted
     */
    static void measure(FootprintRecorder recorder) throws IOException {
        long[] stream = frequencyStream(STREAM_KEYS);
        double epsilon = CountMinBenchmark.SMALL_EPSILON;
        int width = CountMinSizing.width(epsilon);
        int depth = CountMinSizing.depth(COUNT_MIN_DELTA);
        String setting = String.format(
                Locale.ROOT, "Count-Min eps 0.001, delta 0.01 (%,d x %d), %,d Zipf keys", width, depth, STREAM_KEYS);
        recorder.mapsketch(
                QUESTION,
                setting,
                "mapsketch",
                file -> CountMinSketch.builder()
                        .epsilon(epsilon)
                        .delta(COUNT_MIN_DELTA)
                        .counterBits(32)
                        .seed(SKETCH_SEED)
                        .create(file, OpenMode.EXCLUSIVE),
                sketch -> sketch.addAll(stream));

        org.apache.datasketches.count.CountMinSketch datasketches = PeerConstructors.dataSketchesCountMin(
                org.apache.datasketches.count.CountMinSketch.suggestNumHashes(1 - COUNT_MIN_DELTA),
                org.apache.datasketches.count.CountMinSketch.suggestNumBuckets(epsilon));
        for (long key : stream) {
            datasketches.update(key, 1);
        }
        recorder.add(
                QUESTION,
                setting,
                "datasketches",
                datasketches.toByteArray().length,
                "toByteArray().length",
                "64-bit counters");

        com.clearspring.analytics.stream.frequency.CountMinSketch streamlib =
                new com.clearspring.analytics.stream.frequency.CountMinSketch(depth, width, (int) SKETCH_SEED);
        for (long key : stream) {
            streamlib.add(key, 1);
        }
        recorder.add(
                QUESTION,
                setting,
                "streamlib",
                com.clearspring.analytics.stream.frequency.CountMinSketch.serialize(streamlib).length,
                "CountMinSketch.serialize(sketch).length",
                "(depth, width, seed) constructor; 64-bit counters");

        org.apache.spark.util.sketch.CountMinSketch spark =
                org.apache.spark.util.sketch.CountMinSketch.create(depth, width, (int) SKETCH_SEED);
        for (long key : stream) {
            spark.addLong(key);
        }
        recorder.add(
                QUESTION,
                setting,
                "spark",
                FootprintRecorder.written(spark::writeTo),
                "writeTo: serialized bytes",
                "create(depth, width, seed); 64-bit counters");

        String topK = String.format(
                Locale.ROOT,
                "Top-K k = %d (Count-Min %,d x %d; peers %,d counters), %,d Zipf keys",
                TopKBenchmark.K,
                width,
                depth,
                TopKBenchmark.PEER_COUNTERS,
                STREAM_KEYS);
        recorder.mapsketch(
                QUESTION,
                topK,
                "mapsketch",
                file -> TopK.builder()
                        .k(TopKBenchmark.K)
                        .epsilon(epsilon)
                        .delta(COUNT_MIN_DELTA)
                        .seed(SKETCH_SEED)
                        .create(file, OpenMode.EXCLUSIVE),
                sketch -> sketch.addAll(stream));

        FrequentLongsSketch frequent = new FrequentLongsSketch(TopKBenchmark.PEER_COUNTERS);
        for (long key : stream) {
            frequent.update(key);
        }
        recorder.add(
                QUESTION,
                topK,
                "datasketches",
                frequent.toByteArray().length,
                "toByteArray().length",
                String.format(
                        Locale.ROOT,
                        "Misra-Gries, not Count-Min; serializes the %,d counters held (of up to %,d)",
                        frequent.getNumActiveItems(),
                        frequent.getCurrentMapCapacity()));

        StreamSummary<Long> summary = new StreamSummary<>(TopKBenchmark.PEER_COUNTERS);
        for (long key : stream) {
            summary.offer(key);
        }
        recorder.add(
                QUESTION,
                topK,
                "streamlib",
                summary.toBytes().length,
                "toBytes().length (Java serialization)",
                "Space-Saving, not Count-Min; boxed Long counters");
    }
}
