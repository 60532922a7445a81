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
import java.util.List;

/**
 * The header of a cuckoo filter file (kind 5): buckets B of four slots in slot 0, fingerprint bits f
 * in slot 1, the expected items n and the rate p it was sized for in slots 2 and 3, the slot layout in
 * slot 4 ({@link CuckooTable#DENSE} in every file written now, {@link CuckooTable#WORD_ALIGNED} in
 * files written before it, whose slot 4 is zero); the payload is a 64-byte control line, then the
 * {@code 4 B} slots in that layout, rounded up to 64-byte lines.
 *
 * <p>Versions: reads 1 to 4, writes 4. The slot layout is a parameter, not a version; version 4 adds
 * the payload checksum, which the header page keeps. Not version 5: its counter slots only add, and
 * this filter removes.
 *
 * @param buckets B, a power of two in [2, 2^32]
 * @param fingerprintBits f: 8, 12 or 16
 * @param expectedItems n, at least 1
 * @param falsePositiveRate p, in (0, 1)
 * @param slotLayout {@link CuckooTable#DENSE} or {@link CuckooTable#WORD_ALIGNED}
 */
record CuckooFormat(long buckets, int fingerprintBits, long expectedItems, double falsePositiveRate, long slotLayout)
        implements HeaderFormat {

    /** The versions read and written. */
    static final FormatVersions VERSIONS = new FormatVersions(1, 4, 4);
    /** B, the buckets: slot 0. */
    static final HeaderParameter.Ranged BUCKETS = HeaderParameter.powerOfTwo(0, "buckets", 2, CuckooSizing.MAX_BUCKETS);
    /** f, the fingerprint width: slot 1. */
    static final HeaderParameter.Ranged FINGERPRINT_BITS = HeaderParameter.oneOf(1, "fingerprint bits", 8, 12, 16);
    /** How slots are packed: slot 4. */
    static final HeaderParameter.Ranged SLOT_LAYOUT =
            HeaderParameter.ranged(4, "slot layout", CuckooTable.WORD_ALIGNED, CuckooTable.DENSE);

    /** Sizes a filter for n items at rate p, densely packed; refuses what the format cannot hold. */
    static CuckooFormat sized(long expectedItems, double falsePositiveRate) {
        return new CuckooFormat(
                CuckooSizing.buckets(expectedItems),
                CuckooSizing.fingerprintBits(falsePositiveRate),
                expectedItems,
                falsePositiveRate,
                CuckooTable.DENSE);
    }

    /** Reads and checks a header: its version, each parameter's range and the payload's length. */
    static CuckooFormat read(HeaderReader header) throws SketchFileException {
        header.requireVersion(VERSIONS);
        CuckooFormat format = new CuckooFormat(
                header.read(BUCKETS),
                (int) header.read(FINGERPRINT_BITS),
                header.read(EXPECTED_ITEMS),
                header.read(FALSE_POSITIVE_RATE),
                header.read(SLOT_LAYOUT));
        header.requirePayload(
                format.payloadBytes(),
                "a 64-byte control line, then 4 x buckets slots "
                        + (format.slotLayout == CuckooTable.DENSE
                                ? "of fingerprint bits each"
                                : "packed floor(64 / fingerprint bits) to a 64-bit word")
                        + ", rounded up to 64-byte lines");
        return format;
    }

    @Override
    public SketchKind kind() {
        return SketchKind.CUCKOO;
    }

    @Override
    public FormatVersions versions() {
        return VERSIONS;
    }

    @Override
    public List<HeaderValue> values() {
        return List.of(
                BUCKETS.of(buckets),
                FINGERPRINT_BITS.of(fingerprintBits),
                EXPECTED_ITEMS.of(expectedItems),
                FALSE_POSITIVE_RATE.of(falsePositiveRate),
                SLOT_LAYOUT.of(slotLayout));
    }

    @Override
    public long payloadBytes() {
        return CuckooTable.payloadBytes(buckets, fingerprintBits, slotLayout);
    }
}
