package io.mapsketch.kernels;

import static io.mapsketch.kernels.Layouts.ORDER;

import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vector API twin of {@link ScalarHammingOps}: per vector of fingerprints one XOR with the query,
 * a lane-wise popcount and a compare; only a vector with a match leaves the loop's straight path to
 * write the matching lanes' indices. The fingerprints after the last whole vector go to the scalar
 * reference.
 */
final class VectorHammingOps implements HammingOps {

    private static final VectorSpecies<Long> S = VectorKernels.LONGS;
    private static final int LANES = S.length();
    private static final ScalarHammingOps TAIL = new ScalarHammingOps();

    @Override
    public int within(MemorySegment table, long offset, int count, long query, int maxDistance, int[] matches,
            int matchesFrom) {
        int bound = count & -LANES;
        int found = 0;
        int i = 0;
        for (; i < bound; i += LANES) {
            long hits = LongVector.fromMemorySegment(S, table, offset + (long) i * Long.BYTES, ORDER)
                    .lanewise(VectorOperators.XOR, query)
                    .lanewise(VectorOperators.BIT_COUNT)
                    .compare(VectorOperators.LE, maxDistance)
                    .toLong();
            while (hits != 0) {
                matches[matchesFrom + found++] = i + Long.numberOfTrailingZeros(hits);
                hits &= hits - 1;
            }
        }
        int tail = TAIL.within(table, offset + (long) i * Long.BYTES, count - i, query, maxDistance, matches,
                matchesFrom + found);
        for (int t = 0; t < tail; t++) {
            matches[matchesFrom + found + t] += i;
        }
        return found + tail;
    }
}
