package io.mapsketch.kernels;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * MinHash signature kernels: the update of a signature with a batch of item hashes, and the count
 * of equal slots of two signatures from which the Jaccard similarity is estimated.
 *
 * <p><b>Derivation.</b> An item contributes one 64-bit hash {@code h}; slot {@code s} of a signature
 * of k slots ({@code s = 0..k-1}) sees the derived value
 * <pre>
 * z = h + (s + 1) * 0x9E3779B97F4A7C15          (64-bit wrap-around)
 * z = (z ^ (z &gt;&gt;&gt; 33)) * 0xFF51AFD7ED558CCD
 * z = (z ^ (z &gt;&gt;&gt; 33)) * 0xC4CEB9FE1A85EC53
 * derive(h, s) = z ^ (z &gt;&gt;&gt; 33)
 * </pre>
 * (the slot's Weyl-sequence offset, then MurmurHash3's 64-bit finaliser, a bijection), and keeps
 * the smallest one, comparing as unsigned values. This is part of the file format of MinHash
 * sketches: changing it changes every stored signature.
 *
 * <p><b>Slices.</b> A signature is a segment, a byte offset into it (any byte offset) and a number
 * of little-endian 64-bit slots; its first slot is slot 0.
 *
 * <p><b>Errors.</b> Arguments are checked before memory is touched: a negative length is an
 * {@link IllegalArgumentException}, a slice or array range outside its bounds an
 * {@link IndexOutOfBoundsException}, a read-only signature an {@link IllegalArgumentException};
 * each message names the parameter, its value and the valid range.
 *
 * <p><b>Cost.</b> No allocation. An update costs about ten vector operations per hash and per
 * vector of slots (k/8 vectors at 512 bits) and touches each slot once per call; counting equal
 * slots is one pass over both signatures. Not atomic: use them where one writer owns the
 * signature.
 */
public final class MinHashKernels {

    /** The odd constant that spaces the slots' offsets: 2^64 divided by the golden ratio. */
    public static final long SLOT_INCREMENT = 0x9E3779B97F4A7C15L;
    /** First multiplier of the finaliser. */
    static final long MIX_1 = 0xFF51AFD7ED558CCDL;
    /** Second multiplier of the finaliser. */
    static final long MIX_2 = 0xC4CEB9FE1A85EC53L;

    private static final MinHashOps OPS = KernelProvider.active().minHash();

    private MinHashKernels() {}

    /**
     * Returns the value an item of hash {@code h} offers to slot {@code slot}, as the class comment
     * defines it. Cost: an add, three shift-XORs and two multiplies.
     *
     * @param hash the item's 64-bit hash
     * @param slot the slot, any non-negative index
     * @return the derived 64-bit value
     */
    public static long derive(long hash, int slot) {
        long z = hash + (slot + 1L) * SLOT_INCREMENT;
        z = (z ^ (z >>> 33)) * MIX_1;
        z = (z ^ (z >>> 33)) * MIX_2;
        return z ^ (z >>> 33);
    }

    /**
     * Adds a batch of items to a signature: each slot {@code s} becomes the unsigned minimum of
     * itself and {@link #derive}{@code (h, s)} over the hashes {@code h} of
     * {@code hashes[from, from + count)}. The result does not depend on the order of the hashes or
     * on how they are split into batches.
     *
     * @param signature the segment written
     * @param offset byte offset of slot 0
     * @param slots number of slots k, {@code >= 0}
     * @param hashes the items' 64-bit hashes
     * @param from index of the first hash
     * @param count number of hashes, {@code >= 0}
     * @throws IllegalArgumentException if a length is negative or {@code signature} is read-only
     * @throws IndexOutOfBoundsException if the slice or the array range is out of bounds
     */
    public static void update(MemorySegment signature, long offset, int slots, long[] hashes, int from, int count) {
        Checks.slice("signature", signature, "offset", offset, "slots", slots, Long.BYTES);
        Checks.writable("signature", signature);
        Checks.arrayRange("hashes", Objects.requireNonNull(hashes, "hashes").length, "from", from, "count", count);
        OPS.update(signature, offset, 0, slots, hashes, from, count);
    }

    /**
     * Counts the slots at which two signatures hold the same value: divided by k, the estimate of
     * the Jaccard similarity of the two sets.
     *
     * @param a the first signature
     * @param aOffset byte offset of its slot 0
     * @param b the second signature
     * @param bOffset byte offset of its slot 0
     * @param slots number of slots k, {@code >= 0}
     * @return the number of equal slots, in {@code [0, slots]}
     * @throws IllegalArgumentException if {@code slots < 0}
     * @throws IndexOutOfBoundsException if a slice is out of bounds
     */
    public static long countEqual(MemorySegment a, long aOffset, MemorySegment b, long bOffset, long slots) {
        Checks.slice("a", a, "aOffset", aOffset, "slots", slots, Long.BYTES);
        Checks.slice("b", b, "bOffset", bOffset, "slots", slots, Long.BYTES);
        return OPS.countEqual(a, aOffset, b, bOffset, slots);
    }
}
