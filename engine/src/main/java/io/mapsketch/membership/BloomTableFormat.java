package io.mapsketch.membership;

import io.mapsketch.SketchFileException;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.FormatVersions;
import io.mapsketch.internal.HeaderFormat;
import io.mapsketch.internal.HeaderParameter;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.internal.HeaderValue;
import io.mapsketch.internal.TableParameters;
import io.mapsketch.kernels.BlockedBloomKernels;
import java.util.ArrayList;
import java.util.List;

/**
 * The header of a Bloom table file (kind 12): the blocks per key B in slot 0, the key capacity N in slot
 * 1 and the heap's size H in slot 2 ({@link TableParameters}), the bits per key (8 or 16) in slot 3, the
 * expected items per key n and the rate p each key's filter was sized for in slots 4 and 5. The payload
 * is the table line, the key index, the heap of key records and the filter area of N filters of B
 * 64-byte blocks, 64-byte aligned; the layout is drawn in {@code docs/design/tables.md} and
 * {@code docs/file-format.md}. Hash scheme: XXH3-64 only.
 *
 * <p>Versions: reads and writes 5 (the header page with the counter slots).
 *
 * @param blocksPerKey B, in [1, 2^24]
 * @param bitsPerKey 8 (one bit in each of a block's eight words) or 16 (two)
 * @param expectedItemsPerKey n, at least 1
 * @param falsePositiveRate p, in (0, 1)
 * @param table N and H
 */
record BloomTableFormat(
        long blocksPerKey, int bitsPerKey, long expectedItemsPerKey, double falsePositiveRate, TableParameters table)
        implements HeaderFormat {

    /** The most blocks of a key's filter (1 GiB): N x B x 64 stays below 2^62. */
    static final long MAX_BLOCKS_PER_KEY = 1L << 24;
    /** The versions read and written. */
    static final FormatVersions VERSIONS = new FormatVersions(5, 5, 5);
    /** B: slot 0. */
    static final HeaderParameter.Ranged BLOCKS = HeaderParameter.ranged(0, "blocks per key", 1, MAX_BLOCKS_PER_KEY);
    /** The bits an item sets in its block: slot 3. */
    static final HeaderParameter.Ranged BITS_PER_KEY = HeaderParameter.oneOf(3, "bits per key", 8, 16);
    /** n: slot 4. */
    static final HeaderParameter.Ranged EXPECTED_ITEMS =
            HeaderParameter.ranged(4, "expected items per key", 1, Long.MAX_VALUE);
    /** p: slot 5. */
    static final HeaderParameter.Interval FALSE_POSITIVE_RATE =
            HeaderParameter.interval(5, "false-positive rate", 0, 1);
    /** What two tables that merge key by key must share: their filters' shape. */
    static final List<HeaderParameter> SHAPE = List.of(BLOCKS, BITS_PER_KEY);

    /**
     * Sizes each key's filter for n items at rate p as a {@link BlockedBloomFilter} of n and p is sized.
     *
     * @throws IllegalArgumentException if the rate is out of reach or a filter would pass 2^24 blocks
     */
    static BloomTableFormat sized(long expectedItemsPerKey, double falsePositiveRate, TableParameters table) {
        BlockedBloomFormat filter = BlockedBloomFormat.sized(expectedItemsPerKey, falsePositiveRate);
        if (filter.blocks() > MAX_BLOCKS_PER_KEY) {
            throw new IllegalArgumentException(
                    "expectedItemsPerKey = " + expectedItemsPerKey + " at falsePositiveRate = " + falsePositiveRate
                            + " needs " + filter.blocks() + " blocks per key, must be at most 2^24");
        }
        return new BloomTableFormat(
                filter.blocks(), filter.bitsPerKey(), expectedItemsPerKey, falsePositiveRate, table);
    }

    /** Reads and checks a header: its version, the parameters' ranges and the payload's length. */
    static BloomTableFormat read(HeaderReader header) throws SketchFileException {
        header.requireVersion(VERSIONS);
        BloomTableFormat format = new BloomTableFormat(
                header.read(BLOCKS),
                (int) header.read(BITS_PER_KEY),
                header.read(EXPECTED_ITEMS),
                header.read(FALSE_POSITIVE_RATE),
                TableParameters.read(header));
        header.requirePayload(
                format.payloadBytes(),
                "a 64-byte table line, 8-byte slots for 4/3 of the key capacity, the heap, and key capacity x"
                        + " blocks per key x 64 bytes of filters");
        return format;
    }

    /** The bytes of one key's filter, B x 64. */
    long filterBytes() {
        return blocksPerKey * BlockedBloomKernels.BLOCK_BYTES;
    }

    /** Where the filter area starts in the payload: after the heap, 64-byte aligned. */
    long filterAreaOffset() {
        return table.heapEnd();
    }

    /** The filter area's bytes: N filters. */
    long filterAreaBytes() {
        return table.capacity() * filterBytes();
    }

    @Override
    public SketchKind kind() {
        return SketchKind.BLOOM_TABLE;
    }

    @Override
    public FormatVersions versions() {
        return VERSIONS;
    }

    @Override
    public List<HeaderValue> values() {
        List<HeaderValue> values = new ArrayList<>();
        values.add(BLOCKS.of(blocksPerKey));
        values.addAll(table.values());
        values.add(BITS_PER_KEY.of(bitsPerKey));
        values.add(EXPECTED_ITEMS.of(expectedItemsPerKey));
        values.add(FALSE_POSITIVE_RATE.of(falsePositiveRate));
        return values;
    }

    @Override
    public long payloadBytes() {
        return filterAreaOffset() + filterAreaBytes();
    }
}
