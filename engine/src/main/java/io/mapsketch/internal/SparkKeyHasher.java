package io.mapsketch.internal;

import java.lang.foreign.MemorySegment;

/**
 * Spark's scheme: a key's hash is its {@link SparkHashes} pair with the header's seed (an {@code int}),
 * {@code h1} in the high half: bytes (and a string's UTF-8 bytes) by Spark's {@code hashUnsafeBytes}, a
 * {@code long} key by its {@code hashLong}, as Spark's {@code BloomFilter.put} hashes a {@code Long}. The
 * sketch derives its bit indexes or counters from the pair. Cost: two Murmur3_x86_32 passes per key.
 */
final class SparkKeyHasher extends KeyHasher {

    private final int sparkSeed;

    private SparkKeyHasher(long seed) {
        super(seed);
        this.sparkSeed = (int) seed;
    }

    /** A hasher of this scheme, typed as the base class so that naming this method loads nothing. */
    static KeyHasher create(long seed) {
        return new SparkKeyHasher(seed);
    }

    @Override
    public long hash(long key) {
        return SparkHashes.pairOfLong(sparkSeed, key);
    }

    @Override
    public long hash(MemorySegment key, long offset, long length) {
        return SparkHashes.pairOfBytes(sparkSeed, key, offset, length);
    }

    @Override
    void hashLongs(long[] keys, int from, long[] hashes, int to, int count) {
        for (int i = 0; i < count; i++) {
            hashes[to + i] = SparkHashes.pairOfLong(sparkSeed, keys[from + i]);
        }
    }
}
