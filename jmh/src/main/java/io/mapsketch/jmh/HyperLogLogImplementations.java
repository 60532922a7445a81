package io.mapsketch.jmh;

import static io.mapsketch.jmh.BenchmarkSettings.SKETCH_SEED;

import com.dynatrace.hash4j.distinctcount.UltraLogLog;
import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import io.mapsketch.OpenMode;
import io.mapsketch.cardinality.HyperLogLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.HllUnion;
import org.apache.datasketches.hll.TgtHllType;

/**
 * The HyperLogLog sketches that {@link HyperLogLogBenchmark} times, each behind one small interface over
 * its library's own API; {@link HyperLogLogBenchmark}'s class comment says how each is configured and fed.
 */
final class HyperLogLogImplementations {

    private static final Hasher64 XXH3 = Hashing.xxh3_64();

    private HyperLogLogImplementations() {}

    /**
     * Creates an empty sketch of one implementation.
     *
     * @param impl {@code mapsketch}, {@code mapsketch-shared}, {@code datasketches-hll8},
     *     {@code datasketches-hll4}, {@code hash4j-hll} or {@code hash4j-ull}
     * @param precision p: 2^p registers
     * @param placement where mapsketch's sketch is created
     * @return the sketch
     * @throws IllegalArgumentException if {@code impl} names no implementation
     * @throws UncheckedIOException if mapsketch's file cannot be created
     */
    static Sketch create(String impl, int precision, SketchPlacement placement) {
        return switch (impl) {
            case "mapsketch" -> mapsketch(precision, OpenMode.EXCLUSIVE, placement);
            case "mapsketch-shared" -> mapsketch(precision, OpenMode.SHARED, placement);
            case "datasketches-hll8" -> new DataSketches(precision, TgtHllType.HLL_8);
            case "datasketches-hll4" -> new DataSketches(precision, TgtHllType.HLL_4);
            case "hash4j-hll" -> new Hash4jHll(precision);
            case "hash4j-ull" -> new Hash4jUll(precision);
            default -> throw new IllegalArgumentException("unknown impl " + impl);
        };
    }

    private static Sketch mapsketch(int precision, OpenMode mode, SketchPlacement placement) {
        return new Mapsketch(
                placement.create(HyperLogLog.builder().precision(precision).seed(SKETCH_SEED), mode));
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

        double estimate();

        /** Merges {@code other}, a sketch of the same implementation and precision, into this one. */
        void merge(Sketch other);

        /** The estimate of the merge result (differs from {@link #estimate} where a union holds it). */
        default double mergedEstimate() {
            return estimate();
        }

        default void close() {}
    }

    static final class Mapsketch implements Sketch {

        private final HyperLogLog sketch;

        Mapsketch(HyperLogLog sketch) {
            this.sketch = sketch;
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
        public double estimate() {
            return sketch.estimate();
        }

        @Override
        public void merge(Sketch other) {
            sketch.merge(((Mapsketch) other).sketch);
        }

        @Override
        public void close() {
            try {
                sketch.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static final class DataSketches implements Sketch {

        private final HllSketch sketch;
        private HllUnion union;

        DataSketches(int precision, TgtHllType type) {
            sketch = new HllSketch(precision, type);
        }

        @Override
        public void add(long key) {
            sketch.update(key);
        }

        @Override
        public double estimate() {
            return sketch.getEstimate();
        }

        /** The first merge starts a union from this sketch (in the setup); every merge updates it. */
        @Override
        public void merge(Sketch other) {
            if (union == null) {
                union = new HllUnion(sketch.getLgConfigK());
                union.update(sketch);
            }
            union.update(((DataSketches) other).sketch);
        }

        @Override
        public double mergedEstimate() {
            return union.getEstimate();
        }
    }

    private static final class Hash4jHll implements Sketch {

        private final com.dynatrace.hash4j.distinctcount.HyperLogLog sketch;

        Hash4jHll(int precision) {
            sketch = com.dynatrace.hash4j.distinctcount.HyperLogLog.create(precision);
        }

        @Override
        public void add(long key) {
            sketch.add(XXH3.hashLongToLong(key));
        }

        @Override
        public double estimate() {
            return sketch.getDistinctCountEstimate();
        }

        @Override
        public void merge(Sketch other) {
            sketch.add(((Hash4jHll) other).sketch);
        }
    }

    private static final class Hash4jUll implements Sketch {

        private final UltraLogLog sketch;

        Hash4jUll(int precision) {
            sketch = UltraLogLog.create(precision);
        }

        @Override
        public void add(long key) {
            sketch.add(XXH3.hashLongToLong(key));
        }

        @Override
        public double estimate() {
            return sketch.getDistinctCountEstimate();
        }

        @Override
        public void merge(Sketch other) {
            sketch.add(((Hash4jUll) other).sketch);
        }
    }
}
