package io.mapsketch.interop;

import io.mapsketch.internal.SparkCountMinBuckets;
import java.util.Arrays;
import java.util.OptionalInt;

/**
 * The seed from which Spark drew a Count-Min sketch's row multipliers, which its bytes hold but not the
 * seed: Spark draws them as {@code new java.util.Random(seed).nextInt(2^31 - 1)}, so the first
 * multiplier is the top 31 of the 48 bits of the generator's state after one step. Each of the 2^17
 * states with those top bits is stepped back once; the state before it is the seed's scramble
 * ({@code seed ^ 0x5DEECE66D}), whose bits 31 to 47 of an {@code int} seed all equal its sign. A
 * candidate seed is kept if it draws every multiplier. Cost: 2^17 multiplications, microseconds.
 */
final class SparkCountMinSeed {

    private static final long MULTIPLIER = 0x5DEECE66DL;
    private static final long ADDEND = 0xBL;
    private static final long MASK = (1L << 48) - 1;
    /** The inverse of the multiplier modulo 2^48 (Newton's iteration doubles the correct bits each step). */
    private static final long INVERSE;

    static {
        long inverse = MULTIPLIER;
        for (int i = 0; i < 5; i++) {
            inverse *= 2 - MULTIPLIER * inverse;
        }
        INVERSE = inverse & MASK;
    }

    private SparkCountMinSeed() {}

    /**
     * Finds the seed Spark drew {@code multipliers} from.
     *
     * @param multipliers a sketch's multipliers, one per row, at least one
     * @return the seed, or empty if no {@code int} seed draws them all (or the first draw was redrawn,
     *     which {@code nextInt} does once in 2^31 draws)
     */
    static OptionalInt of(long[] multipliers) {
        long first = multipliers[0];
        for (long low = 0; low < 1L << 17; low++) {
            long state = (first << 17) | low;
            long scrambled = ((state - ADDEND) * INVERSE) & MASK;
            long seed = scrambled ^ MULTIPLIER;
            long high = seed >>> 31;
            if ((high == 0 || high == (1L << 17) - 1)
                    && Arrays.equals(SparkCountMinBuckets.hashA((int) seed, multipliers.length), multipliers)) {
                return OptionalInt.of((int) seed);
            }
        }
        return OptionalInt.empty();
    }
}
