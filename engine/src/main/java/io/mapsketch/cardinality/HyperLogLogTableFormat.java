package io.mapsketch.cardinality;

import io.mapsketch.SketchFileException;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.FormatVersions;
import io.mapsketch.internal.HeaderFormat;
import io.mapsketch.internal.HeaderParameter;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.internal.HeaderValue;
import io.mapsketch.internal.TableParameters;
import java.util.ArrayList;
import java.util.List;

/**
 * The header of a HyperLogLog table file (kind 11): the precision p in slot 0, the key capacity N in
 * slot 1, the heap's size H in slot 2 ({@link TableParameters}). The payload is the 64-byte table line,
 * the key index and the heap; the layout is drawn in {@code docs/design/tables.md} and
 * {@code docs/file-format.md}. Hash scheme: XXH3-64 only.
 *
 * <p>Versions: reads and writes 6 (the header page of version 5, with the counter slots; the sparse entries
 * packed into 64-bit words). A table of version 5, whose entries are 32-bit words, is refused as incompatible.
 *
 * @param precision p, in [{@value HyperLogLog#MIN_PRECISION}, {@value HyperLogLog#MAX_PRECISION}]
 * @param table N and H
 */
record HyperLogLogTableFormat(int precision, TableParameters table) implements HeaderFormat {

    /** The versions read and written. */
    static final FormatVersions VERSIONS = new FormatVersions(6, 6, 6);
    /** p: slot 0. */
    static final HeaderParameter.Ranged PRECISION =
            HeaderParameter.ranged(0, "precision", HyperLogLog.MIN_PRECISION, HyperLogLog.MAX_PRECISION);
    /** What two tables that merge key by key must share. */
    static final List<HeaderParameter> SHAPE = List.of(PRECISION);

    /** Reads and checks a header: its version, the parameters' ranges and the payload's length. */
    static HyperLogLogTableFormat read(HeaderReader header) throws SketchFileException {
        header.requireVersion(VERSIONS);
        HyperLogLogTableFormat format =
                new HyperLogLogTableFormat((int) header.read(PRECISION), TableParameters.read(header));
        header.requirePayload(
                format.payloadBytes(), "a 64-byte table line, 8-byte slots for 4/3 of the key capacity, and the heap");
        return format;
    }

    @Override
    public SketchKind kind() {
        return SketchKind.HYPERLOGLOG_TABLE;
    }

    @Override
    public FormatVersions versions() {
        return VERSIONS;
    }

    @Override
    public List<HeaderValue> values() {
        List<HeaderValue> values = new ArrayList<>(List.of(PRECISION.of(precision)));
        values.addAll(table.values());
        return values;
    }

    @Override
    public long payloadBytes() {
        return table.heapEnd();
    }
}
