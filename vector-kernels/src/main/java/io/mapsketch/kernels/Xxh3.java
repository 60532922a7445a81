package io.mapsketch.kernels;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * XXH3-64 of one 64-bit key, written from the XXH3 specification: a key is hashed as its eight
 * little-endian bytes, which takes the specification's path for inputs of 4 to 8 bytes. With
 * {@code lo} and {@code hi} the low and high 32-bit halves of the key:
 *
 * <pre>
 * seed'   = seed ^ (byteswap32(low 32 bits of seed) &lt;&lt; 32)
 * bitflip = (secret[8..16) ^ secret[16..24)) - seed'        secret words read little-endian
 * x       = ((lo &lt;&lt; 32) + hi) ^ bitflip                    = rotateLeft(key, 32) ^ bitflip
 * x      ^= rotateLeft(x, 49) ^ rotateLeft(x, 24)
 * x      *= 0x9FB21C651E98DF25
 * x      ^= (x &gt;&gt;&gt; 35) + 8                                 8 = the input length
 * x      *= 0x9FB21C651E98DF25
 * hash    = x ^ (x &gt;&gt;&gt; 28)
 * </pre>
 *
 * The two scalar steps here are shared by the scalar and the Vector API batch kernels. Keys of any
 * other length (byte arrays, strings, buffers) take {@link #hashBytes}, the whole specification
 * for every length class, so that a {@code long} and its eight bytes hash alike.
 */
final class Xxh3 {

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private static final long PRIME32_1 = 0x9E3779B1L;
    private static final long PRIME32_2 = 0x85EBCA77L;
    private static final long PRIME32_3 = 0xC2B2AE3DL;
    private static final long PRIME64_1 = 0x9E3779B185EBCA87L;
    private static final long PRIME64_2 = 0xC2B2AE3D27D4EB4FL;
    private static final long PRIME64_3 = 0x165667B19E3779F9L;
    private static final long PRIME64_4 = 0x85EBCA77C2B2AE63L;
    private static final long PRIME64_5 = 0x27D4EB2F165667C5L;
    private static final long PRIME_MX1 = 0x165667919E3779F9L;

    private static final int SECRET_SIZE = 192;
    private static final int STRIPE = 64;
    private static final int STRIPES_PER_BLOCK = (SECRET_SIZE - STRIPE) / 8;
    private static final int BLOCK = STRIPE * STRIPES_PER_BLOCK;

    /** The default secret of the XXH3 specification, as 24 little-endian words. */
    private static final long[] SECRET = {
        0xbe4ba423396cfeb8L, 0x1cad21f72c81017cL, 0xdb979083e96dd4deL, 0x1f67b3b7a4a44072L,
        0x78e5c0cc4ee679cbL, 0x2172ffcc7dd05a82L, 0x8e2443f7744608b8L, 0x4c263a81e69035e0L,
        0xcb00c391bb52283cL, 0xa32e531b8b65d088L, 0x4ef90da297486471L, 0xd8acdea946ef1938L,
        0x3f349ce33f76faa8L, 0x1d4f0bc7c7bbdcf9L, 0x3159b4cd4be0518aL, 0x647378d9c97e9fc8L,
        0xc3ebd33483acc5eaL, 0xeb6313faffa081c5L, 0x49daf0b751dd0d17L, 0x9e68d429265516d3L,
        0xfca1477d58be162bL, 0xce31d07ad1b8f88fL, 0x280416958f3acb45L, 0x7e404bbbcafbd7afL,
    };

    /** The multiplier of the specification's {@code rrmxmx} finaliser. */
    static final long MULTIPLIER = 0x9FB21C651E98DF25L;
    /** Length of the hashed input in bytes. */
    static final long LENGTH = Long.BYTES;

    private Xxh3() {}

    /** Returns the per-seed constant that every key of a batch is XORed with. */
    static long bitflip(long seed) {
        long mixedSeed = seed ^ ((long) Integer.reverseBytes((int) seed) << 32);
        return (SECRET[1] ^ SECRET[2]) - mixedSeed;
    }

    /** Returns the XXH3-64 hash of {@code key}, given {@link #bitflip} of the seed. */
    static long hash(long key, long bitflip) {
        return rrmxmx(Long.rotateLeft(key, 32) ^ bitflip, LENGTH);
    }

    /** XXH3-64 of {@code length} bytes of {@code data} from {@code offset}; bounds are the caller's. */
    static long hashBytes(MemorySegment data, long offset, long length, long seed) {
        if (length <= 16) {
            return hashUpTo16(data, offset, (int) length, seed);
        }
        if (length <= 128) {
            return hash17To128(data, offset, length, seed);
        }
        if (length <= 240) {
            return hash129To240(data, offset, length, seed);
        }
        return hashLong(data, offset, length, seed == 0 ? SECRET : derivedSecret(seed));
    }

    private static long hashUpTo16(MemorySegment data, long offset, int length, long seed) {
        if (length > 8) {
            long bitflip1 = (secret(24) ^ secret(32)) + seed;
            long bitflip2 = (secret(40) ^ secret(48)) - seed;
            long low = data.get(LONG, offset) ^ bitflip1;
            long high = data.get(LONG, offset + length - 8) ^ bitflip2;
            long acc = length + Long.reverseBytes(low) + high + fold(low, high);
            return avalanche(acc);
        }
        if (length >= 4) {
            long first = Integer.toUnsignedLong(data.get(INT, offset));
            long last = Integer.toUnsignedLong(data.get(INT, offset + length - 4));
            return rrmxmx((last + (first << 32)) ^ bitflip(seed), length);
        }
        if (length > 0) {
            int c1 = Byte.toUnsignedInt(data.get(ValueLayout.JAVA_BYTE, offset));
            int c2 = Byte.toUnsignedInt(data.get(ValueLayout.JAVA_BYTE, offset + (length >> 1)));
            int c3 = Byte.toUnsignedInt(data.get(ValueLayout.JAVA_BYTE, offset + length - 1));
            long combined = Integer.toUnsignedLong(c1 << 16 | c2 << 24 | c3 | length << 8);
            long bitflip = Integer.toUnsignedLong((int) SECRET[0] ^ (int) (SECRET[0] >>> 32)) + seed;
            return xxh64Avalanche(combined ^ bitflip);
        }
        return xxh64Avalanche(seed ^ secret(56) ^ secret(64));
    }

    private static long hash17To128(MemorySegment data, long offset, long length, long seed) {
        long acc = length * PRIME64_1;
        if (length > 32) {
            if (length > 64) {
                if (length > 96) {
                    acc += mix16(data, offset + 48, 96, seed);
                    acc += mix16(data, offset + length - 64, 112, seed);
                }
                acc += mix16(data, offset + 32, 64, seed);
                acc += mix16(data, offset + length - 48, 80, seed);
            }
            acc += mix16(data, offset + 16, 32, seed);
            acc += mix16(data, offset + length - 32, 48, seed);
        }
        acc += mix16(data, offset, 0, seed);
        acc += mix16(data, offset + length - 16, 16, seed);
        return avalanche(acc);
    }

    private static long hash129To240(MemorySegment data, long offset, long length, long seed) {
        long acc = length * PRIME64_1;
        int rounds = (int) (length / 16);
        for (int i = 0; i < 8; i++) {
            acc += mix16(data, offset + 16L * i, 16 * i, seed);
        }
        acc = avalanche(acc);
        for (int i = 8; i < rounds; i++) {
            acc += mix16(data, offset + 16L * i, 16 * (i - 8) + 3, seed);
        }
        acc += mix16(data, offset + length - 16, 136 - 17, seed);
        return avalanche(acc);
    }

    private static long hashLong(MemorySegment data, long offset, long length, long[] secret) {
        long[] acc = {PRIME32_3, PRIME64_1, PRIME64_2, PRIME64_3, PRIME64_4, PRIME32_2, PRIME64_5, PRIME32_1};
        long blocks = (length - 1) / BLOCK;
        for (long b = 0; b < blocks; b++) {
            long blockStart = offset + b * BLOCK;
            for (int s = 0; s < STRIPES_PER_BLOCK; s++) {
                accumulate(acc, data, blockStart + (long) s * STRIPE, secret, 8 * s);
            }
            scramble(acc, secret, SECRET_SIZE - STRIPE);
        }
        long tailStart = offset + blocks * BLOCK;
        int stripes = (int) (((length - 1) - blocks * BLOCK) / STRIPE);
        for (int s = 0; s < stripes; s++) {
            accumulate(acc, data, tailStart + (long) s * STRIPE, secret, 8 * s);
        }
        accumulate(acc, data, offset + length - STRIPE, secret, SECRET_SIZE - STRIPE - 7);
        long result = length * PRIME64_1;
        for (int i = 0; i < 4; i++) {
            result += fold(
                    acc[2 * i] ^ secretWord(secret, 11 + 16 * i), acc[2 * i + 1] ^ secretWord(secret, 19 + 16 * i));
        }
        return avalanche(result);
    }

    private static void accumulate(long[] acc, MemorySegment data, long at, long[] secret, int secretOffset) {
        for (int i = 0; i < 8; i++) {
            long value = data.get(LONG, at + 8L * i);
            long keyed = value ^ secretWord(secret, secretOffset + 8 * i);
            acc[i ^ 1] += value;
            acc[i] += (keyed & 0xFFFFFFFFL) * (keyed >>> 32);
        }
    }

    private static void scramble(long[] acc, long[] secret, int secretOffset) {
        for (int i = 0; i < 8; i++) {
            long a = acc[i];
            a ^= a >>> 47;
            a ^= secretWord(secret, secretOffset + 8 * i);
            acc[i] = a * PRIME32_1;
        }
    }

    private static long[] derivedSecret(long seed) {
        long[] derived = new long[SECRET.length];
        for (int i = 0; i < SECRET.length; i += 2) {
            derived[i] = SECRET[i] + seed;
            derived[i + 1] = SECRET[i + 1] - seed;
        }
        return derived;
    }

    private static long mix16(MemorySegment data, long at, int secretOffset, long seed) {
        long low = data.get(LONG, at) ^ (secret(secretOffset) + seed);
        long high = data.get(LONG, at + 8) ^ (secret(secretOffset + 8) - seed);
        return fold(low, high);
    }

    /** The default secret's little-endian word at any byte offset. */
    private static long secret(int byteOffset) {
        return secretWord(SECRET, byteOffset);
    }

    /** A secret's little-endian word at any byte offset (offsets need not be multiples of 8). */
    private static long secretWord(long[] secret, int byteOffset) {
        int word = byteOffset >>> 3;
        int shift = (byteOffset & 7) * 8;
        if (shift == 0) {
            return secret[word];
        }
        return secret[word] >>> shift | secret[word + 1] << (64 - shift);
    }

    private static long fold(long a, long b) {
        return a * b ^ Math.unsignedMultiplyHigh(a, b);
    }

    private static long avalanche(long h) {
        h ^= h >>> 37;
        h *= PRIME_MX1;
        return h ^ h >>> 32;
    }

    private static long rrmxmx(long h, long length) {
        h ^= Long.rotateLeft(h, 49) ^ Long.rotateLeft(h, 24);
        h *= MULTIPLIER;
        h ^= (h >>> 35) + length;
        h *= MULTIPLIER;
        return h ^ h >>> 28;
    }

    private static long xxh64Avalanche(long h) {
        h ^= h >>> 33;
        h *= PRIME64_2;
        h ^= h >>> 29;
        h *= PRIME64_3;
        return h ^ h >>> 32;
    }
}
