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
 * The header of a counting Bloom filter file (kind 3): 4-bit counters m in slot 0, probes k in slot 1,
 * the expected items n and the rate p it was sized for in slots 2 and 3; the payload is m counters,
 * sixteen to a 64-bit word, rounded up to whole 64-byte lines.
 *
 * <p>Versions: reads 1 to 4, writes 4, with the probes of the classic filter's versions
 * ({@link BloomFormat}): the enhanced term in the 64-bit value in versions 1 and 2, in cells from
 * version {@value ProbedLayout#ENHANCED_PROBES_VERSION}; version 4 adds the payload checksum. Not version 5: its
 * counter slots only add, and this filter removes.
 *
 * @param counters m, in [1, {@value #MAX_COUNTERS}]
 * @param hashes k, in [1, 64]
 * @param expectedItems n, at least 1
 * @param falsePositiveRate p, in (0, 1)
 */
record CountingBloomFormat(long counters, int hashes, long expectedItems, double falsePositiveRate)
        implements HeaderFormat {

    /** The versions read and written. */
    static final FormatVersions VERSIONS = new FormatVersions(1, 4, 4);
    /** The most counters the format allows: {@code 2^61 - 128}, whose lines of 128 counters a file can hold. */
    static final long MAX_COUNTERS = Long.MAX_VALUE / 4 - 127;
    /** m, the counters: slot 0. */
    static final HeaderParameter.Ranged COUNTERS = HeaderParameter.ranged(0, "counters", 1, MAX_COUNTERS);
    /** What two filters that merge must share. */
    static final List<HeaderParameter> SHAPE = List.of(COUNTERS, HASHES);

    /** Sizes a filter for n items at rate p; refuses what the format cannot hold. */
    static CountingBloomFormat sized(long expectedItems, double falsePositiveRate) {
        ProbedLayout layout =
                ProbedLayout.sized(expectedItems, falsePositiveRate, MAX_COUNTERS, "counting Bloom filter");
        return new CountingBloomFormat(layout.cells(), layout.hashes(), expectedItems, falsePositiveRate);
    }

    /** Reads and checks a header: its version, each parameter's range and the payload's length. */
    static CountingBloomFormat read(HeaderReader header) throws SketchFileException {
        header.requireVersion(VERSIONS);
        CountingBloomFormat format = new CountingBloomFormat(
                header.read(COUNTERS),
                (int) header.read(HASHES),
                header.read(EXPECTED_ITEMS),
                header.read(FALSE_POSITIVE_RATE));
        header.requirePayload(format.payloadBytes(), "4-bit counters rounded up to whole 64-byte lines");
        return format;
    }

    /** Bytes of m 4-bit counters: whole lines of 128 counters. */
    static long payloadBytes(long counters) {
        return Math.ceilDiv(counters, 128) * 64;
    }

    @Override
    public SketchKind kind() {
        return SketchKind.COUNTING_BLOOM;
    }

    @Override
    public FormatVersions versions() {
        return VERSIONS;
    }

    @Override
    public List<HeaderValue> values() {
        return List.of(
                COUNTERS.of(counters),
                HASHES.of(hashes),
                EXPECTED_ITEMS.of(expectedItems),
                FALSE_POSITIVE_RATE.of(falsePositiveRate));
    }

    @Override
    public long payloadBytes() {
        return payloadBytes(counters);
    }
}
