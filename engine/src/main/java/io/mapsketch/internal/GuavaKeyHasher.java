package io.mapsketch.internal;

import java.lang.foreign.MemorySegment;

/**
 * Guava's scheme: Murmur3 x64 128-bit, seed 0, of the bytes a filter's funnel feeds
 * ({@link GuavaBloomIndexes}). Its hash is 128 bits, so it has no 64-bit {@code hash}: the classic Bloom
 * filter of this scheme, the one sketch that runs it, takes both halves of a key's hash from
 * {@code halves}. Bytes and a string's UTF-8 bytes hash as themselves (Guava's byte-array and UTF-8
 * funnels); a {@code long} key as its eight little-endian bytes (the long funnel) or as its decimal
 * string (a filter of strings holds {@code String.valueOf(key)}). Cost: one Murmur3 pass per key.
 */
public final class GuavaKeyHasher extends KeyHasher {

    private GuavaKeyHasher(long seed) {
        super(seed);
    }

    /** A hasher of this scheme, typed as the base class so that naming this method loads nothing. */
    static KeyHasher create(long seed) {
        return new GuavaKeyHasher(seed);
    }

    /** Writes the halves of the hash of the bytes of a segment slice into {@code halves[0, 2)}. */
    public void halves(MemorySegment key, long offset, long length, long[] halves) {
        GuavaBloomIndexes.hashBytes(key, offset, length, halves);
    }

    /** Writes the halves of the hash of a string's UTF-8 bytes into {@code halves[0, 2)}. */
    public void halves(CharSequence key, long[] halves) {
        OwnedScratch.Lease<Utf8Buffer> buffer = borrowUtf8Buffer();
        byte[] bytes = buffer.piece().forChars(key.length());
        GuavaBloomIndexes.hashBytes(MemorySegment.ofArray(bytes), 0, Utf8.encode(key, bytes), halves);
        giveBackUtf8Buffer(buffer);
    }

    /**
     * Writes the halves of the hash of a {@code long} key into {@code halves[0, 2)}: of its decimal string
     * if {@code asDecimal} (a filter of strings), else of its eight little-endian bytes (the long funnel).
     */
    public void halves(long key, boolean asDecimal, long[] halves) {
        if (!asDecimal) {
            GuavaBloomIndexes.hashLong(key, halves);
            return;
        }
        OwnedScratch.Lease<Utf8Buffer> buffer = borrowUtf8Buffer();
        byte[] digits = buffer.piece().forChars(Decimal.LONG_DIGITS);
        int start = Decimal.write(key, digits);
        GuavaBloomIndexes.hashBytes(MemorySegment.ofArray(digits), start, Decimal.LONG_DIGITS - start, halves);
        giveBackUtf8Buffer(buffer);
    }

    /** Refused: a 64-bit hash would place nothing; the halves do. */
    @Override
    public long hash(long key) {
        throw noNarrowHash();
    }

    /** Refused: a 64-bit hash would place nothing; the halves do. */
    @Override
    public long hash(MemorySegment key, long offset, long length) {
        throw noNarrowHash();
    }

    @Override
    void hashLongs(long[] keys, int from, long[] hashes, int to, int count) {
        throw noNarrowHash();
    }

    private static UnsupportedOperationException noNarrowHash() {
        return new UnsupportedOperationException(
                "GUAVA_MURMUR3_128 hashes a key to 128 bits; only a classic Bloom filter, which takes both"
                        + " halves, runs it");
    }
}
