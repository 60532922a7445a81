package io.mapsketch.kernels;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * MurmurHash3 x64 128-bit with a 64-bit seed, both 64-bit halves {@code h1} and {@code h2} written
 * into an array the caller owns, so that no call allocates. The halves are those of the reference
 * implementation: Guava's {@code Hashing.murmur3_128(seed)} is {@code h1} then {@code h2} as
 * little-endian bytes ({@code lowerEight} and {@code upperEight} of {@code asBytes()}), and
 * DataSketches' {@code MurmurHash3.hash(key, seed)} returns {@code {h1, h2}}.
 *
 * <p>The seed initialises both halves. Guava's {@code int} seed is sign-extended to it
 * ({@code (long) seed}), hash4j's {@code murmur3_128(int)} zero-extended
 * ({@code Integer.toUnsignedLong(seed)}); DataSketches' {@code long} seed is taken as it is. The
 * three agree for seeds from 0 to {@link Integer#MAX_VALUE}, DataSketches' default 9001 among them.
 *
 * <p><b>Errors.</b> A byte range outside its segment is an {@link IndexOutOfBoundsException}, an
 * output array shorter than 2 an {@link IndexOutOfBoundsException}, a {@code null} argument a
 * {@link NullPointerException}; nothing is read or written before the checks.
 *
 * <p><b>Cost.</b> No allocation; two 64-bit multiply-rotate-multiply rounds per 16 bytes and a
 * fixed finish of about twenty instructions.
 */
public final class Murmur3x64x128 {

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort SHORT =
            ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;
    private static final int BLOCK = 16;

    private Murmur3x64x128() {}

    /**
     * Hashes a byte range: {@code halves[0] = h1}, {@code halves[1] = h2}.
     *
     * @param seed the seed both halves start from
     * @param data any segment (heap, native or mapped)
     * @param offset first byte
     * @param length number of bytes, {@code >= 0}
     * @param halves receives {@code h1} at index 0 and {@code h2} at index 1
     * @throws IndexOutOfBoundsException if the range does not lie inside the segment, or
     *     {@code halves} is shorter than 2
     */
    public static void hash(long seed, MemorySegment data, long offset, long length, long[] halves) {
        Objects.checkFromIndexSize(
                offset, length, Objects.requireNonNull(data, "data").byteSize());
        Objects.checkIndex(1, Objects.requireNonNull(halves, "halves").length);
        long h1 = seed;
        long h2 = seed;
        long tail = offset + (length & ~(BLOCK - 1L));
        for (long at = offset; at < tail; at += BLOCK) {
            h1 ^= mixK1(data.get(LONG, at));
            h1 = Long.rotateLeft(h1, 27) + h2;
            h1 = h1 * 5 + 0x52dce729;
            h2 ^= mixK2(data.get(LONG, at + Long.BYTES));
            h2 = Long.rotateLeft(h2, 31) + h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        int remaining = (int) (length & (BLOCK - 1));
        if (remaining > Long.BYTES) {
            h2 ^= mixK2(littleEndian(data, tail + Long.BYTES, remaining - Long.BYTES));
        }
        if (remaining >= Long.BYTES) {
            h1 ^= mixK1(data.get(LONG, tail));
        } else if (remaining > 0) {
            h1 ^= mixK1(littleEndian(data, tail, remaining));
        }
        finish(h1, h2, length, halves);
    }

    /**
     * Hashes a {@code long}'s eight little-endian bytes: {@code halves[0] = h1},
     * {@code halves[1] = h2}, as Guava's {@code hashLong} and DataSketches'
     * {@code hash(new long[] {key}, seed)} compute them.
     *
     * @param seed the seed both halves start from
     * @param key the value hashed
     * @param halves receives {@code h1} at index 0 and {@code h2} at index 1
     * @throws IndexOutOfBoundsException if {@code halves} is shorter than 2
     */
    public static void hashLong(long seed, long key, long[] halves) {
        Objects.checkIndex(1, Objects.requireNonNull(halves, "halves").length);
        finish(seed ^ mixK1(key), seed, Long.BYTES, halves);
    }

    /** Reads {@code count} (1 to 7) bytes from {@code at} as a little-endian number, in at most three loads. */
    private static long littleEndian(MemorySegment data, long at, int count) {
        long value = 0;
        int read = 0;
        if ((count & 4) != 0) {
            value = Integer.toUnsignedLong(data.get(INT, at));
            read = Integer.BYTES;
        }
        if ((count & 2) != 0) {
            value |= (long) Short.toUnsignedInt(data.get(SHORT, at + read)) << (read * 8);
            read += Short.BYTES;
        }
        if ((count & 1) != 0) {
            value |= Byte.toUnsignedLong(data.get(ValueLayout.JAVA_BYTE, at + read)) << (read * 8);
        }
        return value;
    }

    private static long mixK1(long k1) {
        return Long.rotateLeft(k1 * C1, 31) * C2;
    }

    private static long mixK2(long k2) {
        return Long.rotateLeft(k2 * C2, 33) * C1;
    }

    private static void finish(long h1, long h2, long length, long[] halves) {
        h1 ^= length;
        h2 ^= length;
        h1 += h2;
        h2 += h1;
        h1 = fmix64(h1);
        h2 = fmix64(h2);
        h1 += h2;
        h2 += h1;
        halves[0] = h1;
        halves[1] = h2;
    }

    private static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        return k ^ (k >>> 33);
    }
}
