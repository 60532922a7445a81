package io.mapsketch.kernels;

import java.lang.foreign.MemorySegment;

/**
 * Batch hashing of 64-bit keys; arguments are trusted (the facade {@link HashKernels} checks them).
 */
interface HashOps {

    /** {@code hashes[hashesFrom + i] = XXH3-64(seed, keys[keysFrom + i])} for {@code count} keys. */
    void xxh3(long seed, long[] keys, int keysFrom, long[] hashes, int hashesFrom, int count);

    /** The same over little-endian 64-bit keys and hashes in segments; offsets in bytes. */
    void xxh3(long seed, MemorySegment keys, long keysOffset, MemorySegment hashes, long hashesOffset, long count);
}
