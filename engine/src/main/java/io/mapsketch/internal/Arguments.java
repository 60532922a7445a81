package io.mapsketch.internal;

/**
 * The argument checks the sizing formulas of every family share, each throwing
 * {@link IllegalArgumentException} that names the parameter, its value and the valid range.
 */
public final class Arguments {

    private Arguments() {}

    /** Refuses a value below 1: {@code "<name> = <value>, must be >= 1"}. */
    public static void requirePositive(String name, long value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " = " + value + ", must be >= 1");
        }
    }

    /** Refuses a value outside (0, 1), NaN included: {@code "<name> = <value>, must be in (0, 1)"}. */
    public static void requireOpenUnit(String name, double value) {
        if (!(value > 0 && value < 1)) {
            throw new IllegalArgumentException(name + " = " + value + ", must be in (0, 1)");
        }
    }
}
