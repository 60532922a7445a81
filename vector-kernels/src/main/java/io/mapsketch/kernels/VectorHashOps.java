package io.mapsketch.kernels;

import static io.mapsketch.kernels.Layouts.ORDER;

import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vector API twin of {@link ScalarHashOps}: the steps of {@link Xxh3#hash} on every lane at once
 * (rotations, shifts, XORs and the low 64 bits of two multiplications), the last partial vector's
 * keys by the scalar reference.
 */
final class VectorHashOps implements HashOps {

    private static final VectorSpecies<Long> S = VectorKernels.LONGS;
    private static final int LANES = S.length();
    private static final int STEP = S.vectorByteSize();
    private static final ScalarHashOps TAIL = new ScalarHashOps();

    @Override
    public void xxh3(long seed, long[] keys, int keysFrom, long[] hashes, int hashesFrom, int count) {
        long bitflip = Xxh3.bitflip(seed);
        int bound = count & -LANES;
        int i = 0;
        for (; i < bound; i += LANES) {
            hash(LongVector.fromArray(S, keys, keysFrom + i), bitflip).intoArray(hashes, hashesFrom + i);
        }
        TAIL.xxh3(seed, keys, keysFrom + i, hashes, hashesFrom + i, count - i);
    }

    @Override
    public void xxh3(
            long seed, MemorySegment keys, long keysOffset, MemorySegment hashes, long hashesOffset, long count) {
        long bitflip = Xxh3.bitflip(seed);
        long bytes = count << 3;
        long bound = bytes & -STEP;
        long i = 0;
        for (; i < bound; i += STEP) {
            hash(LongVector.fromMemorySegment(S, keys, keysOffset + i, ORDER), bitflip)
                    .intoMemorySegment(hashes, hashesOffset + i, ORDER);
        }
        TAIL.xxh3(seed, keys, keysOffset + i, hashes, hashesOffset + i, (bytes - i) >>> 3);
    }

    private static LongVector hash(LongVector keys, long bitflip) {
        LongVector x = keys.lanewise(VectorOperators.ROL, 32).lanewise(VectorOperators.XOR, bitflip);
        x = x.lanewise(
                VectorOperators.XOR,
                x.lanewise(VectorOperators.ROL, 49).lanewise(VectorOperators.XOR, x.lanewise(VectorOperators.ROL, 24)));
        x = x.mul(Xxh3.MULTIPLIER);
        x = x.lanewise(VectorOperators.XOR, x.lanewise(VectorOperators.LSHR, 35).add(Xxh3.LENGTH));
        x = x.mul(Xxh3.MULTIPLIER);
        return x.lanewise(VectorOperators.XOR, x.lanewise(VectorOperators.LSHR, 28));
    }
}
