package io.mapsketch.kernels;

import static io.mapsketch.kernels.Layouts.LONG;

import java.lang.foreign.MemorySegment;

/** The scalar reference for {@link SimHashOps}: bit by bit, and {@code Long.bitCount} of each XOR. */
final class ScalarSimHashOps implements SimHashOps {

    @Override
    public void accumulate(double[] sums, long hash, double weight) {
        for (int bit = 0; bit < Long.SIZE; bit++) {
            sums[bit] += ((hash >>> bit) & 1) != 0 ? weight : -weight;
        }
    }

    @Override
    public void countOnes(long[] lanes, long hash) {
        for (int lane = 0; lane < SimHashKernels.ONES_LANES; lane++) {
            lanes[lane] += (hash >>> lane) & SimHashKernels.ONE_PER_BYTE;
        }
    }

    @Override
    public int within(
            MemorySegment table, long offset, int count, long query, int maxDistance, int[] matches, int matchesFrom) {
        int found = 0;
        for (int i = 0; i < count; i++) {
            if (Long.bitCount(table.get(LONG, offset + (long) i * Long.BYTES) ^ query) <= maxDistance) {
                matches[matchesFrom + found++] = i;
            }
        }
        return found;
    }
}
