package io.mapsketch.cardinality;

import io.mapsketch.internal.KeyTableBuilder;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;

/**
 * Builds a HyperLogLog table from its precision, its key capacity and the heap bytes per key (at least
 * 64, {@value #DEFAULT_BYTES_PER_KEY} when not set). The heap
 * holds each key's record (its bytes and its first sparse registers, 24 at p = 14), its further sparse
 * chunks and, for a key whose sparse chain is full (3,000 registers at p = 14), a dense block of 2^p
 * bytes: at p = 14, a key of 16 bytes with up to 24 distinct items takes 104 bytes, with 25 to 120 (100:
 * 99.7 registers) 368 bytes, a dense key about 1.5 x 2^p bytes ({@code docs/design/tables.md}).
 */
@SuppressWarnings("exports")
public final class HyperLogLogTableBuilder extends KeyTableBuilder<HyperLogLogTableBuilder, HyperLogLogTable> {

    /** The heap bytes per key when none are set: what a key of 16 bytes with 100 distinct items takes, and a little. */
    public static final long DEFAULT_BYTES_PER_KEY = 384;

    private int precision;

    HyperLogLogTableBuilder() {
        super(DEFAULT_BYTES_PER_KEY, 64);
    }

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

    @Override
    protected HyperLogLogTableBuilder self() {
        return this;
    }

    @Override
    protected HyperLogLogTableFormat format() {
        requireSet("precision", precision != 0);
        return new HyperLogLogTableFormat(precision, tableParameters());
    }

    @Override
    protected HyperLogLogTable wrap(SketchRegion region) throws IOException {
        return HyperLogLogTable.read(region);
    }
}
