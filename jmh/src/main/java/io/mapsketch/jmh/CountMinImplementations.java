package io.mapsketch.jmh;

import static io.mapsketch.jmh.BenchmarkSettings.COUNT_MIN_DELTA;
import static io.mapsketch.jmh.BenchmarkSettings.SKETCH_SEED;

import io.mapsketch.OpenMode;
import io.mapsketch.frequency.CountMinSizing;
import io.mapsketch.frequency.CountMinSketch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The Count-Min sketches that {@link CountMinBenchmark} and {@link CountMinFloorBenchmark} time, each
 * behind one small interface over its library's own API; the benchmark's class comment says how each
 * is configured and where the peers differ.
 */
final class CountMinImplementations {

    private CountMinImplementations() {}

    /**
     * Creates an empty sketch of one implementation, sized for {@code epsilon} and delta 0.01;
     * mapsketch's in a file of a new temporary directory, both deleted by {@link Sketch#close}.
     *
     * @param impl a value of {@link CountMinBenchmark#impl}, or {@code mapsketch-conservative-shared}
     * @param epsilon the error bound's epsilon
     * @return the sketch
     * @throws IOException if mapsketch's file cannot be created
     * @throws IllegalArgumentException if {@code impl} names no implementation
     */
    static Sketch create(String impl, double epsilon) throws IOException {
        return create(impl, epsilon, Optional.empty());
    }

    /**
     * Creates an empty sketch as {@link #create(String, double)} does, mapsketch's in {@code file}
     * (deleted by {@link Sketch#close}; its directory is the caller's).
     *
     * @param impl a value of {@link CountMinBenchmark#impl}, or {@code mapsketch-conservative-shared}
     * @param epsilon the error bound's epsilon
     * @param file where mapsketch's sketch is created; it must not exist
     * @return the sketch
     * @throws IOException if mapsketch's file cannot be created
     * @throws IllegalArgumentException if {@code impl} names no implementation
     */
    static Sketch create(String impl, double epsilon, Path file) throws IOException {
        return create(impl, epsilon, Optional.of(file));
    }

    private static Sketch create(String impl, double epsilon, Optional<Path> file) throws IOException {
        return switch (impl) {
            case "mapsketch" -> Mapsketch.create(epsilon, OpenMode.EXCLUSIVE, false, file);
            case "mapsketch-shared" -> Mapsketch.create(epsilon, OpenMode.SHARED, false, file);
            case "mapsketch-conservative" -> Mapsketch.create(epsilon, OpenMode.EXCLUSIVE, true, file);
            case "mapsketch-conservative-shared" -> Mapsketch.create(epsilon, OpenMode.SHARED, true, file);
            case "datasketches" -> new DataSketches(epsilon);
            case "streamlib" -> new StreamLib(epsilon);
            case "spark" -> new Spark(epsilon);
            default -> throw new IllegalArgumentException("unknown impl " + impl);
        };
    }

    /** The operations the benchmark needs, over each library's own API. */
    interface Sketch {

        void add(long key);

        /** Adds every key of {@code keys}; a loop unless the library has a batch add. */
        default void addAll(long[] keys) {
            for (long key : keys) {
                add(key);
            }
        }

        long estimate(long key);

        /** Estimates every key of {@code keys} into {@code estimates}; a loop unless the library has a batch estimate. */
        default void estimateAll(long[] keys, long[] estimates) {
            for (int i = 0; i < keys.length; i++) {
                estimates[i] = estimate(keys[i]);
            }
        }

        /** Width x depth x counter bits. */
        String shape();

        /** Bytes of the counters (for mapsketch, its {@code memoryBytes()}: the payload, header excluded). */
        long counterBytes();

        default void close() throws IOException {}
    }

    static final class Mapsketch implements Sketch {

        private final CountMinSketch sketch;
        /** The temporary directory made for the file, or {@code null} if the directory is the caller's. */
        private final Path directory;

        private final Path file;

        private Mapsketch(CountMinSketch sketch, Path directory, Path file) {
            this.sketch = sketch;
            this.directory = directory;
            this.file = file;
        }

        static Mapsketch create(double epsilon, OpenMode mode, boolean conservative, Optional<Path> given)
                throws IOException {
            Path directory = given.isPresent() ? null : Files.createTempDirectory("countmin-benchmark");
            Path file = given.orElseGet(() -> directory.resolve("sketch.cms"));
            CountMinSketch sketch = CountMinSketch.builder()
                    .epsilon(epsilon)
                    .delta(COUNT_MIN_DELTA)
                    .counterBits(32)
                    .conservativeUpdate(conservative)
                    .seed(SKETCH_SEED)
                    .create(file, mode);
            return new Mapsketch(sketch, directory, file);
        }

        @Override
        public void add(long key) {
            sketch.add(key);
        }

        @Override
        public void addAll(long[] keys) {
            sketch.addAll(keys);
        }

        @Override
        public long estimate(long key) {
            return sketch.estimate(key);
        }

        @Override
        public void estimateAll(long[] keys, long[] estimates) {
            sketch.estimateAll(keys, estimates);
        }

        @Override
        public String shape() {
            return sketch.width() + "x" + sketch.depth() + "x" + sketch.counterBits();
        }

        @Override
        public long counterBytes() {
            return sketch.memoryBytes();
        }

        @Override
        public void close() throws IOException {
            try {
                sketch.close();
            } finally {
                Files.deleteIfExists(file);
                if (directory != null) {
                    Files.deleteIfExists(directory);
                }
            }
        }
    }

    private static final class DataSketches implements Sketch {

        private final org.apache.datasketches.count.CountMinSketch sketch;

        DataSketches(double epsilon) {
            byte depth = org.apache.datasketches.count.CountMinSketch.suggestNumHashes(1 - COUNT_MIN_DELTA);
            int width = org.apache.datasketches.count.CountMinSketch.suggestNumBuckets(epsilon);
            sketch = PeerConstructors.dataSketchesCountMin(depth, width);
        }

        @Override
        public void add(long key) {
            sketch.update(key, 1);
        }

        @Override
        public long estimate(long key) {
            return sketch.getEstimate(key);
        }

        @Override
        public String shape() {
            return sketch.getNumBuckets_() + "x" + sketch.getNumHashes_() + "x64";
        }

        @Override
        public long counterBytes() {
            return (long) sketch.getNumBuckets_() * sketch.getNumHashes_() * Long.BYTES;
        }
    }

    /** A peer given mapsketch's width and depth ({@link CountMinSizing}), counting in 64-bit counters. */
    private abstract static class SizedPeer implements Sketch {

        final int width;
        final int depth;

        SizedPeer(double epsilon) {
            width = CountMinSizing.width(epsilon);
            depth = CountMinSizing.depth(COUNT_MIN_DELTA);
        }

        @Override
        public String shape() {
            return width + "x" + depth + "x64";
        }

        @Override
        public long counterBytes() {
            return (long) width * depth * Long.BYTES;
        }
    }

    private static final class StreamLib extends SizedPeer {

        private final com.clearspring.analytics.stream.frequency.CountMinSketch sketch;

        StreamLib(double epsilon) {
            super(epsilon);
            sketch = new com.clearspring.analytics.stream.frequency.CountMinSketch(depth, width, (int) SKETCH_SEED);
        }

        @Override
        public void add(long key) {
            sketch.add(key, 1);
        }

        @Override
        public long estimate(long key) {
            return sketch.estimateCount(key);
        }
    }

    private static final class Spark extends SizedPeer {

        private final org.apache.spark.util.sketch.CountMinSketch sketch;

        Spark(double epsilon) {
            super(epsilon);
            sketch = org.apache.spark.util.sketch.CountMinSketch.create(depth, width, (int) SKETCH_SEED);
        }

        @Override
        public void add(long key) {
            sketch.addLong(key);
        }

        @Override
        public long estimate(long key) {
            return sketch.estimateCount(key);
        }
    }
}
