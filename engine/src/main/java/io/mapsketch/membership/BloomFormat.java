package io.mapsketch.membership;

import static io.mapsketch.membership.FilterParameters.EXPECTED_ITEMS;
import static io.mapsketch.membership.FilterParameters.FALSE_POSITIVE_RATE;
import static io.mapsketch.membership.ProbedLayout.HASHES;

import io.mapsketch.SketchFileException;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.FormatVersions;
import io.mapsketch.internal.HeaderFormat;
import io.mapsketch.internal.HeaderParameter;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.internal.HeaderValue;
import java.util.List;

/**
 * The header of a classic Bloom filter file (kind 1): bits m in slot 0, probes k in slot 1, the
 * expected items n and the rate p it was sized for in slots 2 and 3; the payload is m bits rounded up
 * to whole 64-byte lines.
 *
 * <p>Versions: reads 1 to 5, writes 5 (version 5 keeps the live counters in slots, one per shared writer). Files of versions 1 and 2 add the enhanced term of their
 * probes to the probe's 64-bit value, from version {@value ProbedLayout#ENHANCED_PROBES_VERSION} in
 * cells ({@link ProbeCells}); version 4 adds the payload checksum, which the header page keeps.
 *
 * @param bits m, in [1, {@value #MAX_BITS}]
 * @param hashes k, in [1, 64]
 * @param expectedItems n, at least 1
 * @param falsePositiveRate p, in (0, 1)
 */
record BloomFormat(long bits, int hashes, long expectedItems, double falsePositiveRate) implements HeaderFormat {

    /** The versions read and written. */
    static final FormatVersions VERSIONS = new FormatVersions(1, 5, 5);
    /** The most bits the format allows: {@code 2^63 - 512}, whose lines of 512 bits a file can hold. */
    static final long MAX_BITS = Long.MAX_VALUE - 511;
    /** m, the bits: slot 0. */
    static final HeaderParameter.Ranged BITS = HeaderParameter.ranged(0, "bits", 1, MAX_BITS);
    /** What two filters that merge must share. */
    static final List<HeaderParameter> SHAPE = List.of(BITS, HASHES);

    /** Sizes a filter for n items at rate p; refuses what the format cannot hold. */
    static BloomFormat sized(long expectedItems, double falsePositiveRate) {
        ProbedLayout layout = ProbedLayout.sized(expectedItems, falsePositiveRate, MAX_BITS, "classic Bloom filter");
        return new BloomFormat(layout.cells(), layout.hashes(), expectedItems, falsePositiveRate);
    }

    /** Reads and checks a header: its version, each parameter's range and the payload's length. */
    static BloomFormat read(HeaderReader header) throws SketchFileException {
        header.requireVersion(VERSIONS);
        BloomFormat format = new BloomFormat(
                header.read(BITS),
                (int) header.read(HASHES),
                header.read(EXPECTED_ITEMS),
                header.read(FALSE_POSITIVE_RATE));
        header.requirePayload(format.payloadBytes(), "bits rounded up to whole 64-byte lines");
        return format;
    }

    /** Bytes of the bit array of m bits: whole lines of 512 bits. */
    static long payloadBytes(long bits) {
        return Math.ceilDiv(bits, 512) * 64;
    }

    @Override
    public SketchKind kind() {
        return SketchKind.BLOOM;
    }

    @Override
    public FormatVersions versions() {
        return VERSIONS;
    }

    @Override
    public List<HeaderValue> values() {
        return List.of(
                BITS.of(bits),
                HASHES.of(hashes),
                EXPECTED_ITEMS.of(expectedItems),
                FALSE_POSITIVE_RATE.of(falsePositiveRate));
    }

    @Override
    public long payloadBytes() {
        return payloadBytes(bits);
    }
}
