package io.mapsketch.frequency;

import io.mapsketch.SketchFileException;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.FormatVersions;
import io.mapsketch.internal.HeaderFormat;
import io.mapsketch.internal.HeaderParameter;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.internal.HeaderValue;
import io.mapsketch.internal.TableParameters;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The header of a Count-Min table file (kind 13): the width w in slot 0, the key capacity N in slot 1 and
 * the heap's size H in slot 2 ({@link TableParameters}), the depth d in slot 3, the counter bytes (4 or 8)
 * in slot 4, epsilon and delta in slots 5 and 6, width and depth following from them as a
 * {@link CountMinSketch}'s do. The payload is the table line, the key index, the heap of key records and
 * the counter area of N sketches of d rows of w counters, each row rounded up to 64 bytes; the layout is
 * drawn in {@code docs/design/tables.md} and {@code docs/file-format.md}. Updates are plain (no conservative
 * update). Hash scheme: XXH3-64 only.
 *
 * <p>Versions: reads and writes 5 (the header page with the counter slots), whose rows are those of a
 * {@link CountMinSketch} of version 5.
 *
 * @param sketch every key's shape, as a standalone sketch's
 * @param table N and H
 */
record CountMinTableFormat(CountMinFormat sketch, TableParameters table) implements HeaderFormat {

    /** The most bytes of a key's sketch (1 GiB): N x that stays below 2^62. */
    static final long MAX_SKETCH_BYTES = 1L << 30;
    /** The versions read and written. */
    static final FormatVersions VERSIONS = new FormatVersions(5, 5, 5);
    /** The slots of the shape: w in 0 (as a Count-Min file's), d in 3, counter bytes in 4, epsilon and delta in 5 and 6. */
    static final CountMinFormat.Slots SLOTS = new CountMinFormat.Slots(
            CountMinFormat.WIDTH,
            HeaderParameter.ranged(3, "depth", 1, FrequencySketch.MAX_DEPTH),
            HeaderParameter.oneOf(4, "counter bytes", Integer.BYTES, Long.BYTES),
            null,
            HeaderParameter.interval(5, "epsilon", 0, 1),
            HeaderParameter.interval(6, "delta", 0, 1));
    /** What two tables that merge key by key must share: their sketches' counter shape. */
    static final List<HeaderParameter> SHAPE = SLOTS.shape();

    /**
     * Gives every key the shape of a standalone sketch, plain.
     *
     * @throws IllegalArgumentException if the shape is conservative or a key's sketch would pass 1 GiB
     */
    static CountMinTableFormat sized(CountMinFormat sketch, TableParameters table) {
        if (sketch.conservative()) {
            throw new IllegalArgumentException("a Count-Min table's sketches update plainly, not conservatively");
        }
        if (sketch.counterBytesTotal() > MAX_SKETCH_BYTES) {
            throw new IllegalArgumentException(sizeFault(sketch));
        }
        return new CountMinTableFormat(sketch, table);
    }

    /** Reads and checks a header: its version, the parameters' ranges and the payload's length. */
    static CountMinTableFormat read(HeaderReader header) throws SketchFileException {
        header.requireVersion(VERSIONS);
        CountMinFormat sketch = CountMinFormat.readShape(header, SLOTS);
        if (sketch.counterBytesTotal() > MAX_SKETCH_BYTES) {
            throw header.corrupt(sizeFault(sketch));
        }
        CountMinTableFormat format = new CountMinTableFormat(sketch, TableParameters.read(header));
        header.requirePayload(
                format.payloadBytes(),
                "a 64-byte table line, 8-byte slots for 4/3 of the key capacity, the heap, and key capacity x"
                        + " depth rows of width counters, each row rounded up to 64 bytes");
        return format;
    }

    private static String sizeFault(CountMinFormat sketch) {
        return "width " + sketch.width() + " x depth " + sketch.depth() + " of " + sketch.counterBytes()
                + "-byte counters take " + sketch.counterBytesTotal() + " bytes per key, must be at most 2^30";
    }

    /** The bytes of one key's sketch: d rows, each rounded up to 64 bytes. */
    long sketchBytes() {
        return sketch.counterBytesTotal();
    }

    /** Where the counter area starts in the payload: after the heap, 64-byte aligned. */
    long counterAreaOffset() {
        return table.heapEnd();
    }

    /** The counter area's bytes: N sketches. */
    long counterAreaBytes() {
        return table.capacity() * sketchBytes();
    }

    @Override
    public SketchKind kind() {
        return SketchKind.COUNT_MIN_TABLE;
    }

    @Override
    public FormatVersions versions() {
        return VERSIONS;
    }

    @Override
    public List<HeaderValue> values() {
        List<HeaderValue> values = new ArrayList<>(sketch.values(SLOTS));
        values.addAll(table.values());
        values.sort(Comparator.comparingInt(v -> v.parameter().index()));
        return values;
    }

    @Override
    public long payloadBytes() {
        return counterAreaOffset() + counterAreaBytes();
    }
}
