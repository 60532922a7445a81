package io.mapsketch.kernels;

import static io.mapsketch.kernels.Layouts.LONG;

import java.lang.foreign.MemorySegment;

/** The scalar reference for {@link HammingOps}: {@code Long.bitCount} of each XOR. */
final class ScalarHammingOps implements HammingOps {

    @Override
    public int within(MemorySegment table, long offset, int count, long query, int maxDistance, int[] matches,
            int matchesFrom) {
        int found = 0;
        for (int i = 0; i < count; i++) {
            if (Long.bitCount(table.get(LONG, offset + (long) i * Long.BYTES) ^ query) <= maxDistance) {
                matches[matchesFrom + found++] = i;
            }
        }
        return found;
    }
}
