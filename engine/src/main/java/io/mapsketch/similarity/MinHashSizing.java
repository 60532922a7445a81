package io.mapsketch.similarity;

/**
 * The sizing formulas of MinHash: slots of a signature from the standard error wanted of its
 * Jaccard estimates, and back. Pure arithmetic; arguments out of range throw
 * {@link IllegalArgumentException} naming the parameter, its value and the valid range.
 */
public final class MinHashSizing {

    /** The most slots a signature may have: 2^16, 512 KiB per signature. */
    public static final int MAX_SLOTS = 1 << 16;

    private MinHashSizing() {}

    /**
     * Slots for a wanted standard error e: {@code k = ceil(1 / e^2)}, at most {@value #MAX_SLOTS}.
     * e = 0.05 gives 400 slots (3,200 bytes per signature). {@code 1/sqrt(k)} bounds the true standard
     * deviation {@code sqrt(J (1 - J) / k)} from above by a factor of at least two.
     *
     * @throws IllegalArgumentException if e is not in [1/256, 1]
     */
    static int slots(double standardError) {
        double smallest = 1 / Math.sqrt(MAX_SLOTS);
        if (!(standardError >= smallest && standardError <= 1)) {
            throw new IllegalArgumentException("standardError = " + standardError + ", must be in [" + smallest
                    + ", 1] (1 / sqrt(k) for 1 to " + MAX_SLOTS + " slots)");
        }
        return (int) Math.min(MAX_SLOTS, Math.ceil(1 / (standardError * standardError) - 1e-9));
    }

    /**
     * The standard error a signature of k slots promises for its Jaccard estimates: {@code 1 / sqrt(k)},
     * at least twice the true standard deviation {@code sqrt(J (1 - J) / k)}.
     *
     * @param slots k, in [1, {@value #MAX_SLOTS}]
     * @return the standard error
     * @throws IllegalArgumentException if k is out of range
     */
    public static double standardError(int slots) {
        if (slots < 1 || slots > MAX_SLOTS) {
            throw new IllegalArgumentException("slots = " + slots + ", must be in [1, " + MAX_SLOTS + "]");
        }
        return 1 / Math.sqrt(slots);
    }
}
