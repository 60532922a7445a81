package io.mapsketch.kernels;

import static io.mapsketch.kernels.Layouts.INT;
import static io.mapsketch.kernels.Layouts.LONG;

import java.lang.foreign.MemorySegment;

/**
 * The scalar reference for {@link CounterOps}, branch-free so that its speed does not depend on how
 * many counters saturate: a 32-bit sum is formed in 64 bits and clamped with a mask built from its
 * carry bit; a 64-bit sum takes its carry from the sign bits of the operands and the sum.
 */
final class ScalarCounterOps implements CounterOps {

    private static final long UINT_MASK = 0xFFFF_FFFFL;

    @Override
    public void addSaturatingInts(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long counters) {
        long bytes = counters << 2;
        for (long i = 0; i < bytes; i += Integer.BYTES) {
            long sum = (dst.get(INT, dstOffset + i) & UINT_MASK) + (src.get(INT, srcOffset + i) & UINT_MASK);
            dst.set(INT, dstOffset + i, (int) (sum | -(sum >>> 32)));
        }
    }

    @Override
    public void addSaturatingLongs(
            MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long counters) {
        long bytes = counters << 3;
        for (long i = 0; i < bytes; i += Long.BYTES) {
            long a = dst.get(LONG, dstOffset + i);
            long b = src.get(LONG, srcOffset + i);
            long sum = a + b;
            long carry = ((a & b) | ((a | b) & ~sum)) >>> 63;
            dst.set(LONG, dstOffset + i, sum | -carry);
        }
    }
}
