package io.mapsketch.spark;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.expressions.Aggregator;

/**
 * What every mapsketch aggregate shares once its rows are in a {@link SketchBuffer}: Spark merges the tasks'
 * buffers by the engine's merge, serializes a buffer as its sketch's image (only across the shuffle), and the
 * result is the bytes of the sketch's file.
 *
 * @param <IN> the input rows' type
 */
abstract class SketchAggregator<IN> extends Aggregator<IN, SketchBuffer, byte[]> {

    private static final long serialVersionUID = 1L;

    @Override
    public final SketchBuffer merge(SketchBuffer into, SketchBuffer other) {
        into.merge(other.sketch());
        return into;
    }

    @Override
    public final byte[] finish(SketchBuffer buffer) {
        return buffer.image();
    }

    @Override
    public final Encoder<SketchBuffer> bufferEncoder() {
        return Encoders.javaSerialization(SketchBuffer.class);
    }

    @Override
    public final Encoder<byte[]> outputEncoder() {
        return Encoders.BINARY();
    }
}
