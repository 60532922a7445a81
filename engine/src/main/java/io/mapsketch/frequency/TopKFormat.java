package io.mapsketch.frequency;

import io.mapsketch.SketchFileException;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.FormatVersions;
import io.mapsketch.internal.HeaderFormat;
import io.mapsketch.internal.HeaderParameter;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.internal.HeaderValue;
import java.util.ArrayList;
import java.util.List;

/**
 * The header of a Top-K file (kind 7): the Count-Min shape in slots 0 to 5 ({@link CountMinFormat}),
 * the number of candidates k in slot 6 and the longest key stored, max key bytes, in slot 7. The payload
 * is the Count-Min counters, then the candidate table ({@link CandidateTable#bytes}).
 *
 * <p>Versions: those of Count-Min files, read 1 to 5 and written 5, with their rows: double hashing
 * in versions 1 to 3, a mix per row from version {@value CountMinFormat#INDEPENDENT_ROWS_VERSION}.
 *
 * @param counters the Count-Min shape
 * @param k the candidates kept, in [1, {@value TopK#MAX_K}]
 * @param maxKeyBytes the longest key stored, in [8, {@value TopK#MAX_KEY_BYTES}]
 */
record TopKFormat(CountMinFormat counters, int k, int maxKeyBytes) implements HeaderFormat {

    /** The versions read and written. */
    static final FormatVersions VERSIONS = new FormatVersions(1, 5, 5);
    /** k: slot 6. */
    static final HeaderParameter.Ranged K = HeaderParameter.ranged(6, "k", 1, TopK.MAX_K);
    /** Max key bytes: slot 7. */
    static final HeaderParameter.Ranged MAX_KEY_BYTES =
            HeaderParameter.ranged(7, "max key bytes", Long.BYTES, TopK.MAX_KEY_BYTES);

    /** Reads and checks a Top-K file's header: its version, its shape, k, max key bytes and the payload's length. */
    static TopKFormat read(HeaderReader header) throws SketchFileException {
        header.requireVersion(VERSIONS);
        TopKFormat format = new TopKFormat(
                CountMinFormat.readShape(header), (int) header.read(K), (int) header.read(MAX_KEY_BYTES));
        header.requirePayload(
                format.payloadBytes(),
                "the Count-Min counters, then k candidate slots of max key bytes with their index and heap");
        return format;
    }

    @Override
    public SketchKind kind() {
        return SketchKind.TOP_K;
    }

    @Override
    public FormatVersions versions() {
        return VERSIONS;
    }

    @Override
    public List<HeaderValue> values() {
        List<HeaderValue> values = new ArrayList<>(counters.values());
        values.add(K.of(k));
        values.add(MAX_KEY_BYTES.of(maxKeyBytes));
        return List.copyOf(values);
    }

    @Override
    public long payloadBytes() {
        return counters.counterBytesTotal() + CandidateTable.bytes(k, maxKeyBytes);
    }
}
