package io.mapsketch.internal;

import io.mapsketch.kernels.Murmur3x64x128;
import java.lang.foreign.MemorySegment;

/**
 * Where Guava's {@code MURMUR128_MITZ_64} strategy puts a key's bits. A key's bytes, as its funnel
 * feeds them, are hashed with Murmur3 x64 128-bit, seed 0, into halves {@code h1} and {@code h2};
 * probe {@code i} (0 to k - 1) sets bit {@code ((h1 + i * h2) & Long.MAX_VALUE) % bitSize}, in
 * 64-bit arithmetic that wraps, {@code bitSize} being 64 times the number of words. The funnels
 * feed: {@code Funnels.stringFunnel(UTF_8)} the string's UTF-8 bytes, {@code Funnels.longFunnel()}
 * the long's 8 little-endian bytes, {@code Funnels.byteArrayFunnel()} the array itself.
 *
 * <p>Cost: no allocation; the hash, then one multiply-add and one remainder per probe.
 */
public final class GuavaBloomIndexes {

    private GuavaBloomIndexes() {}

    /**
     * Hashes a key's bytes (a string's UTF-8 bytes, or a byte array) as Guava's filters do.
     *
     * @param data any segment
     * @param offset first byte
     * @param length number of bytes
     * @param halves receives {@code h1} at index 0 and {@code h2} at index 1
     * @throws IndexOutOfBoundsException if the range is outside the segment or {@code halves} is
     *     shorter than 2
     */
    public static void hashBytes(MemorySegment data, long offset, long length, long[] halves) {
        Murmur3x64x128.hash(0, data, offset, length, halves);
    }

    /**
     * Hashes a {@code long} key as Guava's {@code Funnels.longFunnel()} feeds it.
     *
     * @param key the key
     * @param halves receives {@code h1} at index 0 and {@code h2} at index 1
     * @throws IndexOutOfBoundsException if {@code halves} is shorter than 2
     */
    public static void hashLong(long key, long[] halves) {
        Murmur3x64x128.hashLong(0, key, halves);
    }

    /**
     * Returns the bit of one probe.
     *
     * @param h1 the first half of the key's hash
     * @param h2 the second half
     * @param probe the probe, 0 to k - 1
     * @param bitSize the filter's bits, 64 times its words, {@code > 0}
     * @return the bit index, 0 to {@code bitSize - 1}
     */
    public static long bitIndex(long h1, long h2, int probe, long bitSize) {
        return ((h1 + probe * h2) & Long.MAX_VALUE) % bitSize;
    }
}
