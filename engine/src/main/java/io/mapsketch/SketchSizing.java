package io.mapsketch;

import io.mapsketch.frequency.FrequencySketch;
import io.mapsketch.memory.SketchHeader;

/**
 * The sizing formulas of every sketch, in one place, so that a builder, the documentation and
 * the {@code mapsketch} command all state the same size for the same question.
 *
 * <p>Every method is pure arithmetic, with no allocation; each says its cost where it is not
 * constant. Arguments out of range, and combinations that no file of the format can hold, throw
 * {@link IllegalArgumentException} naming the parameter, its value and the valid range. The limits and
 * how they were found are in {@code docs/design/sizing.md}.
 */
public final class SketchSizing {

    /** Slots per cuckoo bucket (b). */
    public static final int CUCKOO_BUCKET_SIZE = 4;
    /** The share of slots a cuckoo filter is sized to use at its capacity; inserts begin to fail near 96% (b = 4). */
    public static final double CUCKOO_SIZING_LOAD = 0.9;
    /** Most buckets of a cuckoo filter: bucket indices take the high 32 bits of the hash, fingerprints the low. */
    public static final long CUCKOO_MAX_BUCKETS = 1L << 32;
    /** The lowest rate a cuckoo filter reaches: {@code 2b / (2^16 - 1)} with 16-bit fingerprints. */
    public static final double CUCKOO_LOWEST_RATE = 2.0 * CUCKOO_BUCKET_SIZE / 65_535;

    /** The most slots a MinHash signature may have: 2^16, 512 KiB per signature. */
    public static final int MINHASH_MAX_SLOTS = 1 << 16;

    /**
     * The lowest rate a classic or counting Bloom filter is sized for: 2^-64. A rate p takes about
     * {@code log2(1 / p)} probes per key, and the format allows at most 64.
     */
    public static final double BLOOM_LOWEST_RATE = 0x1p-64;

    /** The most blocks of a blocked Bloom filter: the most 64-byte blocks a file's payload can hold, 2^57 - 65. */
    public static final long BLOCKED_BLOOM_MAX_BLOCKS = SketchHeader.MAX_PAYLOAD_LENGTH / 64;

    private static final double LN2 = Math.log(2);
    /** Lanczos coefficients of {@link #logGamma}. */
    private static final double[] LANCZOS = {676.5203681218851, -1259.1392167224028, 771.32342877765313,
        -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7};

    private SketchSizing() {
    }

    /**
     * Bits of a classic Bloom filter for {@code n} items at false-positive rate {@code p}:
     * {@code m = ceil(-n ln p / (ln 2)^2)}. 10,000 items at 1% give 95,851 bits.
     *
     * @param expectedItems n, at least 1
     * @param falsePositiveRate p, in (0, 1)
     * @return m, in bits
     * @throws IllegalArgumentException if an argument is out of range or m exceeds 2^63 - 1
     */
    public static long bloomBits(long expectedItems, double falsePositiveRate) {
        requirePositive("expectedItems", expectedItems);
        requireOpenUnit("falsePositiveRate", falsePositiveRate);
        double bits = bloomCells(expectedItems, falsePositiveRate);
        if (bits >= Long.MAX_VALUE) {
            throw new IllegalArgumentException("expectedItems = " + expectedItems + " at falsePositiveRate = "
                    + falsePositiveRate + " needs " + bits + " bits, more than 2^63 - 1");
        }
        return (long) bits;
    }

    /**
     * The most items a classic layout of at most {@code maxCells} cells (bits or counters) is sized
     * for at rate p: the largest n whose {@link #bloomBits} is at most {@code maxCells}.
     *
     * <p>Cost: a binary search, at most 63 evaluations of the formula.
     *
     * @param falsePositiveRate p, in (0, 1)
     * @param maxCells the most cells the layout may have, at least 1
     * @return the largest such n, or 0 if even one item needs more cells
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static long bloomMaxItems(double falsePositiveRate, long maxCells) {
        requireOpenUnit("falsePositiveRate", falsePositiveRate);
        requirePositive("maxCells", maxCells);
        long low = 0;
        long high = Long.MAX_VALUE;
        while (low < high) {
            long middle = (low + high + 1) >>> 1;
            if (bloomCells(middle, falsePositiveRate) <= maxCells) {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        return low;
    }

    private static double bloomCells(long expectedItems, double falsePositiveRate) {
        return Math.ceil(-expectedItems * Math.log(falsePositiveRate) / (LN2 * LN2));
    }

    /**
     * Hash functions of a classic Bloom filter: {@code k = round((m / n) ln 2)}, at least 1.
     * 95,851 bits for 10,000 items give 7.
     *
     * @param bits m, at least 1
     * @param expectedItems n, at least 1
     * @return k
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static int bloomHashes(long bits, long expectedItems) {
        requirePositive("bits", bits);
        requirePositive("expectedItems", expectedItems);
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.round((double) bits / expectedItems * LN2)));
    }

    /**
     * Expected false-positive rate of a classic Bloom filter holding {@code n} items:
     * {@code (1 - e^(-k n / m))^k}.
     *
     * @param bits m, at least 1
     * @param hashes k, at least 1
     * @param items n, at least 0
     * @return the probability that an absent key tests positive
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static double bloomFalsePositiveRate(long bits, int hashes, long items) {
        requirePositive("bits", bits);
        requirePositive("hashes", hashes);
        if (items < 0) {
            throw new IllegalArgumentException("items = " + items + ", must be >= 0");
        }
        return Math.pow(-Math.expm1(-(double) hashes * items / bits), hashes);
    }

    /**
     * Expected false-positive rate of a blocked Bloom filter of 512-bit blocks (eight 64-bit words)
     * holding {@code n} items, where each key sets one bit per word ({@code bitsPerKey = 8}) or two
     * independent bits per word that may coincide ({@code bitsPerKey = 16}). Block loads are uneven:
     * a block holds j keys with Poisson probability of mean n / blocks, and the rate is the mixture of
     * the per-load rates, which is why a blocked filter needs more bits than the classic formula says.
     *
     * <p>Cost: a sum over the loads that carry probability, O(sqrt(n / blocks)) terms plus a constant,
     * and never more than the few thousand loads below the one whose block rate is 1 in double precision.
     *
     * @param blocks number of 512-bit blocks, at least 1
     * @param bitsPerKey 8 or 16
     * @param items n, at least 0
     * @return the probability that an absent key tests positive
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static double blockedBloomFalsePositiveRate(long blocks, int bitsPerKey, long items) {
        requirePositive("blocks", blocks);
        if (bitsPerKey != 8 && bitsPerKey != 16) {
            throw new IllegalArgumentException("bitsPerKey = " + bitsPerKey + ", must be 8 or 16");
        }
        if (items < 0) {
            throw new IllegalArgumentException("items = " + items + ", must be >= 0");
        }
        double mean = (double) items / blocks;
        long last = (long) Math.ceil(mean + 12 * Math.sqrt(mean) + 30);
        long first = Math.max(0, (long) Math.floor(mean - 12 * Math.sqrt(mean) - 30));
        double logMean = Math.log(mean);
        double rate = 0;
        double mass = 0;
        for (long load = first; load <= last; load++) {
            double logPoisson = mean == 0 ? (load == 0 ? 0 : Double.NEGATIVE_INFINITY)
                    : load * logMean - mean - logFactorial(load);
            double blockRate = blockFalsePositiveRate(bitsPerKey, load);
            if (blockRate == 1) {
                // Every heavier block answers yes too: the rest of the probability counts whole.
                return rate + Math.max(0, 1 - mass);
            }
            double poisson = Math.exp(logPoisson);
            rate += poisson * blockRate;
            mass += poisson;
        }
        return rate;
    }

    /** The rate of a block holding {@code load} keys; its eight words are independent given the load. */
    private static double blockFalsePositiveRate(int bitsPerKey, long load) {
        double oneBitClear = Math.pow(63.0 / 64, bitsPerKey / 8 * (double) load);
        double perWord;
        if (bitsPerKey == 8) {
            perWord = 1 - oneBitClear;
        } else {
            double twoBitsClear = Math.pow(62.0 / 64, 2.0 * load);
            perWord = (1 - oneBitClear) / 64 + 63.0 / 64 * (1 - 2 * oneBitClear + twoBitsClear);
        }
        return Math.pow(perWord, 8);
    }

    private static double logFactorial(long n) {
        return n < 2 ? 0 : logGamma(n + 1.0);
    }

    /** Lanczos approximation of ln Gamma(x) for x >= 1, accurate to about 1e-14 relative. */
    private static double logGamma(double x) {
        double z = x - 1;
        double sum = 0.99999999999980993;
        for (int i = 0; i < LANCZOS.length; i++) {
            sum += LANCZOS[i] / (z + i + 1);
        }
        double t = z + LANCZOS.length - 0.5;
        return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
    }

    /**
     * Blocks of a blocked Bloom filter for {@code n} items at false-positive rate {@code p}: the
     * fewest 512-bit blocks whose {@link #blockedBloomFalsePositiveRate} at n items is at most p.
     * 10,000 items at 1% with 8 bits per key take about 10.1 bits per item.
     *
     * <p>Cost: a binary search, O(log n) evaluations of the rate.
     *
     * @param expectedItems n, at least 1
     * @param falsePositiveRate p, in [{@link #blockedBloomLowestRate}{@code (n, bitsPerKey)}, 1)
     * @param bitsPerKey 8 or 16
     * @return the number of blocks, at most {@link #BLOCKED_BLOOM_MAX_BLOCKS}
     * @throws IllegalArgumentException if an argument is out of range: p below the rate of the most
     *     blocks a file holds
     */
    public static long blockedBloomBlocks(long expectedItems, double falsePositiveRate, int bitsPerKey) {
        requirePositive("expectedItems", expectedItems);
        requireOpenUnit("falsePositiveRate", falsePositiveRate);
        double lowest = blockedBloomLowestRate(expectedItems, bitsPerKey);
        if (falsePositiveRate < lowest) {
            throw blockedRateRefused(expectedItems, falsePositiveRate, lowest, bitsPerKey + " bits per key");
        }
        long low = 1;
        long high = (long) Math.min(BLOCKED_BLOOM_MAX_BLOCKS,
                Math.max(1, Math.ceil(bloomCells(expectedItems, falsePositiveRate) / 512)));
        while (blockedBloomFalsePositiveRate(high, bitsPerKey, expectedItems) > falsePositiveRate) {
            low = high + 1;
            high = Math.min(BLOCKED_BLOOM_MAX_BLOCKS, 2 * high);
        }
        while (low < high) {
            long middle = low + (high - low) / 2;
            if (blockedBloomFalsePositiveRate(middle, bitsPerKey, expectedItems) <= falsePositiveRate) {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        return low;
    }

    /**
     * The lowest false-positive rate a blocked Bloom filter of n items reaches: its rate with
     * {@link #BLOCKED_BLOOM_MAX_BLOCKS} blocks. About {@code 5e-40} for 100 items with 16 bits per key;
     * more items, higher.
     *
     * @param expectedItems n, at least 1
     * @param bitsPerKey 8 or 16
     * @return the rate
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static double blockedBloomLowestRate(long expectedItems, int bitsPerKey) {
        requirePositive("expectedItems", expectedItems);
        return blockedBloomFalsePositiveRate(BLOCKED_BLOOM_MAX_BLOCKS, bitsPerKey, expectedItems);
    }

    /**
     * The lowest false-positive rate a blocked Bloom filter of n items reaches with either probe
     * pattern: the lower of {@link #blockedBloomLowestRate(long, int)} at 8 and at 16 bits per key.
     *
     * @param expectedItems n, at least 1
     * @return the rate
     * @throws IllegalArgumentException if n is out of range
     */
    public static double blockedBloomLowestRate(long expectedItems) {
        return Math.min(blockedBloomLowestRate(expectedItems, 8), blockedBloomLowestRate(expectedItems, 16));
    }

    private static IllegalArgumentException blockedRateRefused(long expectedItems, double falsePositiveRate,
            double lowest, String pattern) {
        return new IllegalArgumentException("falsePositiveRate = " + falsePositiveRate + ", must be in [" + lowest
                + ", 1) for a blocked Bloom filter of expectedItems = " + expectedItems + " with " + pattern
                + " (the rate of " + BLOCKED_BLOOM_MAX_BLOCKS + " blocks, the most a file holds); fewer items"
                + " reach lower rates");
    }

    /**
     * The probe pattern that needs fewer blocks for {@code n} items at rate {@code p}: 8 bits per key
     * (one per word) or 16 (two per word); ties go to 8, which costs fewer memory operations. A rate that
     * only 16 bits per key reach gets 16.
     *
     * @param expectedItems n, at least 1
     * @param falsePositiveRate p, in [{@link #blockedBloomLowestRate}{@code (n, 16)}, 1)
     * @return 8 or 16
     * @throws IllegalArgumentException if an argument is out of range, or neither pattern reaches p
     */
    public static int blockedBloomBitsPerKey(long expectedItems, double falsePositiveRate) {
        requirePositive("expectedItems", expectedItems);
        requireOpenUnit("falsePositiveRate", falsePositiveRate);
        double lowestOfEight = blockedBloomLowestRate(expectedItems, 8);
        double lowestOfSixteen = blockedBloomLowestRate(expectedItems, 16);
        double lowest = Math.min(lowestOfEight, lowestOfSixteen);
        if (falsePositiveRate < lowest) {
            throw blockedRateRefused(expectedItems, falsePositiveRate, lowest, "8 or 16 bits per key");
        }
        if (falsePositiveRate < lowestOfEight) {
            return 16;
        }
        if (falsePositiveRate < lowestOfSixteen) {
            return 8;
        }
        long eight = blockedBloomBlocks(expectedItems, falsePositiveRate, 8);
        long sixteen = blockedBloomBlocks(expectedItems, falsePositiveRate, 16);
        return sixteen < eight ? 16 : 8;
    }

    /**
     * The smallest delta a Count-Min sketch of {@code epsilon} can honour: {@code 2^-64 / epsilon}.
     * Keys of equal 64-bit hash share every row, and a key has the hash of one of the at most
     * {@code 1 / epsilon} keys heavier than {@code epsilon N} with probability up to that, whatever the
     * depth. Epsilon 0.001 gives 5.4e-17 (38 rows).
     *
     * @param epsilon the error as a fraction of the total weight, in (0, 1)
     * @return the lowest delta a builder accepts with that epsilon
     * @throws IllegalArgumentException if epsilon is out of range
     */
    public static double countMinLowestDelta(double epsilon) {
        requireOpenUnit("epsilon", epsilon);
        return 0x1p-64 / epsilon;
    }

    /**
     * Width of a Count-Min sketch: {@code w = ceil(e / epsilon)}. Epsilon 0.001 gives 2,719.
     *
     * @param epsilon the error as a fraction of the total weight, in (0, 1)
     * @return w, counters per row
     * @throws IllegalArgumentException if epsilon is out of range
     */
    public static int countMinWidth(double epsilon) {
        requireOpenUnit("epsilon", epsilon);
        double width = Math.ceil(Math.E / epsilon);
        if (width > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("epsilon = " + epsilon + " needs " + width
                    + " counters per row, more than 2^31 - 1; epsilon must be at least " + (Math.E / Integer.MAX_VALUE));
        }
        return (int) width;
    }

    /**
     * Depth of a Count-Min sketch: {@code d = ceil(ln(1 / delta))}. Delta 0.01 gives 5; the smallest
     * positive double, 4.9e-324, gives {@value FrequencySketch#MAX_DEPTH}.
     *
     * @param delta the probability that an estimate exceeds the bound, in (0, 1)
     * @return d, rows, in [1, {@value FrequencySketch#MAX_DEPTH}]
     * @throws IllegalArgumentException if delta is out of range
     */
    public static int countMinDepth(double delta) {
        requireOpenUnit("delta", delta);
        double inverse = 1 / delta;
        // 1 / delta overflows to infinity below 1 / Double.MAX_VALUE (subnormal deltas); -ln(delta) does not.
        double rows = Double.isInfinite(inverse) ? -Math.log(delta) : Math.log(inverse);
        return (int) Math.max(1, Math.ceil(rows));
    }

    /**
     * Registers of a HyperLogLog sketch of precision {@code p}: {@code m = 2^p}, one byte each.
     *
     * @param precision p, in [4, 18]
     * @return m
     * @throws IllegalArgumentException if p is out of range
     */
    public static int hyperLogLogRegisters(int precision) {
        if (precision < 4 || precision > 18) {
            throw new IllegalArgumentException("precision = " + precision + ", must be in [4, 18]");
        }
        return 1 << precision;
    }

    /**
     * Relative standard error of a HyperLogLog sketch: {@code 1.04 / sqrt(m)} (one standard
     * deviation, not a maximum). p = 14 gives 0.8125%.
     *
     * @param precision p, in [4, 18]
     * @return the relative standard error
     * @throws IllegalArgumentException if p is out of range
     */
    public static double hyperLogLogRelativeStandardError(int precision) {
        return 1.04 / Math.sqrt(hyperLogLogRegisters(precision));
    }

    /**
     * Fingerprint width of a cuckoo filter of buckets of {@value #CUCKOO_BUCKET_SIZE} for
     * false-positive rate {@code p}: the narrowest of 8, 12 and 16 bits whose rate bound at full
     * occupancy, {@code 2b / (2^f - 1)}, is at most p (3.14%, 0.195% and 0.0122%). A rate above 3.14%
     * gets 8 bits, whose rate is lower than asked.
     *
     * @param falsePositiveRate p, in [{@link #CUCKOO_LOWEST_RATE}, 1)
     * @return f: 8, 12 or 16
     * @throws IllegalArgumentException if p is out of range: below the bound of 16-bit fingerprints
     *     no cuckoo filter of this library reaches it
     */
    public static int cuckooFingerprintBits(double falsePositiveRate) {
        requireOpenUnit("falsePositiveRate", falsePositiveRate);
        for (int bits = 8; bits <= 16; bits += 4) {
            if (cuckooRateBound(bits) <= falsePositiveRate) {
                return bits;
            }
        }
        throw new IllegalArgumentException("falsePositiveRate = " + falsePositiveRate + ", must be in ["
                + CUCKOO_LOWEST_RATE + ", 1) for a cuckoo filter (16-bit fingerprints reach at best 2b / (2^16 - 1));"
                + " use a Bloom filter for lower rates");
    }

    private static double cuckooRateBound(int bits) {
        return 2.0 * CUCKOO_BUCKET_SIZE / ((1 << bits) - 1);
    }

    /**
     * Buckets of a cuckoo filter for {@code n} items: the power of two at least
     * {@code ceil(n / (b * }{@value #CUCKOO_SIZING_LOAD}{@code ))}, and at least 2, so that n items fill
     * at most 90% of the slots (between 45% and 90%, as the power of two falls). 10,000 items take 4,096
     * buckets, 16,384 slots.
     *
     * @param expectedItems n, at least 1
     * @return the number of buckets, a power of two in [2, {@link #CUCKOO_MAX_BUCKETS}]
     * @throws IllegalArgumentException if n is out of range or needs more than 2^32 buckets
     */
    public static long cuckooBuckets(long expectedItems) {
        requirePositive("expectedItems", expectedItems);
        double needed = Math.ceil(expectedItems / (CUCKOO_BUCKET_SIZE * CUCKOO_SIZING_LOAD));
        if (needed > CUCKOO_MAX_BUCKETS) {
            throw new IllegalArgumentException("expectedItems = " + expectedItems + ", must be in [1, "
                    + (long) (CUCKOO_MAX_BUCKETS * CUCKOO_BUCKET_SIZE * CUCKOO_SIZING_LOAD)
                    + "] for a cuckoo filter (at most 2^32 buckets)");
        }
        long buckets = Long.highestOneBit((long) needed);
        return Math.max(2, buckets < needed ? buckets << 1 : buckets);
    }

    /**
     * Expected false-positive rate of a cuckoo filter whose slots are occupied in proportion
     * {@code load}: an absent key is compared with the fingerprints of its two buckets, on average
     * {@code 2 b load} of them, each equal to its own with probability {@code 1 / (2^f - 1)}
     * (fingerprints are never 0), so the rate is {@code 1 - (1 - 1 / (2^f - 1))^(2 b load)}. With 12-bit
     * fingerprints at 95% load: 0.185%.
     *
     * @param fingerprintBits f: 8, 12 or 16
     * @param load occupied slots / slots, in [0, 1]
     * @return the probability that an absent key tests positive
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static double cuckooFalsePositiveRate(int fingerprintBits, double load) {
        if (fingerprintBits != 8 && fingerprintBits != 12 && fingerprintBits != 16) {
            throw new IllegalArgumentException("fingerprintBits = " + fingerprintBits + ", must be 8, 12 or 16");
        }
        if (!(load >= 0 && load <= 1)) {
            throw new IllegalArgumentException("load = " + load + ", must be in [0, 1]");
        }
        double match = 1.0 / ((1 << fingerprintBits) - 1);
        return -Math.expm1(2 * CUCKOO_BUCKET_SIZE * load * Math.log1p(-match));
    }

    /**
     * Memory of a cuckoo filter per slot, in bits: fingerprints are packed densely, f bits each (12-bit
     * ones straddle 64-bit words where they fall across one), so 8, 12 or 16 bits. Divide by the load
     * for bits per item: 12.6 bits per item at 95% load with 12-bit fingerprints. Files of the older
     * word-aligned layout spend 12.8 bits per 12-bit slot (13.5 per item at 95% load); the control line
     * and the rounding to 64-byte lines add at most 128 bytes to either.
     *
     * @param fingerprintBits f: 8, 12 or 16
     * @return bits of memory per slot
     * @throws IllegalArgumentException if f is not 8, 12 or 16
     */
    public static double cuckooBitsPerSlot(int fingerprintBits) {
        cuckooFalsePositiveRate(fingerprintBits, 0);
        return fingerprintBits;
    }

    /**
     * Slots of a MinHash signature for a wanted standard error e of its Jaccard estimates:
     * {@code k = ceil(1 / e^2)}, at most {@value #MINHASH_MAX_SLOTS}. e = 0.05 gives 400 slots
     * (3,200 bytes per signature). {@code 1/sqrt(k)} bounds the true standard deviation
     * {@code sqrt(J (1 - J) / k)} from above by a factor of at least two, so the estimates are better
     * than asked for.
     *
     * @param standardError e, in [{@code 1/256}, 1]
     * @return k
     * @throws IllegalArgumentException if e is out of range
     */
    public static int minHashSlots(double standardError) {
        double smallest = 1 / Math.sqrt(MINHASH_MAX_SLOTS);
        if (!(standardError >= smallest && standardError <= 1)) {
            throw new IllegalArgumentException("standardError = " + standardError + ", must be in [" + smallest
                    + ", 1] (1 / sqrt(k) for 1 to " + MINHASH_MAX_SLOTS + " slots)");
        }
        return (int) Math.min(MINHASH_MAX_SLOTS, Math.ceil(1 / (standardError * standardError) - 1e-9));
    }

    /**
     * The standard error a MinHash signature of k slots promises for its Jaccard estimates:
     * {@code 1 / sqrt(k)}, at least twice the true standard deviation {@code sqrt(J (1 - J) / k)}.
     *
     * @param slots k, in [1, {@value #MINHASH_MAX_SLOTS}]
     * @return the standard error
     * @throws IllegalArgumentException if k is out of range
     */
    public static double minHashStandardError(int slots) {
        if (slots < 1 || slots > MINHASH_MAX_SLOTS) {
            throw new IllegalArgumentException("slots = " + slots + ", must be in [1, " + MINHASH_MAX_SLOTS + "]");
        }
        return 1 / Math.sqrt(slots);
    }

    private static void requirePositive(String name, long value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " = " + value + ", must be >= 1");
        }
    }

    private static void requireOpenUnit(String name, double value) {
        if (!(value > 0 && value < 1)) {
            throw new IllegalArgumentException(name + " = " + value + ", must be in (0, 1)");
        }
    }
}
