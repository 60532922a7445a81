package io.mapsketch.membership;

import io.mapsketch.memory.SketchRegion;
import java.lang.foreign.MemorySegment;

/**
 * A membership filter that can also forget a key. The rule for callers: only remove what you
 * added. A remove of a key that is certainly absent is refused with {@link KeyNotPresentException}
 * and changes nothing; a remove of a key that was never added but tests positive (a false positive)
 * cannot be detected, and takes away part of other keys' presence.
 *
 * <p>The items counter of a removable filter is net: {@link #itemsAdded()} counts adds minus
 * removes (never below zero), so that {@link #isOverCapacity()} speaks of what the filter holds now.
 */
public abstract sealed class RemovableFilter extends MembershipFilter permits CountingBloomFilter, CuckooFilter {

    RemovableFilter(SketchRegion region, long expectedItems, double targetFalsePositiveRate) {
        super(region, expectedItems, targetFalsePositiveRate);
    }

    /** Removes the key of this hash, or throws {@link KeyNotPresentException} leaving the filter unchanged. */
    abstract void removeHash(long hash);

    /**
     * Removes a key added before, as its {@linkplain io.mapsketch##keys bytes}.
     *
     * @param key the key, as added
     * @throws KeyNotPresentException if the key is certainly not in the filter (nothing changes)
     * @throws IllegalStateException if the filter is read-only or closed
     */
    public final void remove(long key) {
        removeCounted(hasher.hash(key));
    }

    /**
     * Removes the key of the bytes {@code key[offset, offset + length)}; as {@link #remove(long)}.
     *
     * @param key the array
     * @param offset first byte
     * @param length number of bytes
     * @throws KeyNotPresentException if the key is certainly not in the filter (nothing changes)
     * @throws IndexOutOfBoundsException if the range is outside the array
     * @throws IllegalStateException if the filter is read-only or closed
     */
    public final void remove(byte[] key, int offset, int length) {
        removeCounted(hasher.hash(key, offset, length));
    }

    /**
     * Removes the key of a string's UTF-8 bytes; as {@link #remove(long)}.
     *
     * @param key the characters
     * @throws KeyNotPresentException if the key is certainly not in the filter (nothing changes)
     * @throws IllegalStateException if the filter is read-only or closed
     */
    public final void remove(CharSequence key) {
        removeCounted(hasher.hash(key));
    }

    /**
     * Removes the key of the bytes of a segment slice; as {@link #remove(long)}.
     *
     * @param key the segment
     * @param offset first byte
     * @param length number of bytes
     * @throws KeyNotPresentException if the key is certainly not in the filter (nothing changes)
     * @throws IndexOutOfBoundsException if the range is outside the segment
     * @throws IllegalStateException if the filter is read-only or closed
     */
    public final void remove(MemorySegment key, long offset, long length) {
        removeCounted(hasher.hash(key, offset, length));
    }

    private void removeCounted(long hash) {
        requireWritable();
        removeHash(hash);
        countItems(-1);
    }
}
