package io.mapsketch.membership;

import static io.mapsketch.membership.FilterParameters.EXPECTED_ITEMS;
import static io.mapsketch.membership.FilterParameters.FALSE_POSITIVE_RATE;

import io.mapsketch.SketchFileException;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.FormatVersions;
import io.mapsketch.internal.HeaderFormat;
import io.mapsketch.internal.HeaderParameter;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.internal.HeaderValue;
import io.mapsketch.kernels.BlockedBloomKernels;
import java.util.List;

/**
 * The header of a blocked Bloom filter file (kind 2, also every link of a scalable filter): 512-bit
 * blocks B in slot 0, bits per key (8 or 16) in slot 1, the expected items n and the rate p it was
 * sized for in slots 2 and 3; the payload is the B blocks of 64 bytes.
 *
 * <p>Versions: reads 1 to 5, writes 5 (version 5 keeps the live counters in slots, one per shared writer). The layout is the same in every version; version 4 adds the
 * payload checksum, which the header page keeps.
 *
 * @param blocks B, in [1, 2^57 - 1]
 * @param bitsPerKey 8 (one bit in each of a block's eight words) or 16 (two)
 * @param expectedItems n, at least 1
 * @param falsePositiveRate p, in (0, 1)
 */
record BlockedBloomFormat(long blocks, int bitsPerKey, long expectedItems, double falsePositiveRate)
        implements HeaderFormat {

    /** The versions read and written. */
    static final FormatVersions VERSIONS = new FormatVersions(1, 5, 5);
    /** B, the blocks: slot 0. */
    static final HeaderParameter.Ranged BLOCKS =
            HeaderParameter.ranged(0, "blocks", 1, Long.MAX_VALUE / BlockedBloomKernels.BLOCK_BYTES);
    /** The bits a key sets in its block: slot 1. */
    static final HeaderParameter.Ranged BITS_PER_KEY = HeaderParameter.oneOf(1, "bits per key", 8, 16);
    /** What two filters that merge must share. */
    static final List<HeaderParameter> SHAPE = List.of(BLOCKS, BITS_PER_KEY);

    /** Sizes a filter for n items at rate p by the block-load model; refuses what the format cannot hold. */
    static BlockedBloomFormat sized(long expectedItems, double falsePositiveRate) {
        int bitsPerKey = BlockedBloomSizing.bitsPerKey(expectedItems, falsePositiveRate);
        long blocks = BlockedBloomSizing.blocks(expectedItems, falsePositiveRate, bitsPerKey);
        return new BlockedBloomFormat(blocks, bitsPerKey, expectedItems, falsePositiveRate);
    }

    /** Reads and checks a header: its version, each parameter's range and the payload's length. */
    static BlockedBloomFormat read(HeaderReader header) throws SketchFileException {
        header.requireVersion(VERSIONS);
        BlockedBloomFormat format = new BlockedBloomFormat(
                header.read(BLOCKS),
                (int) header.read(BITS_PER_KEY),
                header.read(EXPECTED_ITEMS),
                header.read(FALSE_POSITIVE_RATE));
        header.requirePayload(format.payloadBytes(), "blocks x 64 bytes");
        return format;
    }

    @Override
    public SketchKind kind() {
        return SketchKind.BLOCKED_BLOOM;
    }

    @Override
    public FormatVersions versions() {
        return VERSIONS;
    }

    @Override
    public List<HeaderValue> values() {
        return List.of(
                BLOCKS.of(blocks),
                BITS_PER_KEY.of(bitsPerKey),
                EXPECTED_ITEMS.of(expectedItems),
                FALSE_POSITIVE_RATE.of(falsePositiveRate));
    }

    @Override
    public long payloadBytes() {
        return blocks * BlockedBloomKernels.BLOCK_BYTES;
    }
}
