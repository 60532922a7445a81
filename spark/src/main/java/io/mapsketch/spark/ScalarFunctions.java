package io.mapsketch.spark;

import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.frequency.FrequencySketch;
import io.mapsketch.membership.MembershipFilter;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.api.java.UDF2;

/**
 * The scalar functions over sketch file images. Each task deserializes its own instance, whose
 * {@link OpenedSketches} keeps the last sketch it read. A null sketch or key gives null.
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
}
