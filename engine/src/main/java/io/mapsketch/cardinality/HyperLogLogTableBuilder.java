package io.mapsketch.cardinality;

import io.mapsketch.SketchBuilder;
import io.mapsketch.internal.Arguments;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;

/**
 * Builds a HyperLogLog table from its precision, its key capacity and the heap bytes per key. The heap
 * holds each key's record (its bytes and 16 sparse registers), its further sparse chunks and, for a key
 * past {@code 2^p / 8} registers, a dense block of 2^p bytes: at p = 14, a key of 16 bytes with 100
 * distinct items takes 504 bytes, a dense key about 1.5 x 2^p bytes ({@code docs/design/tables.md}).
 */
@SuppressWarnings("exports")
public final class HyperLogLogTableBuilder extends SketchBuilder<HyperLogLogTableBuilder, HyperLogLogTable> {

    /** The heap bytes per key when none are set: what a key of 16 bytes with 100 distinct items takes, and a little. */
    public static final long DEFAULT_BYTES_PER_KEY = 512;

    private int precision;
    private long capacity;
    private long bytesPerKey = DEFAULT_BYTES_PER_KEY;

    HyperLogLogTableBuilder() {}

    /**
     * Sets the precision p of every key's HyperLogLog: 2^p registers, relative standard error
     * {@code 1.04 / sqrt(2^p)}. Required.
     *
     * @param precision p, in [4, 18]
     * @return this builder
     * @throws IllegalArgumentException if outside [4, 18]
     */
    public HyperLogLogTableBuilder precision(int precision) {
        if (precision < HyperLogLog.MIN_PRECISION || precision > HyperLogLog.MAX_PRECISION) {
            throw new IllegalArgumentException("precision = " + precision + ", must be in [4, 18]");
        }
        this.precision = precision;
        return this;
    }

    /**
     * Sets the number of keys the table holds at most; a new key beyond it is refused. Required.
     *
     * @param keys N, in [1, 2^32]
     * @return this builder
     * @throws IllegalArgumentException if outside [1, 2^32]
     */
    public HyperLogLogTableBuilder capacity(long keys) {
        Arguments.requirePositive("capacity", keys);
        if (keys > HyperLogLogTableFormat.MAX_CAPACITY) {
            throw new IllegalArgumentException("capacity = " + keys + ", must be in [1, 2^32]");
        }
        this.capacity = keys;
        return this;
    }

    /**
     * Sets the heap's bytes per key of capacity: the heap is {@code capacity * bytesPerKey}, rounded up to 64.
     *
     * @param bytes at least 64; {@value #DEFAULT_BYTES_PER_KEY} when not set
     * @return this builder
     * @throws IllegalArgumentException if below 64
     */
    public HyperLogLogTableBuilder bytesPerKey(long bytes) {
        if (bytes < 64) {
            throw new IllegalArgumentException("bytesPerKey = " + bytes + ", must be >= 64");
        }
        this.bytesPerKey = bytes;
        return this;
    }

    @Override
    protected HyperLogLogTableBuilder self() {
        return this;
    }

    @Override
    protected HyperLogLogTableFormat format() {
        requireSet("precision", precision != 0);
        requireSet("capacity", capacity != 0);
        long heap = capacity > HyperLogLogTableFormat.MAX_HEAP_BYTES / bytesPerKey
                ? Long.MAX_VALUE
                : Math.ceilDiv(capacity * bytesPerKey, 64) * 64;
        if (heap > HyperLogLogTableFormat.MAX_HEAP_BYTES) {
            throw new IllegalArgumentException("capacity * bytesPerKey = " + capacity + " * " + bytesPerKey
                    + ", must be at most 2^43 bytes of heap");
        }
        return new HyperLogLogTableFormat(precision, capacity, heap);
    }

    @Override
    protected HyperLogLogTable wrap(SketchRegion region) throws IOException {
        return HyperLogLogTable.read(region);
    }
}
