package io.mapsketch.internal;

/**
 * A {@code long} as the ASCII digits of {@link Long#toString(long)}, written without allocating: the
 * bytes by which schemes that hash text hash a {@code long} key (Redis's clients send {@code 42} as the
 * two bytes {@code "42"}; a Guava filter of strings holds {@code String.valueOf(42)}).
 */
public final class Decimal {

    /** Bytes of the longest decimal string of a {@code long}: {@code -9223372036854775808}. */
    public static final int LONG_DIGITS = 20;

    private Decimal() {}

    /**
     * Writes {@link Long#toString(long)} of {@code value} in ASCII so that it ends at {@code digits[20]}.
     *
     * @param value the value
     * @param digits at least {@value #LONG_DIGITS} bytes
     * @return where the digits start; they end before index {@value #LONG_DIGITS}
     */
    public static int write(long value, byte[] digits) {
        int at = LONG_DIGITS;
        long rest = value < 0 ? value : -value;
        do {
            digits[--at] = (byte) ('0' - rest % 10);
            rest /= 10;
        } while (rest != 0);
        if (value < 0) {
            digits[--at] = '-';
        }
        return at;
    }
}
