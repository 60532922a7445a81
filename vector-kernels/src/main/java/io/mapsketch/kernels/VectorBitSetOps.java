package io.mapsketch.kernels;

import static io.mapsketch.kernels.Layouts.ORDER;

import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vector API twin of {@link ScalarBitSetOps}: one vector of 64-bit lanes per step, the last
 * partial vector's words by the scalar reference. Popcounts keep four independent vectors of
 * per-lane sums, four vectors per step, and reduce them once at the end: with a single sum the
 * loop read memory at less than half the rate of a plain vector sum on this kind of machine.
 */
final class VectorBitSetOps implements BitSetOps {

    private static final VectorSpecies<Long> S = VectorKernels.LONGS;
    private static final int STEP = S.vectorByteSize();
    private static final ScalarBitSetOps TAIL = new ScalarBitSetOps();

    @Override
    public void or(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long words) {
        long bytes = words << 3;
        long bound = bytes & -STEP;
        long i = 0;
        for (; i < bound; i += STEP) {
            LongVector a = LongVector.fromMemorySegment(S, dst, dstOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(S, src, srcOffset + i, ORDER);
            a.or(b).intoMemorySegment(dst, dstOffset + i, ORDER);
        }
        TAIL.or(dst, dstOffset + i, src, srcOffset + i, (bytes - i) >>> 3);
    }

    @Override
    public void and(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long words) {
        long bytes = words << 3;
        long bound = bytes & -STEP;
        long i = 0;
        for (; i < bound; i += STEP) {
            LongVector a = LongVector.fromMemorySegment(S, dst, dstOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(S, src, srcOffset + i, ORDER);
            a.and(b).intoMemorySegment(dst, dstOffset + i, ORDER);
        }
        TAIL.and(dst, dstOffset + i, src, srcOffset + i, (bytes - i) >>> 3);
    }

    @Override
    public void xor(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long words) {
        long bytes = words << 3;
        long bound = bytes & -STEP;
        long i = 0;
        for (; i < bound; i += STEP) {
            LongVector a = LongVector.fromMemorySegment(S, dst, dstOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(S, src, srcOffset + i, ORDER);
            a.lanewise(VectorOperators.XOR, b).intoMemorySegment(dst, dstOffset + i, ORDER);
        }
        TAIL.xor(dst, dstOffset + i, src, srcOffset + i, (bytes - i) >>> 3);
    }

    @Override
    public void andNot(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long words) {
        long bytes = words << 3;
        long bound = bytes & -STEP;
        long i = 0;
        for (; i < bound; i += STEP) {
            LongVector a = LongVector.fromMemorySegment(S, dst, dstOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(S, src, srcOffset + i, ORDER);
            a.lanewise(VectorOperators.AND_NOT, b).intoMemorySegment(dst, dstOffset + i, ORDER);
        }
        TAIL.andNot(dst, dstOffset + i, src, srcOffset + i, (bytes - i) >>> 3);
    }

    @Override
    public long popcount(MemorySegment a, long aOffset, long words) {
        long bytes = words << 3;
        long unrolledBound = bytes & -(4L * STEP);
        long bound = bytes & -STEP;
        LongVector s0 = LongVector.zero(S);
        LongVector s1 = LongVector.zero(S);
        LongVector s2 = LongVector.zero(S);
        LongVector s3 = LongVector.zero(S);
        long i = 0;
        for (; i < unrolledBound; i += 4L * STEP) {
            s0 = s0.add(bitCount(a, aOffset + i));
            s1 = s1.add(bitCount(a, aOffset + i + STEP));
            s2 = s2.add(bitCount(a, aOffset + i + 2L * STEP));
            s3 = s3.add(bitCount(a, aOffset + i + 3L * STEP));
        }
        for (; i < bound; i += STEP) {
            s0 = s0.add(bitCount(a, aOffset + i));
        }
        return sum(s0, s1, s2, s3) + TAIL.popcount(a, aOffset + i, (bytes - i) >>> 3);
    }

    // popcountAnd and popcountOr repeat one loop with AND and OR written out: passing the operator as a
    // VectorOperators.Binary argument to a shared loop made popcountAnd 25 times slower (C2 intrinsifies
    // a lanewise operation only when its operator is a constant, and the shared loop was not inlined into
    // each caller). See docs/design/kernels.md.
    @Override
    public long popcountAnd(MemorySegment a, long aOffset, MemorySegment b, long bOffset, long words) {
        long bytes = words << 3;
        long unrolledBound = bytes & -(4L * STEP);
        long bound = bytes & -STEP;
        LongVector s0 = LongVector.zero(S);
        LongVector s1 = LongVector.zero(S);
        LongVector s2 = LongVector.zero(S);
        LongVector s3 = LongVector.zero(S);
        long i = 0;
        for (; i < unrolledBound; i += 4L * STEP) {
            s0 = s0.add(load(a, aOffset + i).and(load(b, bOffset + i)).lanewise(VectorOperators.BIT_COUNT));
            s1 = s1.add(
                    load(a, aOffset + i + STEP).and(load(b, bOffset + i + STEP)).lanewise(VectorOperators.BIT_COUNT));
            s2 = s2.add(load(a, aOffset + i + 2L * STEP)
                    .and(load(b, bOffset + i + 2L * STEP))
                    .lanewise(VectorOperators.BIT_COUNT));
            s3 = s3.add(load(a, aOffset + i + 3L * STEP)
                    .and(load(b, bOffset + i + 3L * STEP))
                    .lanewise(VectorOperators.BIT_COUNT));
        }
        for (; i < bound; i += STEP) {
            s0 = s0.add(load(a, aOffset + i).and(load(b, bOffset + i)).lanewise(VectorOperators.BIT_COUNT));
        }
        return sum(s0, s1, s2, s3) + TAIL.popcountAnd(a, aOffset + i, b, bOffset + i, (bytes - i) >>> 3);
    }

    @Override
    public long popcountOr(MemorySegment a, long aOffset, MemorySegment b, long bOffset, long words) {
        long bytes = words << 3;
        long unrolledBound = bytes & -(4L * STEP);
        long bound = bytes & -STEP;
        LongVector s0 = LongVector.zero(S);
        LongVector s1 = LongVector.zero(S);
        LongVector s2 = LongVector.zero(S);
        LongVector s3 = LongVector.zero(S);
        long i = 0;
        for (; i < unrolledBound; i += 4L * STEP) {
            s0 = s0.add(load(a, aOffset + i).or(load(b, bOffset + i)).lanewise(VectorOperators.BIT_COUNT));
            s1 = s1.add(
                    load(a, aOffset + i + STEP).or(load(b, bOffset + i + STEP)).lanewise(VectorOperators.BIT_COUNT));
            s2 = s2.add(load(a, aOffset + i + 2L * STEP)
                    .or(load(b, bOffset + i + 2L * STEP))
                    .lanewise(VectorOperators.BIT_COUNT));
            s3 = s3.add(load(a, aOffset + i + 3L * STEP)
                    .or(load(b, bOffset + i + 3L * STEP))
                    .lanewise(VectorOperators.BIT_COUNT));
        }
        for (; i < bound; i += STEP) {
            s0 = s0.add(load(a, aOffset + i).or(load(b, bOffset + i)).lanewise(VectorOperators.BIT_COUNT));
        }
        return sum(s0, s1, s2, s3) + TAIL.popcountOr(a, aOffset + i, b, bOffset + i, (bytes - i) >>> 3);
    }

    private static LongVector load(MemorySegment segment, long offset) {
        return LongVector.fromMemorySegment(S, segment, offset, ORDER);
    }

    private static LongVector bitCount(MemorySegment segment, long offset) {
        return load(segment, offset).lanewise(VectorOperators.BIT_COUNT);
    }

    private static long sum(LongVector s0, LongVector s1, LongVector s2, LongVector s3) {
        return s0.add(s1).add(s2.add(s3)).reduceLanes(VectorOperators.ADD);
    }
}
