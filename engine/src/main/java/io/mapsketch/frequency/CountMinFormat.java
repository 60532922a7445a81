package io.mapsketch.frequency;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.SketchFileException;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.FormatVersions;
import io.mapsketch.internal.HeaderFormat;
import io.mapsketch.internal.HeaderParameter;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.internal.HeaderValue;
import io.mapsketch.memory.HashScheme;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * The header of a Count-Min file (kind 6), whose slots 0 to 5 a Top-K file ({@link TopKFormat}) shares:
 * width w, depth d, counter bytes (4 or 8), the conservative flag (0 or 1), epsilon and delta (as
 * double bits). A file whose width or depth does not follow from its epsilon and delta is refused.
 * The payload is d rows of w counters, each row rounded up to whole 64-byte lines.
 *
 * <p>Versions: reads 1 to 5, writes 5 (version 5 keeps the live counters in slots, one per shared writer). Files of versions 1 to 3 take each row's counter by double
 * hashing; from version {@value #INDEPENDENT_ROWS_VERSION} by a mix of its own per row
 * ({@link CountMinRows}). Version 4 also adds the payload checksum, which the header page keeps.
 *
 * @param width w, in [1, 2^31 - 1], {@code ceil(e / epsilon)}
 * @param depth d, in [1, {@value FrequencySketch#MAX_DEPTH}], {@code ceil(ln(1 / delta))}
 * @param counterBytes 4 or 8
 * @param conservative whether updates are conservative
 * @param epsilon in (0, 1)
 * @param delta in (0, 1)
 */
record CountMinFormat(int width, int depth, int counterBytes, boolean conservative, double epsilon, double delta)
        implements HeaderFormat {

    /** The versions read and written. */
    static final FormatVersions VERSIONS = new FormatVersions(1, 5, 5);
    /**
     * The first format version in which each row's counter comes from a mix of its own of the whole
     * hash rather than by double hashing.
     */
    static final int INDEPENDENT_ROWS_VERSION = 4;
    /** w: slot 0. */
    static final HeaderParameter.Ranged WIDTH = HeaderParameter.ranged(0, "width", 1, Integer.MAX_VALUE);
    /** d: slot 1. */
    static final HeaderParameter.Ranged DEPTH = HeaderParameter.ranged(1, "depth", 1, FrequencySketch.MAX_DEPTH);
    /** Counter bytes: slot 2. */
    static final HeaderParameter.Ranged COUNTER_BYTES =
            HeaderParameter.oneOf(2, "counter bytes", Integer.BYTES, Long.BYTES);
    /** Conservative update, 1, or not, 0: slot 3. */
    static final HeaderParameter.Ranged CONSERVATIVE = HeaderParameter.ranged(3, "conservative", 0, 1);
    /** Epsilon: slot 4. */
    static final HeaderParameter.Interval EPSILON = HeaderParameter.interval(4, "epsilon", 0, 1);
    /** Delta: slot 5. */
    static final HeaderParameter.Interval DELTA = HeaderParameter.interval(5, "delta", 0, 1);
    /** The slots of a Count-Min or Top-K header: 0 to 5. */
    static final Slots SLOTS = new Slots(WIDTH, DEPTH, COUNTER_BYTES, CONSERVATIVE, EPSILON, DELTA);
    /** What two sketches that merge must share: the counter matrix's shape. */
    static final List<HeaderParameter> SHAPE = SLOTS.shape();

    /**
     * Where a kind's header keeps a Count-Min shape: a Count-Min or Top-K file in slots 0 to 5, a table of
     * Count-Min sketches in the slots its key parameters leave.
     *
     * @param width w
     * @param depth d
     * @param counterBytes 4 or 8
     * @param conservative the update rule, or {@code null} for a kind whose updates are plain
     * @param epsilon epsilon
     * @param delta delta
     */
    record Slots(
            HeaderParameter.Ranged width,
            HeaderParameter.Ranged depth,
            HeaderParameter.Ranged counterBytes,
            HeaderParameter.Ranged conservative,
            HeaderParameter.Interval epsilon,
            HeaderParameter.Interval delta) {

        /** The parameters two sketches that merge must share: the counter matrix's shape. */
        List<HeaderParameter> shape() {
            return List.of(width, depth, counterBytes);
        }
    }

    /**
     * The shape a builder asks for, validated by the sizing rules; a delta below what the 64-bit hash
     * can honour at this epsilon ({@link CountMinSizing#lowestDelta}) is refused.
     */
    static CountMinFormat of(double epsilon, double delta, int counterBits, boolean conservative) {
        int width = CountMinSizing.width(epsilon);
        int depth = CountMinSizing.depth(delta);
        double lowest = CountMinSizing.lowestDelta(epsilon);
        if (!(delta >= lowest)) {
            throw new IllegalArgumentException("delta = " + delta + ", must be in [" + lowest + ", 1) at epsilon = "
                    + epsilon + ": keys of equal 64-bit hash share every row, so no depth honours a smaller delta");
        }
        return new CountMinFormat(width, depth, counterBits / Byte.SIZE, conservative, epsilon, delta);
    }

    /**
     * Refuses a counter width other than 32 or 64 bits, as a builder's {@code counterBits} takes it.
     *
     * @throws IllegalArgumentException naming the value
     */
    static void requireCounterBits(int bits) {
        if (bits != 32 && bits != 64) {
            throw new IllegalArgumentException("counterBits = " + bits + ", must be 32 or 64");
        }
    }

    /** Reads and checks a Count-Min file's header: its version, its shape and the payload's length. */
    static CountMinFormat read(HeaderReader header) throws SketchFileException {
        header.requireVersion(VERSIONS);
        CountMinFormat format = readShape(header);
        header.requirePayload(
                format.payloadBytes(),
                "depth rows of width counters of counter bytes, each row rounded up to 64 bytes");
        return format;
    }

    /** Reads slots 0 to 5 of a Count-Min or Top-K header and cross-checks width and depth with epsilon and delta. */
    static CountMinFormat readShape(HeaderReader header) throws CorruptSketchFileException {
        return readShape(header, SLOTS);
    }

    /** Reads a Count-Min shape from its slots and cross-checks width and depth with epsilon and delta. */
    static CountMinFormat readShape(HeaderReader header, Slots slots) throws CorruptSketchFileException {
        int width = (int) header.read(slots.width());
        int depth = (int) header.read(slots.depth());
        int counterBytes = (int) header.read(slots.counterBytes());
        boolean conservative = slots.conservative() != null && header.read(slots.conservative()) == 1;
        double epsilon = header.read(slots.epsilon());
        double delta = header.read(slots.delta());
        int widthOfEpsilon = sized(header, slots.epsilon(), epsilon, () -> CountMinSizing.width(epsilon));
        if (widthOfEpsilon != width) {
            throw header.corrupt("width is " + width + ", but epsilon " + epsilon + " gives " + widthOfEpsilon);
        }
        int depthOfDelta = sized(header, slots.delta(), delta, () -> CountMinSizing.depth(delta));
        if (depthOfDelta != depth) {
            throw header.corrupt("depth is " + depth + ", but delta " + delta + " gives " + depthOfDelta);
        }
        return new CountMinFormat(width, depth, counterBytes, conservative, epsilon, delta);
    }

    /** Applies a sizing rule to a header value; a value the rule refuses makes the file corrupt. */
    private static int sized(HeaderReader header, HeaderParameter parameter, double value, IntSupplier rule)
            throws CorruptSketchFileException {
        try {
            return rule.getAsInt();
        } catch (IllegalArgumentException refused) {
            throw header.corrupt(
                    "header parameter '" + parameter.name() + "' is " + value + ": " + refused.getMessage());
        }
    }

    /** Bytes of the counter matrix: depth rows, each rounded up to whole 64-byte lines. */
    long counterBytesTotal() {
        return depth * CounterMatrix.rowStride(width, counterBytes);
    }

    @Override
    public SketchKind kind() {
        return SketchKind.COUNT_MIN;
    }

    @Override
    public FormatVersions versions() {
        return VERSIONS;
    }

    @Override
    public List<HeaderValue> values() {
        return values(SLOTS);
    }

    /** The shape's values in the slots of a kind; no update rule's for a kind without one. */
    List<HeaderValue> values(Slots slots) {
        List<HeaderValue> values = new ArrayList<>(List.of(
                slots.width().of(width),
                slots.depth().of(depth),
                slots.counterBytes().of(counterBytes)));
        if (slots.conservative() != null) {
            values.add(slots.conservative().of(conservative ? 1 : 0));
        }
        values.add(slots.epsilon().of(epsilon));
        values.add(slots.delta().of(delta));
        return values;
    }

    @Override
    public long payloadBytes() {
        return counterBytesTotal();
    }

    /** Runs XXH3-64, and Spark's scheme with 64-bit counters and plain update, as Spark counts. */
    @Override
    public String schemeRefusal(HashScheme scheme) {
        return switch (scheme) {
            case XXH3_64 -> null;
            case SPARK_MURMUR3_32 ->
                counterBytes == Long.BYTES && !conservative
                        ? null
                        : "SPARK_MURMUR3_32 counts in 64-bit counters with plain update, as Spark does";
            default -> kind() + " runs XXH3_64, and SPARK_MURMUR3_32";
        };
    }
}
