package io.mapsketch.kernels;

import static io.mapsketch.kernels.Layouts.ORDER;

import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vector API twin of {@link ScalarMinHashOps}. The update keeps one vector of slots in a register
 * while it runs every hash of the batch through the derivation on all lanes at once (an add, three
 * shift-XORs and two 64-bit multiplies per vector of slots), so each slot is loaded and stored once
 * per batch; the slots after the last whole vector go to the scalar reference.
 */
final class VectorMinHashOps implements MinHashOps {

    private static final VectorSpecies<Long> S = VectorKernels.LONGS;
    private static final int LANES = S.length();
    private static final int STEP = S.vectorByteSize();
    private static final ScalarMinHashOps TAIL = new ScalarMinHashOps();

    @Override
    public void update(
            MemorySegment signature, long offset, int firstSlot, int slots, long[] hashes, int from, int count) {
        int bound = slots & -LANES;
        LongVector lanes = LongVector.zero(S).addIndex(1);
        int s = 0;
        for (; s < bound; s += LANES) {
            long at = offset + (long) s * Long.BYTES;
            LongVector increments = lanes.add(firstSlot + s + 1L).mul(MinHashKernels.SLOT_INCREMENT);
            LongVector min = LongVector.fromMemorySegment(S, signature, at, ORDER);
            for (int j = from; j < from + count; j++) {
                min = min.lanewise(VectorOperators.UMIN, mix(increments.add(hashes[j])));
            }
            min.intoMemorySegment(signature, at, ORDER);
        }
        TAIL.update(signature, offset + (long) s * Long.BYTES, firstSlot + s, slots - s, hashes, from, count);
    }

    private static LongVector mix(LongVector z) {
        z = z.lanewise(VectorOperators.XOR, z.lanewise(VectorOperators.LSHR, 33))
                .mul(MinHashKernels.MIX_1);
        z = z.lanewise(VectorOperators.XOR, z.lanewise(VectorOperators.LSHR, 33))
                .mul(MinHashKernels.MIX_2);
        return z.lanewise(VectorOperators.XOR, z.lanewise(VectorOperators.LSHR, 33));
    }

    @Override
    public long countEqual(MemorySegment a, long aOffset, MemorySegment b, long bOffset, long values) {
        long bytes = values << 3;
        long bound = bytes & -STEP;
        long equal = 0;
        long i = 0;
        for (; i < bound; i += STEP) {
            LongVector x = LongVector.fromMemorySegment(S, a, aOffset + i, ORDER);
            LongVector y = LongVector.fromMemorySegment(S, b, bOffset + i, ORDER);
            equal += x.compare(VectorOperators.EQ, y).trueCount();
        }
        return equal + TAIL.countEqual(a, aOffset + i, b, bOffset + i, (bytes - i) >>> 3);
    }
}
