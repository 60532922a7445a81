package io.mapsketch.membership;

import static io.mapsketch.internal.Arguments.requireOpenUnit;
import static io.mapsketch.internal.Arguments.requirePositive;

/**
 * The sizing formulas of the cuckoo filter: buckets of {@value #BUCKET_SIZE} slots, fingerprints of
 * 8, 12 or 16 bits.
 *
 * <p>Pure arithmetic, no allocation. Arguments out of range, and shapes no file of the format holds,
 * throw {@link IllegalArgumentException} naming the parameter, its value and the valid range.
 */
public final class CuckooSizing {

    /** Slots per bucket (b). */
    public static final int BUCKET_SIZE = 4;
    /** The lowest rate a cuckoo filter reaches: {@code 2b / (2^16 - 1)} with 16-bit fingerprints. */
    public static final double LOWEST_RATE = 2.0 * BUCKET_SIZE / 65_535;
    /** The share of slots a filter is sized to use at its capacity; inserts begin to fail near 96% (b = 4). */
    static final double SIZING_LOAD = 0.9;
    /** Most buckets: bucket indices take the high 32 bits of the hash, fingerprints the low. */
    static final long MAX_BUCKETS = 1L << 32;

    private CuckooSizing() {}

    /**
     * Fingerprint width for false-positive rate {@code p}: the narrowest of 8, 12 and 16 bits whose rate
     * bound at full occupancy, {@code 2b / (2^f - 1)}, is at most p (3.14%, 0.195% and 0.0122%). A rate
     * above 3.14% gets 8 bits, whose rate is lower than asked.
     *
     * @throws IllegalArgumentException if p is not in [{@link #LOWEST_RATE}, 1)
     */
    static int fingerprintBits(double falsePositiveRate) {
        requireOpenUnit("falsePositiveRate", falsePositiveRate);
        for (int bits = 8; bits <= 16; bits += 4) {
            if (rateBound(bits) <= falsePositiveRate) {
                return bits;
            }
        }
        throw new IllegalArgumentException("falsePositiveRate = " + falsePositiveRate + ", must be in ["
                + LOWEST_RATE + ", 1) for a cuckoo filter (16-bit fingerprints reach at best 2b / (2^16 - 1));"
                + " use a Bloom filter for lower rates");
    }

    private static double rateBound(int bits) {
        return 2.0 * BUCKET_SIZE / ((1 << bits) - 1);
    }

    /**
     * Buckets for {@code n} items: the power of two at least {@code ceil(n / (b * 0.9))}, and at least
     * 2, so that n items fill at most 90% of the slots (between 45% and 90%, as the power of two falls).
     * 10,000 items take 4,096 buckets, 16,384 slots.
     *
     * @param expectedItems n, at least 1
     * @return the number of buckets, a power of two in [2, 2^32]
     * @throws IllegalArgumentException if n is out of range or needs more than 2^32 buckets
     */
    public static long buckets(long expectedItems) {
        requirePositive("expectedItems", expectedItems);
        double needed = Math.ceil(expectedItems / (BUCKET_SIZE * SIZING_LOAD));
        if (needed > MAX_BUCKETS) {
            throw new IllegalArgumentException("expectedItems = " + expectedItems + ", must be in [1, "
                    + (long) (MAX_BUCKETS * BUCKET_SIZE * SIZING_LOAD)
                    + "] for a cuckoo filter (at most 2^32 buckets)");
        }
        long buckets = Long.highestOneBit((long) needed);
        return Math.max(2, buckets < needed ? buckets << 1 : buckets);
    }

    /**
     * Expected false-positive rate of a cuckoo filter whose slots are occupied in proportion
     * {@code load}: an absent key meets on average {@code 2 b load} fingerprints, each equal to its own
     * with probability {@code 1 / (2^f - 1)} (fingerprints are never 0), so the rate is
     * {@code 1 - (1 - 1 / (2^f - 1))^(2 b load)}. With 12-bit fingerprints at 95% load: 0.185%.
     *
     * @param fingerprintBits f: 8, 12 or 16
     * @param load occupied slots / slots, in [0, 1]
     * @return the probability that an absent key tests positive
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static double falsePositiveRate(int fingerprintBits, double load) {
        if (fingerprintBits != 8 && fingerprintBits != 12 && fingerprintBits != 16) {
            throw new IllegalArgumentException("fingerprintBits = " + fingerprintBits + ", must be 8, 12 or 16");
        }
        if (!(load >= 0 && load <= 1)) {
            throw new IllegalArgumentException("load = " + load + ", must be in [0, 1]");
        }
        double match = 1.0 / ((1 << fingerprintBits) - 1);
        return -Math.expm1(2 * BUCKET_SIZE * load * Math.log1p(-match));
    }

    /**
     * Memory per slot, in bits, of the dense layout this build writes: f. Divide by the load for bits
     * per item: 12.6 at 95% load with 12-bit fingerprints. Files of the older word-aligned layout spend
     * 12.8 bits per 12-bit slot; the control line and the rounding to 64-byte lines add at most 128
     * bytes to either.
     *
     * @throws IllegalArgumentException if f is not 8, 12 or 16
     */
    static double bitsPerSlot(int fingerprintBits) {
        falsePositiveRate(fingerprintBits, 0);
        return fingerprintBits;
    }
}
