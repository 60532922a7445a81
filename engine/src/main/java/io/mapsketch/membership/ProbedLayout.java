package io.mapsketch.membership;

import io.mapsketch.internal.HeaderParameter;

/**
 * What the formats of the layouts probed by enhanced double hashing (the classic and the counting
 * Bloom filter, {@link BloomFormat} and {@link CountingBloomFormat}) share: m cells in slot 0, k probes
 * per key in slot 1, sized from n items at rate p with the textbook formulas, and the version from
 * which the probes' enhanced term is added in cells ({@link ProbeCells}).
 *
 * @param cells m, bits or counters
 * @param hashes k, probes per key, in [1, {@value #MAX_HASHES}]
 */
record ProbedLayout(long cells, int hashes) {

    /**
     * Most probes per key: rates from {@link BloomSizing#LOWEST_RATE} = 2^-64 up take at most
     * this many (beyond, rates below 10^-19 are asked for, which no filter needs).
     */
    static final int MAX_HASHES = 64;
    /** k, the probes per key: slot 1. */
    static final HeaderParameter.Ranged HASHES = HeaderParameter.ranged(1, "hashes", 1, MAX_HASHES);
    /**
     * The first format version in which the probes add the enhanced term to a probe's cell rather
     * than to its 64-bit value; files of versions 1 and 2 keep the older probes.
     */
    static final int ENHANCED_PROBES_VERSION = 3;

    /**
     * Sizes a layout: {@code m = -n ln p / (ln 2)^2}, {@code k = round((m / n) ln 2)}, refusing a rate
     * below {@link BloomSizing#LOWEST_RATE} and more than {@code maxCells} cells, the most the
     * {@code filter}'s format holds.
     */
    static ProbedLayout sized(long expectedItems, double falsePositiveRate, long maxCells, String filter) {
        if (!(falsePositiveRate >= BloomSizing.LOWEST_RATE && falsePositiveRate < 1)) {
            throw new IllegalArgumentException("falsePositiveRate = " + falsePositiveRate + ", must be in [2^-64 = "
                    + BloomSizing.LOWEST_RATE + ", 1) for a " + filter + " (lower rates need more than "
                    + MAX_HASHES + " probes per key)");
        }
        long mostItems = BloomSizing.maxItems(falsePositiveRate, maxCells);
        if (expectedItems > mostItems) {
            throw new IllegalArgumentException("expectedItems = " + expectedItems + ", must be in [1, " + mostItems
                    + "] for a " + filter + " at falsePositiveRate = " + falsePositiveRate + " (at most " + maxCells
                    + " cells)");
        }
        long cells = BloomSizing.bits(expectedItems, falsePositiveRate);
        return new ProbedLayout(cells, BloomSizing.hashes(cells, expectedItems));
    }
}
