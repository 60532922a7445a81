package io.mapsketch.frequency;

import io.mapsketch.internal.DoubleHashing;
import io.mapsketch.kernels.CounterKernels;
import io.mapsketch.memory.AtomicSegment;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * The counters of a Count-Min sketch: {@code depth} rows of {@code width} unsigned 32- or 64-bit
 * counters, each row starting at a multiple of the row stride. Counters saturate at their largest
 * value and never wrap. A {@code shared} matrix changes counters by compare-and-set, so concurrent
 * adds from threads and processes compose exactly; otherwise plain loads and stores.
 *
 * <p>The counter width is chosen once, at creation, by the subclass ({@link Ints} or {@link Longs}):
 * the per-counter paths carry no width branch, and plain loads and stores go straight to the
 * segment (held in a final field) without a per-access alignment check, since every offset this
 * class computes is a multiple of the counter width by construction.
 */
abstract sealed class CounterMatrix permits CounterMatrix.Ints, CounterMatrix.Longs {

    private static final long MAX_32 = 0xFFFF_FFFFL;

    final AtomicSegment payload;
    final MemorySegment segment;
    private final int width;
    private final int depth;
    private final long rowStride;
    private final boolean shared;

    private CounterMatrix(AtomicSegment payload, int width, int depth, int counterBytes, boolean shared) {
        this.payload = payload;
        this.segment = payload.segment();
        this.width = width;
        this.depth = depth;
        this.rowStride = rowStride(width, counterBytes);
        this.shared = shared;
    }

    /** The matrix for counters of {@code counterBytes} (4 or 8) bytes over {@code payload}. */
    static CounterMatrix of(AtomicSegment payload, int width, int depth, int counterBytes, boolean shared) {
        return counterBytes == Integer.BYTES
                ? new Ints(payload, width, depth, shared)
                : new Longs(payload, width, depth, shared);
    }

    /** Bytes from one row to the next: the row's counters rounded up to whole 64-byte lines. */
    static long rowStride(int width, int counterBytes) {
        return Math.ceilDiv((long) width * counterBytes, 64) * 64;
    }

    /** The counter width in bytes: 4 or 8. */
    abstract int counterBytes();

    /** Reads a counter as an unsigned value in a long (plain load). */
    abstract long load(long offset);

    /** Stores a counter (plain store); {@code value} fits the counter width, unsigned. */
    abstract void store(long offset, long value);

    abstract long loadAcquire(long offset);

    abstract boolean compareAndSet(long offset, long expected, long value);

    /** Adds {@code counters} counters of {@code theirs} from byte {@code from} to {@code mine}'s from byte {@code into}, saturating: the SIMD kernel. */
    abstract void addAllKernel(MemorySegment mine, long into, MemorySegment theirs, long from, long counters);

    /** Byte offset of the counter a probe value {@code x} picks in {@code row}. */
    final long offset(int row, long x) {
        return row * rowStride + DoubleHashing.reduce(x, width) * counterBytes();
    }

    /** Byte offset of counter {@code column} of {@code row}, both in range. */
    final long columnOffset(int row, long column) {
        return row * rowStride + column * counterBytes();
    }

    /** Reads counter {@code column} of {@code row}, unsigned. */
    final long counter(int row, long column) {
        Objects.checkIndex(row, depth);
        Objects.checkIndex(column, width);
        return load(columnOffset(row, column));
    }

    /** Counts the counters whose value (unsigned) is at least {@code threshold}: one pass of acquire loads. */
    final long countAtLeast(long threshold) {
        int bytes = counterBytes();
        long count = 0;
        for (int row = 0; row < depth; row++) {
            for (long column = 0; column < width; column++) {
                if (Long.compareUnsigned(loadAcquire(row * rowStride + column * bytes), threshold) >= 0) {
                    count++;
                }
            }
        }
        return count;
    }

    /**
     * {@code value + amount}, or the largest counter value if that is more: never wraps. {@code value}
     * is a counter's value (unsigned), {@code amount} in [1, 2^63 - 1]. Branch-free, so that a row
     * loop compiles to conditional moves.
     */
    abstract long saturatingAdd(long value, long amount);

    /** Adds {@code count} to a counter, saturating; returns its new value. */
    final long add(long offset, long count) {
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
    final void addAll(CounterMatrix other) {
        addRange(0, other, 0, (long) depth * rowStride);
    }

    /**
     * Adds the counters of {@code other}'s bytes {@code [from, from + length)} to this matrix's from byte
     * {@code into}, saturating: one sketch of a table into another's (same shape). The SIMD kernel, or CAS
     * of each non-zero counter when shared.
     */
    final void addRange(long into, CounterMatrix other, long from, long length) {
        int bytes = counterBytes();
        if (!shared) {
            addAllKernel(segment, into, other.segment, from, length / bytes);
            return;
        }
        for (long offset = 0; offset < length; offset += bytes) {
            long value = other.load(from + offset);
            if (value != 0) {
                add(into + offset, value);
            }
        }
    }

    /**
     * Adds {@code weight} times every counter of {@code other} (same shape) to this matrix, saturating;
     * the caller has checked that {@code weight} times the other's N, the largest of its counters, stays
     * below 2^63. One pass, counter by counter (CAS when shared); weight 1 is {@link #addAll}.
     */
    final void addAllTimes(CounterMatrix other, long weight) {
        addRangeTimes(0, other, 0, (long) depth * rowStride, weight);
    }

    /**
     * Adds {@code weight} times the counters of {@code other}'s bytes {@code [from, from + length)} to this
     * matrix's from byte {@code into}, saturating, as {@link #addAllTimes} adds a whole matrix: one sketch of
     * a table into another's. Weight 1 is {@link #addRange}.
     */
    final void addRangeTimes(long into, CounterMatrix other, long from, long length, long weight) {
        if (weight == 1) {
            addRange(into, other, from, length);
            return;
        }
        int bytes = counterBytes();
        for (long offset = 0; offset < length; offset += bytes) {
            long value = other.load(from + offset);
            if (value != 0) {
                add(into + offset, value * weight);
            }
        }
    }

    static long unsignedMin(long a, long b) {
        return Long.compareUnsigned(a, b) <= 0 ? a : b;
    }

    /** Unsigned 32-bit counters. */
    static final class Ints extends CounterMatrix {

        private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

        Ints(AtomicSegment payload, int width, int depth, boolean shared) {
            super(payload, width, depth, Integer.BYTES, shared);
        }

        @Override
        int counterBytes() {
            return Integer.BYTES;
        }

        @Override
        long saturatingAdd(long value, long amount) {
            return Math.min(value + Math.min(amount, MAX_32), MAX_32);
        }

        @Override
        long load(long offset) {
            return Integer.toUnsignedLong(segment.get(INT, offset));
        }

        @Override
        void store(long offset, long value) {
            segment.set(INT, offset, (int) value);
        }

        @Override
        long loadAcquire(long offset) {
            return Integer.toUnsignedLong(payload.getIntAcquire(offset));
        }

        @Override
        boolean compareAndSet(long offset, long expected, long value) {
            return payload.compareAndSetInt(offset, (int) expected, (int) value);
        }

        @Override
        void addAllKernel(MemorySegment mine, long into, MemorySegment theirs, long from, long counters) {
            CounterKernels.addSaturatingUnsignedInts(mine, into, theirs, from, counters);
        }
    }

    /** Unsigned 64-bit counters. */
    static final class Longs extends CounterMatrix {

        private static final ValueLayout.OfLong LONG =
                ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

        Longs(AtomicSegment payload, int width, int depth, boolean shared) {
            super(payload, width, depth, Long.BYTES, shared);
        }

        @Override
        int counterBytes() {
            return Long.BYTES;
        }

        @Override
        long saturatingAdd(long value, long amount) {
            long sum = value + amount;
            return Long.compareUnsigned(sum, value) < 0 ? -1L : sum;
        }

        @Override
        long load(long offset) {
            return segment.get(LONG, offset);
        }

        @Override
        void store(long offset, long value) {
            segment.set(LONG, offset, value);
        }

        @Override
        long loadAcquire(long offset) {
            return payload.getLongAcquire(offset);
        }

        @Override
        boolean compareAndSet(long offset, long expected, long value) {
            return payload.compareAndSetLong(offset, expected, value);
        }

        @Override
        void addAllKernel(MemorySegment mine, long into, MemorySegment theirs, long from, long counters) {
            CounterKernels.addSaturatingUnsignedLongs(mine, into, theirs, from, counters);
        }
    }
}
