package io.mapsketch.similarity;

import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.kernels.MinHashKernels;
import io.mapsketch.kernels.RegisterKernels;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Objects;

/**
 * An immutable MinHash signature on the heap: k 64-bit minima of one set, with the hash seed and the
 * {@link MinHashDerivation} they were computed with. {@link MinHash#signature(int)} copies one out of a sketch; compare it with
 * {@link #jaccard}, combine with {@link #union}, or search a sketch's rows for it with
 * {@link MinHash#mostSimilar}.
 *
 * <p>Slot {@code s} holds the unsigned minimum of the values the set's items offer it, by the
 * derivation, from each item's hash {@code h} (XXH3-64 with the seed). A slot
 * no item has reached holds {@link #EMPTY_SLOT}; the signature of the empty set is all
 * {@code EMPTY_SLOT}.
 *
 * <p>Error direction: {@link #jaccard} is an unbiased estimate (both ways) whose standard deviation
 * is at most {@code sqrt(J (1 - J) / k)}, at most {@code 1 / (2 sqrt(k))}.
 */
public final class MinHashSignature {

    /** The value of a slot no item has reached: the largest unsigned 64-bit value. */
    public static final long EMPTY_SLOT = -1L;

    private final long[] slots;
    private final long hashSeed;
    private final MinHashDerivation derivation;

    private MinHashSignature(long[] slots, long hashSeed, MinHashDerivation derivation) {
        this.slots = slots;
        this.hashSeed = hashSeed;
        this.derivation = derivation;
    }

    /**
     * Wraps a copy of stored slot values, for example a signature read back from elsewhere.
     *
     * @param slots the k slot values, k in [1, {@value MinHashSizing#MAX_SLOTS}]; copied
     * @param hashSeed the seed the items were hashed with
     * @param derivation how the slot values were derived
     * @return the signature
     * @throws IllegalArgumentException if the length is out of range
     */
    public static MinHashSignature of(long[] slots, long hashSeed, MinHashDerivation derivation) {
        MinHashSizing.standardError(Objects.requireNonNull(slots, "slots").length);
        return new MinHashSignature(slots.clone(), hashSeed, Objects.requireNonNull(derivation, "derivation"));
    }

    /** Takes ownership of an array the caller will not touch again. */
    static MinHashSignature wrap(long[] slots, long hashSeed, MinHashDerivation derivation) {
        return new MinHashSignature(slots, hashSeed, derivation);
    }

    /**
     * Returns the number of slots.
     *
     * @return k
     */
    public int length() {
        return slots.length;
    }

    /**
     * Returns the seed the items were hashed with; only signatures of the same seed compare.
     *
     * @return the seed
     */
    public long hashSeed() {
        return hashSeed;
    }

    /**
     * Returns how the slot values were derived; only signatures of the same derivation compare.
     *
     * @return the derivation
     */
    public MinHashDerivation derivation() {
        return derivation;
    }

    /**
     * Returns one slot's value.
     *
     * @param slot the slot, in [0, k)
     * @return its value, {@link #EMPTY_SLOT} if no item reached it
     * @throws IllegalArgumentException if the slot is out of range
     */
    public long slot(int slot) {
        if (slot < 0 || slot >= slots.length) {
            throw new IllegalArgumentException("slot = " + slot + ", must be in [0, " + slots.length + ")");
        }
        return slots[slot];
    }

    /**
     * Returns a copy of the slot values.
     *
     * @return a new array of k values
     */
    public long[] toArray() {
        return slots.clone();
    }

    /**
     * Tells whether this is the signature of the empty set (every slot {@link #EMPTY_SLOT}).
     *
     * @return {@code true} if no item was added
     */
    public boolean isEmpty() {
        for (long slot : slots) {
            if (slot != EMPTY_SLOT) {
                return false;
            }
        }
        return true;
    }

    /**
     * Estimates the Jaccard similarity {@code |A ∩ B| / |A ∪ B|} of the two sets: the fraction of slots
     * at which the signatures are equal. Unbiased, with standard deviation {@code sqrt(J (1 - J) / k)}.
     * Two empty sets give 1 (their signatures are equal everywhere); an empty and a non-empty set
     * give 0. Cost: one pass over both signatures with the equal-slot kernel.
     *
     * @param other a signature of the same derivation, length and seed
     * @return the estimate, in [0, 1]
     * @throws IncompatibleSketchException if the derivation, the length or the seed differ
     */
    public double jaccard(MinHashSignature other) {
        requireCompatible(other);
        return (double) MinHashKernels.countEqual(
                        MemorySegment.ofArray(slots), 0, MemorySegment.ofArray(other.slots), 0, slots.length)
                / slots.length;
    }

    /**
     * Returns the signature of the union of both sets: the slot-wise unsigned minimum, exactly the
     * signature the union's items would have produced. Cost: one pass, k values allocated.
     *
     * @param other a signature of the same derivation, length and seed
     * @return the union's signature
     * @throws IncompatibleSketchException if the derivation, the length or the seed differ
     */
    public MinHashSignature union(MinHashSignature other) {
        requireCompatible(other);
        long[] union = slots.clone();
        RegisterKernels.minUnsignedLongs(
                MemorySegment.ofArray(union), 0, MemorySegment.ofArray(other.slots), 0, union.length);
        return new MinHashSignature(union, hashSeed, derivation);
    }

    /** Refuses a signature of another derivation, length or seed. */
    void requireCompatible(MinHashSignature other) {
        Objects.requireNonNull(other, "other");
        if (other.derivation != derivation) {
            throw new IncompatibleSketchException("derivation scheme", derivation, other.derivation);
        }
        if (other.slots.length != slots.length) {
            throw new IncompatibleSketchException("signature length", slots.length, other.slots.length);
        }
        if (other.hashSeed != hashSeed) {
            throw new IncompatibleSketchException("hash seed", hashSeed, other.hashSeed);
        }
    }

    /** Shares the slot array, for read-only use inside the engine. */
    long[] slots() {
        return slots;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof MinHashSignature that
                && hashSeed == that.hashSeed
                && derivation == that.derivation
                && Arrays.equals(slots, that.slots);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Long.hashCode(hashSeed) + derivation.id()) + Arrays.hashCode(slots);
    }

    @Override
    public String toString() {
        return "MinHashSignature[" + slots.length + " slots, seed " + hashSeed + ", " + derivation.name()
                + (isEmpty() ? ", empty" : "") + "]";
    }
}
