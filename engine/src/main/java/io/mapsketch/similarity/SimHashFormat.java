package io.mapsketch.similarity;

import io.mapsketch.SketchFileException;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.FormatVersions;
import io.mapsketch.internal.HeaderFormat;
import io.mapsketch.internal.HeaderParameter;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.internal.HeaderValue;
import java.util.List;

/**
 * The header of a SimHash table file (kind 10): the capacity N in slot 0 and the fingerprint scheme
 * ({@value SimHash#FINGERPRINT_SCHEME}, the only one) in slot 1; the payload is a 64-byte control line,
 * the occupancy bitmap and N 64-bit fingerprints ({@link SimHash#payloadBytes}).
 *
 * <p>Versions: reads 1 to 5, writes 5 (version 5 keeps the live counters in slots, one per shared writer). The layout is the same in every version; version 4 adds the
 * payload checksum, which the header page keeps.
 *
 * @param capacity N, in [1, 2^40]
 */
record SimHashFormat(long capacity) implements HeaderFormat {

    /** The versions read and written. */
    static final FormatVersions VERSIONS = new FormatVersions(1, 5, 5);
    /** N: slot 0. */
    static final HeaderParameter.Ranged CAPACITY = HeaderParameter.ranged(0, "capacity", 1, SimHash.MAX_CAPACITY);
    /** The fingerprint scheme: slot 1. */
    static final HeaderParameter.Ranged FINGERPRINT_SCHEME =
            HeaderParameter.oneOf(1, "fingerprint scheme", SimHash.FINGERPRINT_SCHEME);

    /** Reads and checks a header: its version, each parameter's range and the payload's length. */
    static SimHashFormat read(HeaderReader header) throws SketchFileException {
        header.requireVersion(VERSIONS);
        SimHashFormat format = new SimHashFormat(header.read(CAPACITY));
        header.read(FINGERPRINT_SCHEME);
        header.requirePayload(format.payloadBytes(), "64 + ceil(capacity / 512) x 64 + ceil(capacity / 8) x 64 bytes");
        return format;
    }

    @Override
    public SketchKind kind() {
        return SketchKind.SIMHASH;
    }

    @Override
    public FormatVersions versions() {
        return VERSIONS;
    }

    @Override
    public List<HeaderValue> values() {
        return List.of(CAPACITY.of(capacity), FINGERPRINT_SCHEME.of(SimHash.FINGERPRINT_SCHEME));
    }

    @Override
    public long payloadBytes() {
        return SimHash.payloadBytes(capacity);
    }
}
