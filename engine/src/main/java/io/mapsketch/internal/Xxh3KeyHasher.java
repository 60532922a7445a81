package io.mapsketch.internal;

import io.mapsketch.kernels.HashKernels;
import java.lang.foreign.MemorySegment;

/**
 * The native scheme: XXH3-64 with the header's seed; a {@code long} key hashes as its eight
 * little-endian bytes, a batch of them with the SIMD kernel.
 */
final class Xxh3KeyHasher extends KeyHasher {

    /** XXH3's constant of the seed for 8-byte keys, derived once rather than per key. */
    private final long longKeyConstant;

    Xxh3KeyHasher(long seed) {
        super(seed);
        this.longKeyConstant = HashKernels.xxh3SeedConstant(seed);
    }

    @Override
    public long hash(long key) {
        return HashKernels.xxh3WithSeedConstant(longKeyConstant, key);
    }

    @Override
    public long hash(MemorySegment key, long offset, long length) {
        return HashKernels.xxh3Bytes(seed, key, offset, length);
    }

    @Override
    void hashLongs(long[] keys, int from, long[] hashes, int to, int count) {
        HashKernels.xxh3(seed, keys, from, hashes, to, count);
    }
}
