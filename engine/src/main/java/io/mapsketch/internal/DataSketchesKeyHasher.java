package io.mapsketch.internal;

import io.mapsketch.kernels.Murmur3x64x128;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * DataSketches' HLL scheme, as {@code HllSketch.update} hashes: Murmur3_x64_128 of the key's bytes with
 * the header's seed (DataSketches' is 9001), a {@code long} as its eight little-endian bytes (the
 * {@code update(long)} overload, which hashes the one-element {@code long[]}), a {@code CharSequence} as
 * its UTF-8 bytes ({@code update(String)}), bytes as they are ({@code update(byte[])}). The hash handed to
 * the sketch is DataSketches' coupon ({@link #coupon}); an empty key hashes to 0, a coupon of value 0
 * that raises no register, as DataSketches ignores an empty key. Cost: Murmur3_x64_128 of the bytes into
 * this thread's two-long buffer ({@link OwnedScratch}), no allocation.
 */
final class DataSketchesKeyHasher extends KeyHasher {

    /** The address bits of a coupon: the low 26 bits of the first half. */
    private static final int ADDRESS_BITS = 26;
    /** The largest value: 62 leading zeros and more give 63. */
    private static final int MAX_VALUE = 63;

    private final OwnedScratch<long[]> halves = new OwnedScratch<>(() -> new long[2]);

    private DataSketchesKeyHasher(long seed) {
        super(seed);
    }

    /** A hasher of this scheme, typed as the base class so that naming this method loads nothing. */
    static KeyHasher create(long seed) {
        return new DataSketchesKeyHasher(seed);
    }

    /**
     * DataSketches' coupon of a hash's two halves: {@code value << 26 | (h0 & (2^26 - 1))}, the value
     * being {@code min(numberOfLeadingZeros(h1), 62) + 1}. A HyperLogLog of precision p takes the slot from
     * its low p bits and the value from bits 26 and up.
     */
    static long coupon(long h0, long h1) {
        long value = Math.min(Long.numberOfLeadingZeros(h1), MAX_VALUE - 1) + 1;
        return value << ADDRESS_BITS | (h0 & ((1L << ADDRESS_BITS) - 1));
    }

    @Override
    public long hash(MemorySegment key, long offset, long length) {
        if (length == 0) {
            Objects.checkFromIndexSize(offset, length, key.byteSize());
            return 0;
        }
        OwnedScratch.Lease<long[]> lease = halves.borrow();
        long[] h = lease.piece();
        Murmur3x64x128.hash(seed, key, offset, length, h);
        long coupon = coupon(h[0], h[1]);
        halves.giveBack(lease);
        return coupon;
    }

    @Override
    public long hash(long key) {
        OwnedScratch.Lease<long[]> lease = halves.borrow();
        long[] h = lease.piece();
        Murmur3x64x128.hashLong(seed, key, h);
        long coupon = coupon(h[0], h[1]);
        halves.giveBack(lease);
        return coupon;
    }

    @Override
    void hashLongs(long[] keys, int from, long[] hashes, int to, int count) {
        OwnedScratch.Lease<long[]> lease = halves.borrow();
        long[] h = lease.piece();
        for (int i = 0; i < count; i++) {
            Murmur3x64x128.hashLong(seed, keys[from + i], h);
            hashes[to + i] = coupon(h[0], h[1]);
        }
        halves.giveBack(lease);
    }
}
