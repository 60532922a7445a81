package io.mapsketch.internal;

import io.mapsketch.kernels.MurmurHash64A;
import java.lang.foreign.MemorySegment;

/**
 * Redis's HyperLogLog scheme: MurmurHash64A of the key's bytes with the header's seed (Redis's is
 * {@code 0xadc83b19}), a {@code long} key as its decimal string, the bytes a Redis client sends for it
 * ({@code PFADD k 42} adds the two bytes {@code "42"}). The hash handed to the sketch is the canonical
 * form of {@link #canonical}, so that a HyperLogLog of precision 14, which takes the register from the
 * top 14 bits and the rank from the leading zeros after them, raises the register Redis raises to the
 * rank Redis gives. Cost: MurmurHash64A of the bytes, a bit reversal; a {@code long} is first written as
 * its digits into this thread's buffer.
 */
final class RedisKeyHasher extends KeyHasher {

    /** Redis's register bits: the low 14 bits of the hash. */
    private static final int REGISTER_BITS = 14;

    private RedisKeyHasher(long seed) {
        super(seed);
    }

    /** A hasher of this scheme, typed as the base class so that naming this method loads nothing. */
    static KeyHasher create(long seed) {
        return new RedisKeyHasher(seed);
    }

    /**
     * The hash whose top 14 bits are Redis's register ({@code hash & 0x3FFF}) and whose next 50 bits are
     * the other 50 bits of {@code hash} reversed, so that their leading zeros are Redis's trailing zeros:
     * {@code (index << 50) | (reverse(hash >>> 14) >>> 14)}. The proof is in
     * {@code docs/design/cardinality.md}.
     */
    static long canonical(long redisHash) {
        long index = redisHash & ((1L << REGISTER_BITS) - 1);
        return (index << (Long.SIZE - REGISTER_BITS)) | (Long.reverse(redisHash >>> REGISTER_BITS) >>> REGISTER_BITS);
    }

    @Override
    public long hash(MemorySegment key, long offset, long length) {
        return canonical(MurmurHash64A.hash(key, offset, length, seed));
    }

    @Override
    public long hash(long key) {
        OwnedScratch.Lease<Utf8Buffer> buffer = borrowUtf8Buffer();
        long hash = hashDecimal(key, buffer.piece().forChars(Decimal.LONG_DIGITS));
        giveBackUtf8Buffer(buffer);
        return hash;
    }

    @Override
    void hashLongs(long[] keys, int from, long[] hashes, int to, int count) {
        OwnedScratch.Lease<Utf8Buffer> buffer = borrowUtf8Buffer();
        byte[] digits = buffer.piece().forChars(Decimal.LONG_DIGITS);
        for (int i = 0; i < count; i++) {
            hashes[to + i] = hashDecimal(keys[from + i], digits);
        }
        giveBackUtf8Buffer(buffer);
    }

    /** The hash of the decimal string of {@code key}, written into {@code digits[0, 20)} ({@link Decimal}). */
    private long hashDecimal(long key, byte[] digits) {
        int start = Decimal.write(key, digits);
        return hash(MemorySegment.ofArray(digits), start, Decimal.LONG_DIGITS - start);
    }
}
