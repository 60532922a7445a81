package io.mapsketch.spark;

import io.mapsketch.OpenMode;
import io.mapsketch.SketchImage;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.frequency.FrequencySketch;
import io.mapsketch.frequency.HeavyHitter;
import io.mapsketch.frequency.TopK;
import io.mapsketch.interop.DataSketchesHll;
import io.mapsketch.membership.MembershipFilter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.api.java.UDF2;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The scalar functions over sketch file images. Each task deserializes its own instance, whose
 * {@link OpenedSketches} keeps the last sketch it read. A null sketch, key or count gives null.
 */
final class ScalarFunctions {

    private ScalarFunctions() {}

    /** {@code mapsketch_contains(sketch, key)}: whether a membership filter might hold the key. */
    static final class Contains implements UDF2<byte[], Object, Boolean> {
        private static final long serialVersionUID = 1L;
        private transient OpenedSketches opened;

        @Override
        public Boolean call(byte[] sketch, Object key) {
            if (sketch == null || key == null) {
                return null;
            }
            if (opened == null) {
                opened = new OpenedSketches();
            }
            MembershipFilter filter = opened.of(
                    sketch,
                    MembershipFilter.class,
                    "mapsketch_contains",
                    "a membership filter (a Bloom or cuckoo filter)");
            return Keys.mightContain(filter, key);
        }
    }

    /** {@code mapsketch_count(sketch, key)}: a frequency sketch's estimate of the key's count. */
    static final class Count implements UDF2<byte[], Object, Long> {
        private static final long serialVersionUID = 1L;
        private transient OpenedSketches opened;

        @Override
        public Long call(byte[] sketch, Object key) {
            if (sketch == null || key == null) {
                return null;
            }
            if (opened == null) {
                opened = new OpenedSketches();
            }
            FrequencySketch frequencies =
                    opened.of(sketch, FrequencySketch.class, "mapsketch_count", "a Count-Min or Top-K sketch");
            return Keys.estimate(frequencies, key);
        }
    }

    /** {@code mapsketch_estimate(sketch)}: a HyperLogLog's estimate of the distinct keys. */
    static final class Estimate implements UDF1<byte[], Double> {
        private static final long serialVersionUID = 1L;
        private transient OpenedSketches opened;

        @Override
        public Double call(byte[] sketch) {
            if (sketch == null) {
                return null;
            }
            if (opened == null) {
                opened = new OpenedSketches();
            }
            return opened.of(sketch, HyperLogLog.class, "mapsketch_estimate", "a HyperLogLog")
                    .estimate();
        }
    }

    /**
     * {@code mapsketch_top(sketch, n)}: a Top-K sketch's {@code n} heaviest keys, largest count first, as
     * {@link TopK#top(int)} lists them: each key's bytes as added (a string's UTF-8 bytes, a long's eight
     * little-endian bytes) and its Count-Min estimate.
     */
    static final class Top implements UDF2<byte[], Integer, List<Row>> {
        private static final long serialVersionUID = 1L;

        /** ARRAY&lt;STRUCT&lt;item: BINARY, count: BIGINT&gt;&gt;. */
        static final DataType TYPE = DataTypes.createArrayType(
                new StructType().add("item", DataTypes.BinaryType, false).add("count", DataTypes.LongType, false),
                false);

        private transient OpenedSketches opened;

        @Override
        public List<Row> call(byte[] sketch, Integer n) {
            if (sketch == null || n == null) {
                return null;
            }
            if (opened == null) {
                opened = new OpenedSketches();
            }
            List<HeavyHitter> top = opened.of(sketch, TopK.class, "mapsketch_top", "a Top-K sketch")
                    .top(n);
            return top.stream()
                    .map(hitter -> RowFactory.create(hitter.key(), hitter.estimate()))
                    .toList();
        }
    }

    /**
     * {@code mapsketch_from_datasketches_hll(image)}: the bytes of the HyperLogLog file that a DataSketches HLL
     * image (what Spark's {@code hll_sketch_agg} returns) imports as ({@link DataSketchesHll#importAnonymous}),
     * hashing as DataSketches does and estimating as it does for the image. Bytes that are not such an image fail
     * the job with the importer's {@link io.mapsketch.interop.ForeignSketchException}.
     */
    static final class FromDataSketchesHll implements UDF1<byte[], byte[]> {
        private static final long serialVersionUID = 1L;

        @Override
        public byte[] call(byte[] image) {
            if (image == null) {
                return null;
            }
            try (HyperLogLog sketch = DataSketchesHll.importAnonymous(image, OpenMode.SHARED)) {
                return SketchImage.toBytes(sketch, Instant.EPOCH);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
