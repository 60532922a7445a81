package io.mapsketch.kernels;

import static io.mapsketch.kernels.Layouts.ORDER;

import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vector API twin of {@link ScalarCounterOps}: the saturating unsigned add
 * ({@link VectorOperators#SUADD}) one vector per step, the last partial vector's counters by the
 * scalar reference.
 */
final class VectorCounterOps implements CounterOps {

    private static final VectorSpecies<Integer> INTS = VectorKernels.INTS;
    private static final VectorSpecies<Long> LONGS = VectorKernels.LONGS;
    private static final int STEP = INTS.vectorByteSize();
    private static final ScalarCounterOps TAIL = new ScalarCounterOps();

    @Override
    public void addSaturatingInts(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long counters) {
        long bytes = counters << 2;
        long bound = bytes & -STEP;
        long i = 0;
        for (; i < bound; i += STEP) {
            IntVector a = IntVector.fromMemorySegment(INTS, dst, dstOffset + i, ORDER);
            IntVector b = IntVector.fromMemorySegment(INTS, src, srcOffset + i, ORDER);
            a.lanewise(VectorOperators.SUADD, b).intoMemorySegment(dst, dstOffset + i, ORDER);
        }
        TAIL.addSaturatingInts(dst, dstOffset + i, src, srcOffset + i, (bytes - i) >>> 2);
    }

    @Override
    public void addSaturatingLongs(
            MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long counters) {
        long bytes = counters << 3;
        long bound = bytes & -STEP;
        long i = 0;
        for (; i < bound; i += STEP) {
            LongVector a = LongVector.fromMemorySegment(LONGS, dst, dstOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(LONGS, src, srcOffset + i, ORDER);
            a.lanewise(VectorOperators.SUADD, b).intoMemorySegment(dst, dstOffset + i, ORDER);
        }
        TAIL.addSaturatingLongs(dst, dstOffset + i, src, srcOffset + i, (bytes - i) >>> 3);
    }
}
