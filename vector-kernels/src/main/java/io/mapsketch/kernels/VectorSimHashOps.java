package io.mapsketch.kernels;

import static io.mapsketch.kernels.Layouts.ORDER;

import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vector API twin of {@link ScalarSimHashOps}. The sums are updated a vector of L lanes at a time:
 * L bits of the hash become a lane mask that picks {@code +weight} or {@code -weight} for each lane,
 * one add per vector (8 vectors at 512 bits), the same additions in the same order as the reference,
 * so the sums are equal to the bit. Counting ones is one shift by a
 * vector of lane shifts, an AND and an add per vector of lanes (one vector at 512 bits). The scan handles, per vector of fingerprints, one XOR with the query,
 * a lane-wise popcount and a compare; only a vector with a match leaves the loop's straight path to
 * write the matching lanes' indices. The fingerprints after the last whole vector go to the scalar
 * reference.
 */
final class VectorSimHashOps implements SimHashOps {

    private static final VectorSpecies<Long> S = VectorKernels.LONGS;
    private static final int LANES = S.length();
    private static final VectorSpecies<Double> D = VectorKernels.DOUBLES;
    private static final int DOUBLE_LANES = D.length();
    private static final long LANE_BITS = (1L << DOUBLE_LANES) - 1;

    @Override
    public void accumulate(double[] sums, long hash, double weight) {
        DoubleVector plus = DoubleVector.broadcast(D, weight);
        DoubleVector minus = DoubleVector.broadcast(D, -weight);
        for (int bit = 0; bit < Long.SIZE; bit += DOUBLE_LANES) {
            VectorMask<Double> ones = VectorMask.fromLong(D, (hash >>> bit) & LANE_BITS);
            DoubleVector.fromArray(D, sums, bit).add(minus.blend(plus, ones)).intoArray(sums, bit);
        }
    }

    private static final ScalarSimHashOps TAIL = new ScalarSimHashOps();
    /** The shifts of the lanes of {@link #countOnes}, a vector of L lanes from lane 0. */
    private static final LongVector SHIFTS = LongVector.zero(S).addIndex(1);

    @Override
    public void countOnes(long[] lanes, long hash) {
        LongVector bits = LongVector.broadcast(S, hash);
        for (int lane = 0; lane < SimHashKernels.ONES_LANES; lane += LANES) {
            LongVector.fromArray(S, lanes, lane)
                    .add(bits.lanewise(VectorOperators.LSHR, SHIFTS.add(lane)).and(SimHashKernels.ONE_PER_BYTE))
                    .intoArray(lanes, lane);
        }
    }

    @Override
    public int within(
            MemorySegment table, long offset, int count, long query, int maxDistance, int[] matches, int matchesFrom) {
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
        int tail = TAIL.within(
                table, offset + (long) i * Long.BYTES, count - i, query, maxDistance, matches, matchesFrom + found);
        for (int t = 0; t < tail; t++) {
            matches[matchesFrom + found + t] += i;
        }
        return found + tail;
    }
}
