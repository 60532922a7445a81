package io.mapsketch.cardinality;

import io.mapsketch.SketchFileException;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.FormatVersions;
import io.mapsketch.internal.HeaderFormat;
import io.mapsketch.internal.HeaderParameter;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.internal.HeaderValue;
import io.mapsketch.internal.KeyIndex;
import java.util.List;

/**
 * The header of a HyperLogLog table file (kind 11): the precision p in slot 0, the key capacity N in
 * slot 1, the heap's size H in slot 2. The payload is the 64-byte table line, the key index of
 * {@link KeyIndex#slotCount}(N) slot words and the heap; the layout is drawn in
 * {@code docs/design/tables.md} and {@code docs/file-format.md}. Hash scheme: XXH3-64 only.
 *
 * <p>Versions: reads and writes 5 (the header page with the counter slots).
 *
 * @param precision p, in [{@value HyperLogLog#MIN_PRECISION}, {@value HyperLogLog#MAX_PRECISION}]
 * @param capacity N, in [1, 2^32]
 * @param heapBytes H, a multiple of 64 in [64, 2^43]
 */
record HyperLogLogTableFormat(int precision, long capacity, long heapBytes) implements HeaderFormat {

    /** The largest key capacity. */
    static final long MAX_CAPACITY = 1L << 32;
    /** The largest heap: the 40-bit references of 8-byte units reach 2^43 bytes. */
    static final long MAX_HEAP_BYTES = 1L << 43;
    /** The table line's bytes, before the index. */
    static final long LINE_BYTES = 64;

    /** The versions read and written. */
    static final FormatVersions VERSIONS = new FormatVersions(5, 5, 5);
    /** p: slot 0. */
    static final HeaderParameter.Ranged PRECISION =
            HeaderParameter.ranged(0, "precision", HyperLogLog.MIN_PRECISION, HyperLogLog.MAX_PRECISION);
    /** N: slot 1. */
    static final HeaderParameter.Ranged CAPACITY = HeaderParameter.ranged(1, "key capacity", 1, MAX_CAPACITY);
    /** H: slot 2. */
    static final HeaderParameter.Ranged HEAP_BYTES =
            new HeaderParameter.Ranged(2, "heap bytes", 64, MAX_HEAP_BYTES, v -> v % 64 == 0, "a multiple of 64");
    /** What two tables that merge key by key must share. */
    static final List<HeaderParameter> SHAPE = List.of(PRECISION);

    /** Reads and checks a header: its version, the parameters' ranges and the payload's length. */
    static HyperLogLogTableFormat read(HeaderReader header) throws SketchFileException {
        header.requireVersion(VERSIONS);
        HyperLogLogTableFormat format = new HyperLogLogTableFormat(
                (int) header.read(PRECISION), header.read(CAPACITY), header.read(HEAP_BYTES));
        header.requirePayload(
                format.payloadBytes(), "a 64-byte table line, 8-byte slots for 4/3 of the key capacity, and the heap");
        return format;
    }

    /** The index's slot count S. */
    long slots() {
        return KeyIndex.slotCount(capacity);
    }

    /** Where the heap starts in the payload. */
    long heapOffset() {
        return LINE_BYTES + slots() * Long.BYTES;
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
        return List.of(PRECISION.of(precision), CAPACITY.of(capacity), HEAP_BYTES.of(heapBytes));
    }

    @Override
    public long payloadBytes() {
        return heapOffset() + heapBytes;
    }
}
