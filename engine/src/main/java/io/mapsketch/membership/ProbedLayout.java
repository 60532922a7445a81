package io.mapsketch.membership;

import io.mapsketch.internal.HeaderFields;
import io.mapsketch.internal.RegionSketch;
import io.mapsketch.memory.CorruptSketchFileException;
import io.mapsketch.memory.SketchRegion;

/**
 * The shape of the layouts probed by enhanced double hashing (the classic and the counting Bloom
 * filter): m cells, k probes per key, sized from n items at rate p with the textbook formulas. Its
 * four values are header parameters 0 to 3, in this order.
 *
 * @param cells m, bits or counters
 * @param hashes k, probes per key, in [1, {@value #MAX_HASHES}]
 * @param expectedItems n, the capacity
 * @param falsePositiveRate p, the rate at capacity
 */
record ProbedLayout(long cells, int hashes, long expectedItems, double falsePositiveRate) {

    /**
     * Most probes per key: rates from {@link BloomSizing#LOWEST_RATE} = 2^-64 up take at most
     * this many (beyond, rates below 10^-19 are asked for, which no filter needs).
     */
    static final int MAX_HASHES = 64;

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
        return new ProbedLayout(cells, BloomSizing.hashes(cells, expectedItems), expectedItems,
                falsePositiveRate);
    }

    /** Reads and checks the four parameters of a file; {@code cellName} names m in messages. */
    static ProbedLayout read(SketchRegion region, String cellName, long maxCells) throws CorruptSketchFileException {
        return new ProbedLayout(
                HeaderFields.parameter(region, 0, cellName, 1, maxCells),
                (int) HeaderFields.parameter(region, 1, "hashes", 1, MAX_HASHES),
                HeaderFields.parameter(region, 2, "expected items", 1, Long.MAX_VALUE),
                HeaderFields.openIntervalParameter(region, 3, "false-positive rate", 0, 1));
    }

    protected long[] parameters() {
        return new long[] {cells, hashes, expectedItems, Double.doubleToLongBits(falsePositiveRate)};
    }
}
