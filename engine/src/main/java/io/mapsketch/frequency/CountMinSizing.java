package io.mapsketch.frequency;

import static io.mapsketch.internal.Arguments.requireOpenUnit;

/**
 * The sizing formulas of the Count-Min sketch (and so of Top-K's counters): width from epsilon,
 * depth from delta, and the lowest delta the 64-bit hash honours.
 *
 * <p>Pure arithmetic, no allocation. Arguments out of range throw {@link IllegalArgumentException}
 * naming the parameter, its value and the valid range; why the delta has a floor is in
 * {@code docs/design/sizing.md}.
 */
public final class CountMinSizing {

    private CountMinSizing() {}

    /**
     * The smallest delta a Count-Min sketch of {@code epsilon} can honour: {@code 2^-64 / epsilon}
     * (keys of equal 64-bit hash share every row, whatever the depth). Epsilon 0.001 gives 5.4e-17.
     *
     * @param epsilon the error as a fraction of the total weight, in (0, 1)
     * @return the lowest delta a builder accepts with that epsilon
     * @throws IllegalArgumentException if epsilon is out of range
     */
    public static double lowestDelta(double epsilon) {
        requireOpenUnit("epsilon", epsilon);
        return 0x1p-64 / epsilon;
    }

    /**
     * Width: {@code w = ceil(e / epsilon)}. Epsilon 0.001 gives 2,719.
     *
     * @param epsilon the error as a fraction of the total weight, in (0, 1)
     * @return w, counters per row
     * @throws IllegalArgumentException if epsilon is out of range or w would pass 2^31 - 1
     */
    public static int width(double epsilon) {
        requireOpenUnit("epsilon", epsilon);
        double width = Math.ceil(Math.E / epsilon);
        if (width > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("epsilon = " + epsilon + " needs " + width
                    + " counters per row, more than 2^31 - 1; epsilon must be at least "
                    + (Math.E / Integer.MAX_VALUE));
        }
        return (int) width;
    }

    /**
     * The epsilon recorded for a width set directly (RedisBloom's CMS.INITBYDIM): one that {@link #width}
     * sizes to exactly {@code width}, about {@code e / width}.
     *
     * @param width counters per row, in [3, 2^31 - 1] (epsilon must stay below 1)
     * @return epsilon
     * @throws IllegalArgumentException if the width is out of range
     */
    public static double epsilonOfWidth(int width) {
        if (width < 3) {
            throw new IllegalArgumentException("width = " + width + ", must be in [3, " + Integer.MAX_VALUE + "]");
        }
        double e = Math.E / width;
        while (width(e) > width) {
            e = Math.nextUp(e);
        }
        while (width(e) < width) {
            e = Math.nextDown(e);
        }
        return e;
    }

    /**
     * The delta recorded for a depth set directly: one that {@link #depth} sizes to exactly {@code depth},
     * about {@code e^-depth}.
     *
     * @param depth rows, in [1, {@value FrequencySketch#MAX_DEPTH}]
     * @return delta
     * @throws IllegalArgumentException if the depth is out of range
     */
    public static double deltaOfDepth(int depth) {
        if (depth < 1 || depth > FrequencySketch.MAX_DEPTH) {
            throw new IllegalArgumentException(
                    "depth = " + depth + ", must be in [1, " + FrequencySketch.MAX_DEPTH + "]");
        }
        double d = depth == FrequencySketch.MAX_DEPTH ? Double.MIN_VALUE : Math.exp(-depth);
        while (depth(d) > depth) {
            d = Math.nextUp(d);
        }
        while (depth(d) < depth) {
            d = Math.nextDown(d);
        }
        return d;
    }

    /**
     * Depth: {@code d = ceil(ln(1 / delta))}. Delta 0.01 gives 5; the smallest positive double,
     * 4.9e-324, gives {@value FrequencySketch#MAX_DEPTH}.
     *
     * @param delta the probability that an estimate exceeds the bound, in (0, 1)
     * @return d, rows, in [1, {@value FrequencySketch#MAX_DEPTH}]
     * @throws IllegalArgumentException if delta is out of range
     */
    public static int depth(double delta) {
        requireOpenUnit("delta", delta);
        double inverse = 1 / delta;
        // 1 / delta overflows to infinity below 1 / Double.MAX_VALUE (subnormal deltas); -ln(delta) does not.
        double rows = Double.isInfinite(inverse) ? -Math.log(delta) : Math.log(inverse);
        return (int) Math.max(1, Math.ceil(rows));
    }
}
