package io.mapsketch.engine;

import io.mapsketch.kernels.CounterKernels;
import io.mapsketch.memory.AtomicSegment;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The counters of a Count-Min sketch: {@code depth} rows of {@code width} unsigned 32- or 64-bit
 * counters, each row starting at a multiple of the row stride. Counters saturate at their largest
 * value and never wrap. A {@code shared} matrix changes counters by compare-and-set, so concurrent
 * adds from threads and processes compose exactly; otherwise plain loads and stores.
 */
final class CounterMatrix {

    private static final long MAX_32 = 0xFFFF_FFFFL;

    private final AtomicSegment payload;
    private final int width;
    private final int depth;
    private final int counterBytes;
    private final long rowStride;
    private final boolean shared;
    /** The largest counter value, unsigned: 2^32 - 1 or 2^64 - 1 (-1L). */
    private final long counterMax;

    CounterMatrix(AtomicSegment payload, int width, int depth, int counterBytes, boolean shared) {
        this.payload = payload;
        this.width = width;
        this.depth = depth;
        this.counterBytes = counterBytes;
        this.rowStride = rowStride(width, counterBytes);
        this.shared = shared;
        this.counterMax = counterBytes == Integer.BYTES ? MAX_32 : -1L;
    }

    /** Bytes from one row to the next: the row's counters rounded up to whole 64-byte lines. */
    static long rowStride(int width, int counterBytes) {
        return Math.ceilDiv((long) width * counterBytes, 64) * 64;
    }

    /** The largest counter value, as an unsigned long. */
    long counterMax() {
        return counterMax;
    }

    /** Byte offset of the counter a probe value {@code x} picks in {@code row}. */
    long offset(int row, long x) {
        return row * rowStride + DoubleHashing.reduce(x, width) * counterBytes;
    }

    /** Reads counter {@code column} of {@code row}, unsigned. */
    long counter(int row, long column) {
        Objects.checkIndex(row, depth);
        Objects.checkIndex(column, width);
        return load(row * rowStride + column * counterBytes);
    }

    /** Reads a counter as an unsigned value in a long. */
    long load(long offset) {
        return counterBytes == Integer.BYTES ? Integer.toUnsignedLong(payload.getInt(offset)) : payload.getLong(offset);
    }

    private long loadAcquire(long offset) {
        return counterBytes == Integer.BYTES
                ? Integer.toUnsignedLong(payload.getIntAcquire(offset))
                : payload.getLongAcquire(offset);
    }

    void store(long offset, long value) {
        if (counterBytes == Integer.BYTES) {
            payload.putInt(offset, (int) value);
        } else {
            payload.putLong(offset, value);
        }
    }

    boolean compareAndSet(long offset, long expected, long value) {
        return counterBytes == Integer.BYTES
                ? payload.compareAndSetInt(offset, (int) expected, (int) value)
                : payload.compareAndSetLong(offset, expected, value);
    }

    /** {@code min(value + amount, counterMax)}, both read as unsigned; never wraps. */
    long saturatingAdd(long value, long amount) {
        long sum = value + amount;
        if (Long.compareUnsigned(sum, value) < 0 || Long.compareUnsigned(sum, counterMax) > 0) {
            return counterMax;
        }
        return sum;
    }

    /** Adds {@code count} to a counter, saturating; returns its new value. */
    long add(long offset, long count) {
        if (!shared) {
            long updated = saturatingAdd(load(offset), count);
            store(offset, updated);
            return updated;
        }
        long current = load(offset);
        while (true) {
            long updated = saturatingAdd(current, count);
            if (updated == current || compareAndSet(offset, current, updated)) {
                return updated;
            }
            current = loadAcquire(offset);
        }
    }

    /** Adds every counter of {@code other} (same shape) to this matrix: the SIMD kernel, or CAS when shared. */
    void addAll(CounterMatrix other) {
        long counters = (long) depth * rowStride / counterBytes;
        if (!shared) {
            MemorySegment mine = payload.segment();
            MemorySegment theirs = other.payload.segment();
            if (counterBytes == Integer.BYTES) {
                CounterKernels.addSaturatingUnsignedInts(mine, 0, theirs, 0, counters);
            } else {
                CounterKernels.addSaturatingUnsignedLongs(mine, 0, theirs, 0, counters);
            }
            return;
        }
        for (long offset = 0; offset < counters * counterBytes; offset += counterBytes) {
            long value = other.load(offset);
            if (value != 0) {
                add(offset, value);
            }
        }
    }

    static long unsignedMin(long a, long b) {
        return Long.compareUnsigned(a, b) <= 0 ? a : b;
    }
}
