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
 * The header of a MinHash file (kind 9): the signature length k in slot 0, the slot derivation
 * scheme ({@link MinHashDerivation}) in slot 1 and the rows R in slot 2; the payload is R rows of k
 * 64-bit slots, each row padded to a multiple of 64 bytes.
 *
 * <p>Versions: reads 1 to 5, writes 5. The layout is the same in every version; version 4 adds the
 * payload checksum, which the header page keeps; version 5 keeps the live counters in slots, one per
 * shared writer, and is the first that may hold derivation scheme 2.
 *
 * @param signatureLength k, in [1, {@value MinHashSizing.MAX_SLOTS}]
 * @param rows R, in [1, {@value MinHash#MAX_ROWS}]
 * @param derivation the slot derivation
 */
record MinHashFormat(int signatureLength, int rows, MinHashDerivation derivation) implements HeaderFormat {

    /** The versions read and written. */
    static final FormatVersions VERSIONS = new FormatVersions(1, 5, 5);
    /** The first version that may hold derivation scheme 2. */
    static final int SUPER_MINHASH_VERSION = 5;
    /** k: slot 0. */
    static final HeaderParameter.Ranged SIGNATURE_LENGTH =
            HeaderParameter.ranged(0, "signature length", 1, MinHashSizing.MAX_SLOTS);
    /** The slot derivation: slot 1. */
    static final HeaderParameter.Ranged DERIVATION_SCHEME = HeaderParameter.oneOf(
            1, "derivation scheme", MinHashDerivation.CLASSIC.id(), MinHashDerivation.SUPER_MINHASH.id());
    /** R: slot 2. */
    static final HeaderParameter.Ranged ROWS = HeaderParameter.ranged(2, "rows", 1, MinHash.MAX_ROWS);
    /** What a row of one sketch and a row of another must share to merge. */
    static final List<HeaderParameter> ROW_SHAPE = List.of(SIGNATURE_LENGTH, DERIVATION_SCHEME);
    /** What two sketches that merge every row must share. */
    static final List<HeaderParameter> SHAPE = List.of(SIGNATURE_LENGTH, DERIVATION_SCHEME, ROWS);

    /** Reads and checks a header: its version, each parameter's range and the payload's length. */
    static MinHashFormat read(HeaderReader header) throws SketchFileException {
        header.requireVersion(VERSIONS);
        int signatureLength = (int) header.read(SIGNATURE_LENGTH);
        MinHashDerivation derivation = MinHashDerivation.ofId(header.read(DERIVATION_SCHEME));
        if (derivation != MinHashDerivation.CLASSIC && header.version() < SUPER_MINHASH_VERSION) {
            throw header.corrupt("header parameter 'derivation scheme' (index 1) is " + derivation.id()
                    + ", expected " + MinHashDerivation.CLASSIC.id() + " in format version " + header.version()
                    + " (scheme " + derivation.id() + " from version " + SUPER_MINHASH_VERSION + ")");
        }
        MinHashFormat format = new MinHashFormat(signatureLength, (int) header.read(ROWS), derivation);
        header.requirePayload(format.payloadBytes(), "rows x ceil(8 x signature length / 64) x 64 bytes");
        return format;
    }

    @Override
    public SketchKind kind() {
        return SketchKind.MINHASH;
    }

    @Override
    public FormatVersions versions() {
        return VERSIONS;
    }

    @Override
    public List<HeaderValue> values() {
        return List.of(SIGNATURE_LENGTH.of(signatureLength), DERIVATION_SCHEME.of(derivation.id()), ROWS.of(rows));
    }

    @Override
    public long payloadBytes() {
        return rows * MinHashRows.stride(signatureLength);
    }
}
