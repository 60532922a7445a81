package io.mapsketch.kernels;

import static io.mapsketch.kernels.Layouts.BYTE;
import static io.mapsketch.kernels.Layouts.LONG;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The scalar reference for {@link RegisterOps}. The byte maximum works on eight registers per
 * 64-bit word with a branch-free SWAR compare, since a plain per-byte {@code Math.max} loop runs at
 * a fraction of a gigabyte per second on HotSpot; the 64-bit minimum is branch-free; the histogram
 * reads eight registers per load. The summary is the plain definition, one register at a time.
 */
final class ScalarRegisterOps implements RegisterOps {

    private static final long HIGH_BITS = 0x8080_8080_8080_8080L;
    private static final int MAX_COUNTED = HISTOGRAM_LENGTH - 1;

    @Override
    public void maxUnsignedBytes(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long registers) {
        long words = registers & -Long.BYTES;
        long i = 0;
        for (; i < words; i += Long.BYTES) {
            dst.set(LONG, dstOffset + i, maxOfBytes(dst.get(LONG, dstOffset + i), src.get(LONG, srcOffset + i)));
        }
        for (; i < registers; i++) {
            int a = dst.get(BYTE, dstOffset + i) & 0xFF;
            int b = src.get(BYTE, srcOffset + i) & 0xFF;
            dst.set(BYTE, dstOffset + i, (byte) Math.max(a, b));
        }
    }

    @Override
    public long firstRaised(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long registers) {
        for (long i = 0; i < registers; i++) {
            if ((src.get(BYTE, srcOffset + i) & 0xFF) > (dst.get(BYTE, dstOffset + i) & 0xFF)) {
                return i;
            }
        }
        return registers;
    }

    @Override
    public int firstEntryOf(MemorySegment words, long offset, int count, int entryBits, int register) {
        int perWord = Long.SIZE / entryBits;
        long mask = (1L << entryBits) - 1;
        for (int w = 0; w < count; w++) {
            long word = words.get(LONG, offset + (long) Long.BYTES * w);
            for (int j = 0; j < perWord; j++) {
                long entry = word >>> (j * entryBits) & mask;
                if (entry == 0 || entry >>> RegisterKernels.ENTRY_VALUE_BITS == register) {
                    return w * perWord + j;
                }
            }
        }
        return count * perWord;
    }

    /**
     * Returns, for each of the eight bytes, the larger of the two unsigned bytes. Bit 7 of
     * {@code (a | H) - (b & ~H)} tells whether the low seven bits of {@code a} are at least those of
     * {@code b} (no borrow crosses a byte); the top bits decide where they differ.
     */
    static long maxOfBytes(long a, long b) {
        long lowGreaterOrEqual = (a | HIGH_BITS) - (b & ~HIGH_BITS);
        long greaterOrEqual = ((a & ~b) | (~(a ^ b) & lowGreaterOrEqual)) & HIGH_BITS;
        long mask = (greaterOrEqual >>> 7) * 0xFF;
        return (a & mask) | (b & ~mask);
    }

    @Override
    public void minUnsignedLongs(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long values) {
        long bytes = values << 3;
        for (long i = 0; i < bytes; i += Long.BYTES) {
            long a = dst.get(LONG, dstOffset + i) + Long.MIN_VALUE;
            long b = src.get(LONG, srcOffset + i) + Long.MIN_VALUE;
            dst.set(LONG, dstOffset + i, Math.min(a, b) - Long.MIN_VALUE);
        }
    }

    @Override
    public long histogram(MemorySegment registers, long offset, long count, long[] counts) {
        Arrays.fill(counts, 0, HISTOGRAM_LENGTH, 0L);
        accumulateHistogram(registers, offset, count, counts);
        return registersAboveHistogram(count, counts);
    }

    /** Adds the registers' values 0..64 to {@code counts}, ignoring larger values. */
    static void accumulateHistogram(MemorySegment registers, long offset, long count, long[] counts) {
        long words = count & -Long.BYTES;
        long i = 0;
        for (; i < words; i += Long.BYTES) {
            long eight = registers.get(LONG, offset + i);
            for (int shift = 0; shift < Long.SIZE; shift += Byte.SIZE) {
                int value = (int) (eight >>> shift) & 0xFF;
                if (value <= MAX_COUNTED) {
                    counts[value]++;
                }
            }
        }
        for (; i < count; i++) {
            int value = registers.get(BYTE, offset + i) & 0xFF;
            if (value <= MAX_COUNTED) {
                counts[value]++;
            }
        }
    }

    @Override
    public void summary(MemorySegment registers, long offset, long count, int top, long[] summary) {
        Arrays.fill(summary, 0, SUMMARY_LENGTH, 0L);
        accumulateSummary(registers, offset, count, top, summary);
    }

    /** Adds the summary of the registers to {@code summary} (the power sum modulo 2^64). */
    static void accumulateSummary(MemorySegment registers, long offset, long count, int top, long[] summary) {
        long zeros = 0;
        long atTop = 0;
        long aboveTop = 0;
        long powerSum = 0;
        for (long i = 0; i < count; i++) {
            int value = registers.get(BYTE, offset + i) & 0xFF;
            if (value == 0) {
                zeros++;
            } else if (value < top) {
                powerSum += 1L << (top - 1 - value);
            } else if (value == top) {
                atTop++;
            } else {
                aboveTop++;
            }
        }
        summary[ZEROS] += zeros;
        summary[AT_TOP] += atTop;
        summary[ABOVE_TOP] += aboveTop;
        summary[POWER_SUM] += powerSum;
    }

    /** Returns how many of {@code count} registers the histogram did not count (values above 64). */
    static long registersAboveHistogram(long count, long[] counts) {
        long counted = 0;
        for (int value = 0; value < HISTOGRAM_LENGTH; value++) {
            counted += counts[value];
        }
        return count - counted;
    }
}
