package io.mapsketch.internal;

import io.mapsketch.SketchBuilder;
import io.mapsketch.cardinality.HyperLogLogTableBuilder;
import io.mapsketch.frequency.CountMinTableBuilder;
import io.mapsketch.membership.BloomTableBuilder;

/**
 * What the builders of every kind of sketch table share: the key capacity and the heap's bytes per key,
 * from which {@link TableParameters} are sized. A kind's builder adds the shape of its sketches.
 *
 * @param <B> the concrete builder, returned by the chaining methods
 * @param <S> the table it builds
 */
@SuppressWarnings("exports")
public abstract sealed class KeyTableBuilder<B extends KeyTableBuilder<B, S>, S extends KeyTable>
        extends SketchBuilder<B, S> permits HyperLogLogTableBuilder, BloomTableBuilder, CountMinTableBuilder {

    private final long minBytesPerKey;
    private long capacity;
    private long bytesPerKey;

    /**
     * Creates a builder whose heap bytes per key start at the kind's default.
     *
     * @param defaultBytesPerKey the bytes per key when none are set
     * @param minBytesPerKey the fewest a caller may set
     */
    protected KeyTableBuilder(long defaultBytesPerKey, long minBytesPerKey) {
        this.bytesPerKey = defaultBytesPerKey;
        this.minBytesPerKey = minBytesPerKey;
    }

    /**
     * Sets the number of keys the table holds at most; a new key beyond it is refused. Required.
     *
     * @param keys N, in [1, 2^32]
     * @return this builder
     * @throws IllegalArgumentException if outside [1, 2^32]
     */
    public B capacity(long keys) {
        Arguments.requirePositive("capacity", keys);
        if (keys > TableParameters.MAX_CAPACITY) {
            throw new IllegalArgumentException("capacity = " + keys + ", must be in [1, 2^32]");
        }
        this.capacity = keys;
        return self();
    }

    /**
     * Sets the heap's bytes per key of capacity: the heap is {@code capacity * bytesPerKey}, rounded up to
     * 64. What a key takes of it is the kind's (its builder's documentation says).
     *
     * @param bytes at least the kind's minimum; the kind's default when not set
     * @return this builder
     * @throws IllegalArgumentException if below the kind's minimum
     */
    public B bytesPerKey(long bytes) {
        if (bytes < minBytesPerKey) {
            throw new IllegalArgumentException("bytesPerKey = " + bytes + ", must be >= " + minBytesPerKey);
        }
        this.bytesPerKey = bytes;
        return self();
    }

    /**
     * Sizes the table's key capacity and heap.
     *
     * @return the parameters every table holds
     * @throws IllegalStateException if the capacity was not set
     * @throws IllegalArgumentException if the heap would pass 2^43 bytes
     */
    protected final TableParameters tableParameters() {
        requireSet("capacity", capacity != 0);
        return TableParameters.sized(capacity, bytesPerKey);
    }
}
