package io.mapsketch.cardinality;

/**
 * The confidence bounds of a HyperLogLog estimate at k standard deviations ({@link HyperLogLog#lowerBound},
 * {@link HyperLogLog#upperBound}): the estimate divided by {@code 1 + w} and {@code 1 - w}, where the width
 * {@code w} is k relative standard errors. Pure arithmetic; why these bounds hold is in
 * {@code docs/design/cardinality.md}.
 */
final class HyperLogLogBounds {

    private HyperLogLogBounds() {}

    /**
     * The width {@code w = k} {@code relativeStandardError} of the bounds at {@code k} standard deviations.
     *
     * @throws IllegalArgumentException if k is negative or not finite
     */
    static double width(double standardDeviations, double relativeStandardError) {
        if (!(standardDeviations >= 0 && standardDeviations < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException(
                    "standardDeviations = " + standardDeviations + ", must be finite and >= 0");
        }
        return standardDeviations * relativeStandardError;
    }

    /**
     * The lower bound: {@code estimate / (1 + width)}, but at least {@code nonEmpty}, the number of non-empty
     * registers, and at most the estimate.
     */
    static double lower(double estimate, long nonEmpty, double width) {
        return Math.min(estimate, Math.max(nonEmpty, estimate / (1 + width)));
    }

    /** The upper bound: {@code estimate / (1 - width)}, or positive infinity once that is not positive. */
    static double upper(double estimate, double width) {
        return width < 1 ? estimate / (1 - width) : Double.POSITIVE_INFINITY;
    }
}
