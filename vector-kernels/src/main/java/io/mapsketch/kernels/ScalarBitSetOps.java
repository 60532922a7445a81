package io.mapsketch.kernels;

import static io.mapsketch.kernels.Layouts.LONG;

import java.lang.foreign.MemorySegment;

/**
 * The scalar reference for {@link BitSetOps}: one 64-bit word per step, which C2 compiles to
 * unrolled loads, a logic instruction or {@code popcnt}, and stores.
 */
final class ScalarBitSetOps implements BitSetOps {

    @Override
    public void or(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long words) {
        long bytes = words << 3;
        for (long i = 0; i < bytes; i += Long.BYTES) {
            dst.set(LONG, dstOffset + i, dst.get(LONG, dstOffset + i) | src.get(LONG, srcOffset + i));
        }
    }

    @Override
    public void and(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long words) {
        long bytes = words << 3;
        for (long i = 0; i < bytes; i += Long.BYTES) {
            dst.set(LONG, dstOffset + i, dst.get(LONG, dstOffset + i) & src.get(LONG, srcOffset + i));
        }
    }

    @Override
    public void xor(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long words) {
        long bytes = words << 3;
        for (long i = 0; i < bytes; i += Long.BYTES) {
            dst.set(LONG, dstOffset + i, dst.get(LONG, dstOffset + i) ^ src.get(LONG, srcOffset + i));
        }
    }

    @Override
    public void andNot(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long words) {
        long bytes = words << 3;
        for (long i = 0; i < bytes; i += Long.BYTES) {
            dst.set(LONG, dstOffset + i, dst.get(LONG, dstOffset + i) & ~src.get(LONG, srcOffset + i));
        }
    }

    @Override
    public long popcount(MemorySegment a, long aOffset, long words) {
        long bytes = words << 3;
        long count = 0;
        for (long i = 0; i < bytes; i += Long.BYTES) {
            count += Long.bitCount(a.get(LONG, aOffset + i));
        }
        return count;
    }

    @Override
    public long popcountAnd(MemorySegment a, long aOffset, MemorySegment b, long bOffset, long words) {
        long bytes = words << 3;
        long count = 0;
        for (long i = 0; i < bytes; i += Long.BYTES) {
            count += Long.bitCount(a.get(LONG, aOffset + i) & b.get(LONG, bOffset + i));
        }
        return count;
    }

    @Override
    public long popcountOr(MemorySegment a, long aOffset, MemorySegment b, long bOffset, long words) {
        long bytes = words << 3;
        long count = 0;
        for (long i = 0; i < bytes; i += Long.BYTES) {
            count += Long.bitCount(a.get(LONG, aOffset + i) | b.get(LONG, bOffset + i));
        }
        return count;
    }
}
