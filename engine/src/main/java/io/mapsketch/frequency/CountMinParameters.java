package io.mapsketch.frequency;

import io.mapsketch.internal.HeaderFields;
import io.mapsketch.internal.RegionSketch;
import io.mapsketch.memory.CorruptSketchFileException;
import io.mapsketch.memory.SketchRegion;
import java.util.function.IntSupplier;

/**
 * The Count-Min shape stored in header parameters 0 to 5 of a Count-Min or Top-K file: width,
 * depth, counter bytes, the conservative flag, epsilon and delta (as double bits). Read from a
 * header with every cross-check, so a file whose width or depth does not follow from its epsilon
 * and delta is refused.
 */
record CountMinParameters(int width, int depth, int counterBytes, boolean conservative, double epsilon, double delta) {

    /** How many header parameters the shape takes; Top-K's own follow. */
    static final int COUNT = 6;
    /** Names of the parameters that must match for a merge, in header order. */
    static final String[] MERGE_NAMES = {"width", "depth", "counter bytes"};

    private static final int WIDTH = 0;
    private static final int DEPTH = 1;
    private static final int COUNTER_BYTES = 2;
    private static final int CONSERVATIVE = 3;
    private static final int EPSILON = 4;
    private static final int DELTA = 5;

    /**
     * The shape a builder asks for, validated by the sizing rules; a delta below what the 64-bit hash
     * can honour at this epsilon ({@link CountMinSizing#lowestDelta}) is refused.
     */
    static CountMinParameters of(double epsilon, double delta, int counterBits, boolean conservative) {
        int width = CountMinSizing.width(epsilon);
        int depth = CountMinSizing.depth(delta);
        double lowest = CountMinSizing.lowestDelta(epsilon);
        if (!(delta >= lowest)) {
            throw new IllegalArgumentException("delta = " + delta + ", must be in [" + lowest + ", 1) at epsilon = "
                    + epsilon + ": keys of equal 64-bit hash share every row, so no depth honours a smaller delta");
        }
        return new CountMinParameters(width, depth, counterBits / Byte.SIZE, conservative, epsilon, delta);
    }

    /** Reads and cross-checks the shape from a region's header. */
    static CountMinParameters read(SketchRegion region) throws CorruptSketchFileException {
        int width = (int) HeaderFields.parameter(region, WIDTH, "width", 1, Integer.MAX_VALUE);
        int depth = (int) HeaderFields.parameter(region, DEPTH, "depth", 1, FrequencySketch.MAX_DEPTH);
        int counterBytes = (int) HeaderFields.parameter(region, COUNTER_BYTES, "counter bytes", Integer.BYTES,
                Long.BYTES);
        if (counterBytes != Integer.BYTES && counterBytes != Long.BYTES) {
            throw corrupt(region, "header parameter 'counter bytes' (index " + COUNTER_BYTES + ") is "
                    + counterBytes + ", expected 4 or 8");
        }
        boolean conservative = HeaderFields.parameter(region, CONSERVATIVE, "conservative", 0, 1) == 1;
        double epsilon = HeaderFields.openIntervalParameter(region, EPSILON, "epsilon", 0, 1);
        double delta = HeaderFields.openIntervalParameter(region, DELTA, "delta", 0, 1);
        int widthOfEpsilon = sized(region, "epsilon", epsilon, () -> CountMinSizing.width(epsilon));
        if (widthOfEpsilon != width) {
            throw corrupt(region, "width is " + width + ", but epsilon " + epsilon + " gives " + widthOfEpsilon);
        }
        int depthOfDelta = sized(region, "delta", delta, () -> CountMinSizing.depth(delta));
        if (depthOfDelta != depth) {
            throw corrupt(region, "depth is " + depth + ", but delta " + delta + " gives " + depthOfDelta);
        }
        return new CountMinParameters(width, depth, counterBytes, conservative, epsilon, delta);
    }

    /** Applies a sizing rule to a header value; a value the rule refuses makes the file corrupt. */
    private static int sized(SketchRegion region, String name, double value, IntSupplier rule)
            throws CorruptSketchFileException {
        try {
            return rule.getAsInt();
        } catch (IllegalArgumentException refused) {
            throw corrupt(region, "header parameter '" + name + "' is " + value + ": " + refused.getMessage());
        }
    }

    /** The header parameters 0 to 5, in order. */
    long[] toHeader() {
        return new long[] {width, depth, counterBytes, conservative ? 1 : 0, Double.doubleToLongBits(epsilon),
            Double.doubleToLongBits(delta)};
    }

    /** Bytes of the counter matrix: depth rows, each rounded up to whole 64-byte lines. */
    long counterBytesTotal() {
        return depth * CounterMatrix.rowStride(width, counterBytes);
    }

    static CorruptSketchFileException corrupt(SketchRegion region, String message) {
        return new CorruptSketchFileException(region.file().orElse(null), message);
    }
}
