package io.mapsketch.kernels;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * MurmurHash3 x86 32-bit, as Spark's {@code org.apache.spark.util.sketch.Murmur3_x86_32} computes
 * it: words are read little-endian on every platform, and integral values are hashed as their
 * little-endian bytes ({@link #hashInt} as 4 bytes, {@link #hashLong} as 8, low word first).
 *
 * <p>Byte ranges come in two variants that differ only for lengths that are not a multiple of 4:
 * {@link #hashBytes} finishes with the standard MurmurHash3 tail (Spark's {@code hashUnsafeBytes2},
 * Guava's {@code murmur3_32_fixed}, hash4j's {@code murmur3_32}), and {@link #hashBytesTailAsInts}
 * mixes each trailing byte, sign-extended, as a whole 4-byte block (Spark's {@code hashUnsafeBytes},
 * which its Bloom filters V1 and V2 and its Count-Min sketch use for strings and byte arrays).
 *
 * <p><b>Errors.</b> A byte range outside its segment is an {@link IndexOutOfBoundsException}, a
 * {@code null} segment a {@link NullPointerException}; nothing is read before the check.
 *
 * <p><b>Cost.</b> No allocation; one multiply-rotate-multiply per 4 bytes (per trailing byte in the
 * tail-as-ints variant).
 */
public final class Murmur3x86x32 {

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private static final int C1 = 0xcc9e2d51;
    private static final int C2 = 0x1b873593;

    private Murmur3x86x32() {}

    /**
     * Returns the hash of an {@code int}'s four little-endian bytes: Spark's
     * {@code Murmur3_x86_32.hashInt(value, seed)}.
     *
     * @param seed the seed
     * @param value the value hashed
     * @return the 32-bit hash
     */
    public static int hashInt(int seed, int value) {
        return finish(mixH1(seed, mixK1(value)), Integer.BYTES);
    }

    /**
     * Returns the hash of a {@code long}'s eight little-endian bytes: Spark's
     * {@code Murmur3_x86_32.hashLong(value, seed)}, which its Bloom filters and Count-Min sketch
     * use for integral items (a {@code byte}, {@code short} or {@code int} item is first widened to
     * a {@code long}).
     *
     * @param seed the seed
     * @param value the value hashed
     * @return the 32-bit hash
     */
    public static int hashLong(int seed, long value) {
        int h1 = mixH1(seed, mixK1((int) value));
        h1 = mixH1(h1, mixK1((int) (value >>> 32)));
        return finish(h1, Long.BYTES);
    }

    /**
     * Returns the standard MurmurHash3 x86 32-bit hash of a byte range: Spark's
     * {@code hashUnsafeBytes2}, Guava's {@code murmur3_32_fixed(seed)}.
     *
     * @param seed the seed
     * @param data any segment (heap, native or mapped)
     * @param offset first byte
     * @param length number of bytes, {@code >= 0}; the hash mixes in its low 32 bits
     * @return the 32-bit hash
     * @throws IndexOutOfBoundsException if the range does not lie inside the segment
     */
    public static int hashBytes(int seed, MemorySegment data, long offset, long length) {
        checkRange(data, offset, length);
        long tail = offset + (length & ~3L);
        int h1 = blocks(seed, data, offset, tail);
        int rest = (int) (length & 3);
        if (rest > 0) {
            int k1 = Byte.toUnsignedInt(data.get(ValueLayout.JAVA_BYTE, tail));
            if (rest > 1) {
                k1 |= Byte.toUnsignedInt(data.get(ValueLayout.JAVA_BYTE, tail + 1)) << 8;
            }
            if (rest > 2) {
                k1 |= Byte.toUnsignedInt(data.get(ValueLayout.JAVA_BYTE, tail + 2)) << 16;
            }
            h1 ^= mixK1(k1);
        }
        return finish(h1, (int) length);
    }

    /**
     * Returns Spark's variant of the hash of a byte range, {@code hashUnsafeBytes}: the 4-byte blocks
     * as in the standard hash, then each of the up to 3 trailing bytes, sign-extended to an
     * {@code int}, mixed as a block of its own. Equal to {@link #hashBytes} when {@code length} is a
     * multiple of 4.
     *
     * @param seed the seed
     * @param data any segment (heap, native or mapped)
     * @param offset first byte
     * @param length number of bytes, {@code >= 0}; the hash mixes in its low 32 bits
     * @return the 32-bit hash
     * @throws IndexOutOfBoundsException if the range does not lie inside the segment
     */
    public static int hashBytesTailAsInts(int seed, MemorySegment data, long offset, long length) {
        checkRange(data, offset, length);
        long end = offset + length;
        long tail = offset + (length & ~3L);
        int h1 = blocks(seed, data, offset, tail);
        for (long at = tail; at < end; at++) {
            h1 = mixH1(h1, mixK1(data.get(ValueLayout.JAVA_BYTE, at)));
        }
        return finish(h1, (int) length);
    }

    private static void checkRange(MemorySegment data, long offset, long length) {
        Objects.checkFromIndexSize(
                offset, length, Objects.requireNonNull(data, "data").byteSize());
    }

    /** Mixes the little-endian 4-byte blocks from {@code from} up to {@code to} into {@code h1}. */
    private static int blocks(int h1, MemorySegment data, long from, long to) {
        for (long at = from; at < to; at += Integer.BYTES) {
            h1 = mixH1(h1, mixK1(data.get(INT, at)));
        }
        return h1;
    }

    private static int mixK1(int k1) {
        return Integer.rotateLeft(k1 * C1, 15) * C2;
    }

    private static int mixH1(int h1, int k1) {
        return Integer.rotateLeft(h1 ^ k1, 13) * 5 + 0xe6546b64;
    }

    private static int finish(int h1, int length) {
        h1 ^= length;
        h1 ^= h1 >>> 16;
        h1 *= 0x85ebca6b;
        h1 ^= h1 >>> 13;
        h1 *= 0xc2b2ae35;
        return h1 ^ (h1 >>> 16);
    }
}
