package io.mapsketch.membership;

import io.mapsketch.internal.Arguments;
import io.mapsketch.internal.KeyTableBuilder;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;

/**
 * Builds a Bloom table from its key capacity, the items expected per key and the false-positive rate at
 * that many items, and the heap bytes per key (at least 16, {@value #DEFAULT_BYTES_PER_KEY} when not
 * set). Each key's filter is sized as {@link BlockedBloomFilter#builder()} sizes a filter of the same
 * items and rate (100 items at 1%: 2 blocks, 128 bytes); the heap holds each key's record, 16 bytes and
 * its bytes padded to 8, so the default takes keys of up to 48 bytes. The file is about
 * {@code N x (bytesPerKey + 64 B)} bytes plus 11 to 22 bytes of key index per key
 * ({@code docs/design/tables.md}).
 */
@SuppressWarnings("exports")
public final class BloomTableBuilder extends KeyTableBuilder<BloomTableBuilder, BloomTable> {

    /** The heap bytes per key when none are set: the record of a key of up to 48 bytes. */
    public static final long DEFAULT_BYTES_PER_KEY = 64;

    private long expectedItemsPerKey;
    private double falsePositiveRate;

    BloomTableBuilder() {
        super(DEFAULT_BYTES_PER_KEY, 16);
    }

    /**
     * Sets the items each key's filter is sized for. Required.
     *
     * @param items n, at least 1
     * @return this builder
     * @throws IllegalArgumentException if below 1
     */
    public BloomTableBuilder expectedItemsPerKey(long items) {
        Arguments.requirePositive("expectedItemsPerKey", items);
        this.expectedItemsPerKey = items;
        return this;
    }

    /**
     * Sets the false-positive rate of each key's filter at the expected items per key. Required.
     *
     * @param rate p, in (0, 1)
     * @return this builder
     * @throws IllegalArgumentException if outside (0, 1)
     */
    public BloomTableBuilder falsePositiveRate(double rate) {
        Arguments.requireOpenUnit("falsePositiveRate", rate);
        this.falsePositiveRate = rate;
        return this;
    }

    @Override
    protected BloomTableBuilder self() {
        return this;
    }

    @Override
    protected BloomTableFormat format() {
        requireSet("expectedItemsPerKey", expectedItemsPerKey != 0);
        requireSet("falsePositiveRate", falsePositiveRate != 0);
        return BloomTableFormat.sized(expectedItemsPerKey, falsePositiveRate, tableParameters());
    }

    @Override
    protected BloomTable wrap(SketchRegion region) throws IOException {
        return BloomTable.read(region);
    }
}
