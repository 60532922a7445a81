package io.mapsketch.kernels;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * SimHash kernels: the 64 weighted bit sums a fingerprint is read from, the bit counts of features
 * of weight 1 (eight lanes of byte counters), and Hamming-distance scans
 * over tables of 64-bit fingerprints (find every fingerprint within d bits of a query by the popcount
 * of its XOR with the query).
 *
 * <p><b>Slices.</b> A table slice is a segment, a byte offset into it (any byte offset) and a
 * number of little-endian 64-bit fingerprints.
 *
 * <p><b>Errors.</b> Arguments are checked before memory is touched: a negative count, a distance
 * outside {@code [0, 64]} or a sums array shorter than 64 is an {@link IllegalArgumentException}, a
 * slice or array range out of bounds an {@link IndexOutOfBoundsException}; each message names the
 * parameter, its value and the valid range.
 *
 * <p><b>Cost.</b> No allocation. Accumulating a feature is 64 additions, eight per vector at 512
 * bits; counting its ones one vector shift, AND and add. A scan is one pass that reads each fingerprint once (8 bytes), with an XOR, a popcount and a
 * compare per fingerprint, eight at a time at 512 bits; the pass is bound by memory bandwidth once
 * the table is larger than the caches. Each match costs a few more instructions.
 */
public final class SimHashKernels {

    /** The largest meaningful distance between two 64-bit fingerprints. */
    public static final int MAX_DISTANCE = Long.SIZE;

    /** The lanes {@link #countOnes} counts into. */
    public static final int ONES_LANES = 8;
    /** The most hashes {@link #countOnes} may count into lanes that started at zero before a byte can overflow. */
    public static final int ONES_LIMIT = 255;
    /** A one in the lowest bit of every byte. */
    static final long ONE_PER_BYTE = 0x0101010101010101L;

    private static final SimHashOps OPS = KernelProvider.active().simHash();

    private SimHashKernels() {}

    /**
     * Adds one feature to the weighted bit sums of a fingerprint: for each bit j of the feature's
     * hash, {@code sums[j] += weight} if the bit is one and {@code sums[j] -= weight} if it is zero,
     * the same floating-point additions in every implementation. The fingerprint's bit j is then one
     * where {@code sums[j] > 0}.
     *
     * @param sums the 64 sums, {@code sums[0..63]}; longer arrays are fine, the rest is untouched
     * @param hash the feature's 64-bit hash
     * @param weight the feature's weight
     * @throws IllegalArgumentException if {@code sums} has fewer than 64 elements
     */
    public static void accumulate(double[] sums, long hash, double weight) {
        if (Objects.requireNonNull(sums, "sums").length < Long.SIZE) {
            throw new IllegalArgumentException("sums.length = " + sums.length + ", must be >= " + Long.SIZE);
        }
        OPS.accumulate(sums, hash, weight);
    }

    /**
     * Counts the ones of a hash bit by bit, in eight lanes of byte counters: byte b of
     * {@code lanes[i]} counts bit {@code 8 b + i}, so {@code (lanes[i] >>> 8 b) & 0xFF} is how many of
     * the hashes counted since the lanes were zero have bit {@code 8 b + i} set. Exact while no byte
     * passes 255: for at most {@value #ONES_LIMIT} hashes from zero lanes. An unweighted fingerprint is
     * bit j where that count exceeds half the hashes. Cost: one vector shift, AND and add at 512 bits.
     *
     * @param lanes the eight lanes, {@code lanes[0..7]}; longer arrays are fine, the rest is untouched
     * @param hash the feature's 64-bit hash
     * @throws IllegalArgumentException if {@code lanes} has fewer than 8 elements
     */
    public static void countOnes(long[] lanes, long hash) {
        if (Objects.requireNonNull(lanes, "lanes").length < ONES_LANES) {
            throw new IllegalArgumentException("lanes.length = " + lanes.length + ", must be >= " + ONES_LANES);
        }
        OPS.countOnes(lanes, hash);
    }

    /**
     * Finds the fingerprints within {@code maxDistance} bits of a query: writes to
     * {@code matches[matchesFrom ..]}, in ascending order, the index {@code i} (from 0) of every
     * fingerprint of the slice with {@code bitCount(fingerprint[i] ^ query) <= maxDistance}. Exact:
     * no fingerprint within the distance is missed and none beyond it is reported.
     *
     * @param table the segment read
     * @param offset byte offset of fingerprint 0
     * @param count number of fingerprints, {@code >= 0}
     * @param query the fingerprint to compare with
     * @param maxDistance d, in {@code [0, 64]}
     * @param matches receives the indices; must have room for {@code count} of them from
     *     {@code matchesFrom} on, since every fingerprint may match
     * @param matchesFrom index of {@code matches} where the first match goes
     * @return the number of matches written, in {@code [0, count]}
     * @throws IllegalArgumentException if {@code count < 0} or {@code maxDistance} is out of range
     * @throws IndexOutOfBoundsException if the slice is outside the segment or {@code matches} has no
     *     room for {@code count} indices from {@code matchesFrom}
     */
    public static int within(
            MemorySegment table, long offset, int count, long query, int maxDistance, int[] matches, int matchesFrom) {
        Checks.slice("table", table, "offset", offset, "count", count, Long.BYTES);
        if (maxDistance < 0 || maxDistance > MAX_DISTANCE) {
            throw new IllegalArgumentException(
                    "maxDistance = " + maxDistance + ", must be in [0, " + MAX_DISTANCE + "]");
        }
        Checks.arrayRange(
                "matches",
                Objects.requireNonNull(matches, "matches").length,
                "matchesFrom",
                matchesFrom,
                "count",
                count);
        return OPS.within(table, offset, count, query, maxDistance, matches, matchesFrom);
    }
}
