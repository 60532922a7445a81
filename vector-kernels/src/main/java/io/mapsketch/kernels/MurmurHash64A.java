package io.mapsketch.kernels;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * MurmurHash64A, the 64-bit MurmurHash2 of Austin Appleby's public-domain reference, over a range of
 * a segment: the bytes are read as little-endian 8-byte blocks, then the tail of 1 to 7 bytes, whatever
 * the machine's byte order (the form Redis uses for its HyperLogLog, seed {@code 0xadc83b19}). Equal,
 * bit for bit, to the reference on a little-endian machine; SMHasher's verification value of the
 * function, {@code 0x1F0D3804}, is a test.
 *
 * <p>Cost: two multiplies, two shifts and two XORs per 8-byte block; no allocation.
 */
public final class MurmurHash64A {

    private static final long M = 0xc6a4a7935bd1e995L;
    private static final int R = 47;
    private static final ValueLayout.OfLong BLOCK = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private MurmurHash64A() {}

    /**
     * Returns the MurmurHash64A hash of {@code data[offset, offset + length)} with a seed.
     *
     * @param data the segment
     * @param offset first byte
     * @param length number of bytes, at least 0
     * @param seed the 64-bit seed (Redis passes a 32-bit one, zero-extended)
     * @return the 64-bit hash
     * @throws IndexOutOfBoundsException if the range is outside the segment
     */
    public static long hash(MemorySegment data, long offset, long length, long seed) {
        Objects.checkFromIndexSize(offset, length, data.byteSize());
        long h = seed ^ (length * M);
        long blocksEnd = offset + (length & ~7L);
        for (long at = offset; at < blocksEnd; at += Long.BYTES) {
            long k = data.get(BLOCK, at) * M;
            k ^= k >>> R;
            h = (h ^ k * M) * M;
        }
        int tail = (int) (length & 7);
        if (tail != 0) {
            for (int i = tail - 1; i >= 0; i--) {
                h ^= (data.get(ValueLayout.JAVA_BYTE, blocksEnd + i) & 0xFFL) << (8 * i);
            }
            h *= M;
        }
        h ^= h >>> R;
        h *= M;
        return h ^ (h >>> R);
    }
}
