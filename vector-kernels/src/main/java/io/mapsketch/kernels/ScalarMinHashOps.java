package io.mapsketch.kernels;

import static io.mapsketch.kernels.Layouts.LONG;

import java.lang.foreign.MemorySegment;

/**
 * The scalar reference for {@link MinHashOps}: slot by slot, the derived value of every hash and an
 * unsigned compare.
 */
final class ScalarMinHashOps implements MinHashOps {

    @Override
    public void update(
            MemorySegment signature, long offset, int firstSlot, int slots, long[] hashes, int from, int count) {
        for (int s = 0; s < slots; s++) {
            int slot = firstSlot + s;
            long at = offset + (long) s * Long.BYTES;
            long min = signature.get(LONG, at) + Long.MIN_VALUE;
            for (int j = from; j < from + count; j++) {
                min = Math.min(min, MinHashKernels.derive(hashes[j], slot) + Long.MIN_VALUE);
            }
            signature.set(LONG, at, min - Long.MIN_VALUE);
        }
    }

    @Override
    public long countEqual(MemorySegment a, long aOffset, MemorySegment b, long bOffset, long values) {
        long equal = 0;
        long bytes = values << 3;
        for (long i = 0; i < bytes; i += Long.BYTES) {
            if (a.get(LONG, aOffset + i) == b.get(LONG, bOffset + i)) {
                equal++;
            }
        }
        return equal;
    }
}
