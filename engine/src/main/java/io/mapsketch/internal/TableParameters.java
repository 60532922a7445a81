package io.mapsketch.internal;

import io.mapsketch.SketchFileException;
import java.util.List;

/**
 * The header parameters and the payload layout every kind of sketch table shares: the key capacity N in
 * slot 1 and the heap's size H in slot 2; the payload starts with the 64-byte table line, the key index of
 * {@link KeyIndex#slotCount}(N) slot words and the heap of H bytes, each part 64-byte aligned. A kind's
 * format description holds one of these beside its own parameters and may append a part after the heap.
 * The layout is drawn in {@code docs/design/tables.md}.
 *
 * @param capacity N, in [1, 2^32]
 * @param heapBytes H, a multiple of 64 in [64, 2^43]
 */
public record TableParameters(long capacity, long heapBytes) {

    /** The largest key capacity. */
    public static final long MAX_CAPACITY = 1L << 32;
    /** The largest heap: the 40-bit references of 8-byte units reach 2^43 bytes. */
    public static final long MAX_HEAP_BYTES = 1L << 43;
    /** The table line's bytes, before the index. */
    public static final long LINE_BYTES = 64;
    /** N: slot 1. */
    public static final HeaderParameter.Ranged CAPACITY = HeaderParameter.ranged(1, "key capacity", 1, MAX_CAPACITY);
    /** H: slot 2. */
    public static final HeaderParameter.Ranged HEAP_BYTES =
            new HeaderParameter.Ranged(2, "heap bytes", 64, MAX_HEAP_BYTES, v -> v % 64 == 0, "a multiple of 64");

    /**
     * Reads and range-checks N and H; the caller checks the payload's length, which its kind's parts decide.
     *
     * @param header the header
     * @return the parameters
     * @throws SketchFileException if either is out of range
     */
    public static TableParameters read(HeaderReader header) throws SketchFileException {
        return new TableParameters(header.read(CAPACITY), header.read(HEAP_BYTES));
    }

    /**
     * Sizes a new table: N keys and {@code bytesPerKey} heap bytes per key, the heap rounded up to 64.
     *
     * @param capacity N, checked by the builder
     * @param bytesPerKey at least 1
     * @return the parameters
     * @throws IllegalArgumentException if the heap would pass {@link #MAX_HEAP_BYTES}
     */
    public static TableParameters sized(long capacity, long bytesPerKey) {
        long heap = capacity > MAX_HEAP_BYTES / bytesPerKey
                ? Long.MAX_VALUE
                : Math.ceilDiv(capacity * bytesPerKey, 64) * 64;
        if (heap > MAX_HEAP_BYTES) {
            throw new IllegalArgumentException("capacity * bytesPerKey = " + capacity + " * " + bytesPerKey
                    + ", must be at most 2^43 bytes of heap");
        }
        return new TableParameters(capacity, heap);
    }

    /**
     * Returns N and H as the header holds them.
     *
     * @return the named values, slots 1 and 2
     */
    public List<HeaderValue> values() {
        return List.of(CAPACITY.of(capacity), HEAP_BYTES.of(heapBytes));
    }

    /**
     * Returns the index's slot count S.
     *
     * @return S
     */
    public long slots() {
        return KeyIndex.slotCount(capacity);
    }

    /**
     * Returns where the heap starts in the payload.
     *
     * @return {@code 64 + 8 S}
     */
    public long heapOffset() {
        return LINE_BYTES + slots() * Long.BYTES;
    }

    /**
     * Returns where the heap ends in the payload: the payload's length for a kind that appends nothing.
     *
     * @return {@code 64 + 8 S + H}, a multiple of 64
     */
    public long heapEnd() {
        return heapOffset() + heapBytes;
    }
}
