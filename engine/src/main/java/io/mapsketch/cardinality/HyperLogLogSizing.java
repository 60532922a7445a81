package io.mapsketch.cardinality;

/**
 * The sizing formulas of HyperLogLog: registers and relative standard error from the precision p.
 * Pure arithmetic; a precision outside [4, 21] throws {@link IllegalArgumentException} naming it
 * (4 to 18 hold for every hash scheme, 19 to 21 only for DataSketches').
 */
public final class HyperLogLogSizing {

    private HyperLogLogSizing() {}

    /**
     * Registers of precision {@code p}: {@code m = 2^p}, one byte each.
     *
     * @throws IllegalArgumentException if p is not in [4, 21]
     */
    static int registers(int precision) {
        if (precision < HyperLogLog.MIN_PRECISION || precision > HyperLogLog.MAX_DATASKETCHES_PRECISION) {
            throw new IllegalArgumentException("precision = " + precision
                    + ", must be in [4, 18] (in [4, 21] for a sketch that hashes as DataSketches does)");
        }
        return 1 << precision;
    }

    /**
     * Relative standard error of a HyperLogLog sketch: {@code 1.04 / sqrt(m)} (one standard
     * deviation, not a maximum). p = 14 gives 0.8125%.
     *
     * @param precision p, in [4, 21]
     * @return the relative standard error
     * @throws IllegalArgumentException if p is out of range
     */
    public static double relativeStandardError(int precision) {
        return 1.04 / Math.sqrt(registers(precision));
    }
}
