package io.mapsketch.kernels;

import static io.mapsketch.kernels.Layouts.LONG;

import java.lang.foreign.MemorySegment;

/** The scalar reference for {@link HashOps}: {@link Xxh3#hash} key by key. */
final class ScalarHashOps implements HashOps {

    @Override
    public void xxh3(long seed, long[] keys, int keysFrom, long[] hashes, int hashesFrom, int count) {
        long bitflip = Xxh3.bitflip(seed);
        for (int i = 0; i < count; i++) {
            hashes[hashesFrom + i] = Xxh3.hash(keys[keysFrom + i], bitflip);
        }
    }

    @Override
    public void xxh3(
            long seed, MemorySegment keys, long keysOffset, MemorySegment hashes, long hashesOffset, long count) {
        long bitflip = Xxh3.bitflip(seed);
        long bytes = count << 3;
        for (long i = 0; i < bytes; i += Long.BYTES) {
            hashes.set(LONG, hashesOffset + i, Xxh3.hash(keys.get(LONG, keysOffset + i), bitflip));
        }
    }
}
