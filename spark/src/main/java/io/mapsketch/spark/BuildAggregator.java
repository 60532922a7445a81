package io.mapsketch.spark;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import scala.Tuple2;

/**
 * The aggregate that builds a sketch of a spec from a key column (and, for a weighted Count-Min sketch, a weight
 * column): each task adds its rows to one anonymous sketch, Spark merges the tasks' sketches, and the result is
 * the bytes of the sketch's file. Rows whose key is null add nothing; so do rows whose weight is null or 0.
 * A group of no rows, or of null keys only, gives the empty sketch.
 */
final class BuildAggregator extends SketchAggregator<Object> {

    private static final long serialVersionUID = 1L;

    private final SketchSpec spec;
    private final boolean weighted;

    BuildAggregator(SketchSpec spec, boolean weighted) {
        this.spec = spec;
        this.weighted = weighted;
    }

    /** The input encoder for keys of {@code keys}: the key alone, or a (key, weight) pair. */
    @SuppressWarnings("unchecked")
    Encoder<Object> inputEncoder(Keys keys) {
        Encoder<?> encoder = weighted ? Encoders.tuple(keys.encoder(), Encoders.LONG()) : keys.encoder();
        return (Encoder<Object>) encoder;
    }

    @Override
    public SketchBuffer zero() {
        return new SketchBuffer(spec.create());
    }

    @Override
    public SketchBuffer reduce(SketchBuffer buffer, Object input) {
        if (weighted) {
            Tuple2<?, ?> pair = (Tuple2<?, ?>) input;
            if (pair._1() != null && pair._2() != null && (Long) pair._2() != 0) {
                spec.add(buffer.sketch(), pair._1(), (Long) pair._2());
            }
        } else if (input != null) {
            spec.add(buffer.sketch(), input, 1);
        }
        return buffer;
    }
}
