package io.mapsketch.internal;

import io.mapsketch.kernels.Murmur3x86x32;
import java.lang.foreign.MemorySegment;

/**
 * The pair of 32-bit hashes from which Spark's Bloom filters and Count-Min sketch derive a key's
 * places: {@code h1 = hash(key, seed)}, {@code h2 = hash(key, h1)}, with Spark's
 * {@code Murmur3_x86_32}. Bytes (a string's UTF-8 bytes, a byte array) take its
 * {@code hashUnsafeBytes}, whose trailing bytes are each mixed as a whole int
 * ({@link Murmur3x86x32#hashBytesTailAsInts}); integral items ({@code byte}, {@code short},
 * {@code int}, {@code long}) are widened to a {@code long} and take {@code hashLong}. The pair is
 * packed in one {@code long}, {@code h1} in the high half, so that no call allocates.
 */
public final class SparkHashes {

    private SparkHashes() {}

    /**
     * Returns the pair of a key's bytes.
     *
     * @param seed the filter's seed (0 for a version-1 filter and for every Count-Min sketch)
     * @param data any segment
     * @param offset first byte
     * @param length number of bytes
     * @return {@code h1} in the high 32 bits, {@code h2} in the low 32
     * @throws IndexOutOfBoundsException if the range is outside the segment
     */
    public static long pairOfBytes(int seed, MemorySegment data, long offset, long length) {
        int h1 = Murmur3x86x32.hashBytesTailAsInts(seed, data, offset, length);
        return pack(h1, Murmur3x86x32.hashBytesTailAsInts(h1, data, offset, length));
    }

    /**
     * Returns the pair of an integral item, widened to a {@code long}.
     *
     * @param seed the filter's seed (0 for a version-1 filter)
     * @param item the item
     * @return {@code h1} in the high 32 bits, {@code h2} in the low 32
     */
    public static long pairOfLong(int seed, long item) {
        int h1 = Murmur3x86x32.hashLong(seed, item);
        return pack(h1, Murmur3x86x32.hashLong(h1, item));
    }

    /**
     * Returns {@code h1} of a pair.
     *
     * @param pair a pair from this class
     * @return its high 32 bits
     */
    public static int first(long pair) {
        return (int) (pair >>> 32);
    }

    /**
     * Returns {@code h2} of a pair.
     *
     * @param pair a pair from this class
     * @return its low 32 bits
     */
    public static int second(long pair) {
        return (int) pair;
    }

    private static long pack(int h1, int h2) {
        return (long) h1 << 32 | Integer.toUnsignedLong(h2);
    }
}
