package io.mapsketch.kernels;

import static io.mapsketch.kernels.Layouts.ORDER;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vector API twin of {@link ScalarRegisterOps}. Merges use the unsigned lane-wise
 * {@link VectorOperators#UMAX} and {@link VectorOperators#UMIN}.
 *
 * <p>The histogram has no scatter to lean on, so it exploits what HyperLogLog registers look
 * like: within a few thousand registers the values span a narrow range. It reads the registers in
 * chunks of {@value #CHUNK_VECTORS} vectors; a first scan of a chunk finds its smallest and largest
 * value, then scans of the chunk (from the L1 cache), each for four values of that range, count the
 * matching lanes into byte counters, which cannot overflow because a lane sees at most
 * {@value #CHUNK_VECTORS} matches. The cost is one pass over memory plus, per chunk, one cheap scan
 * per four values in its range.
 *
 * <p>The summary is {@link VectorRegisterSummary}'s.
 */
final class VectorRegisterOps implements RegisterOps {

    /** Vectors per histogram chunk: eight byte counters of at most 31 each sum to less than 256. */
    private static final int CHUNK_VECTORS = 31;

    private static final long LOW_BYTES = 0x0101_0101_0101_0101L;
    private static final int MAX_COUNTED = HISTOGRAM_LENGTH - 1;

    private static final VectorSpecies<Byte> BYTES = VectorKernels.BYTES;
    private static final VectorSpecies<Long> LONGS = VectorKernels.LONGS;
    private static final int STEP = BYTES.vectorByteSize();
    private static final ScalarRegisterOps TAIL = new ScalarRegisterOps();

    @Override
    public void maxUnsignedBytes(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long registers) {
        long bound = registers & -STEP;
        long i = 0;
        for (; i < bound; i += STEP) {
            ByteVector a = ByteVector.fromMemorySegment(BYTES, dst, dstOffset + i, ORDER);
            ByteVector b = ByteVector.fromMemorySegment(BYTES, src, srcOffset + i, ORDER);
            a.lanewise(VectorOperators.UMAX, b).intoMemorySegment(dst, dstOffset + i, ORDER);
        }
        TAIL.maxUnsignedBytes(dst, dstOffset + i, src, srcOffset + i, registers - i);
    }

    @Override
    public long firstRaised(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long registers) {
        long bound = registers & -STEP;
        for (long i = 0; i < bound; i += STEP) {
            VectorMask<Byte> raised = ByteVector.fromMemorySegment(BYTES, src, srcOffset + i, ORDER)
                    .compare(VectorOperators.UGT, ByteVector.fromMemorySegment(BYTES, dst, dstOffset + i, ORDER));
            if (raised.anyTrue()) {
                return i + raised.firstTrue();
            }
        }
        return bound + TAIL.firstRaised(dst, dstOffset + bound, src, srcOffset + bound, registers - bound);
    }

    @Override
    public int firstEntryOf(MemorySegment words, long offset, int count, int entryBits, int register) {
        int perWord = Long.SIZE / entryBits;
        long mask = (1L << entryBits) - 1;
        long held = (long) register << RegisterKernels.ENTRY_VALUE_BITS;
        long registerBits = mask & -(1L << RegisterKernels.ENTRY_VALUE_BITS);
        int bound = count & -LONGS.length();
        for (int w = 0; w < bound; w += LONGS.length()) {
            LongVector lanes = LongVector.fromMemorySegment(LONGS, words, offset + (long) Long.BYTES * w, ORDER);
            int first = Integer.MAX_VALUE;
            for (int j = 0; j < perWord; j++) {
                LongVector entries =
                        lanes.lanewise(VectorOperators.LSHR, j * entryBits).lanewise(VectorOperators.AND, mask);
                VectorMask<Long> found = entries.compare(VectorOperators.EQ, 0)
                        .or(entries.lanewise(VectorOperators.AND, registerBits).compare(VectorOperators.EQ, held));
                if (found.anyTrue()) {
                    first = Math.min(first, found.firstTrue() * perWord + j);
                }
            }
            if (first != Integer.MAX_VALUE) {
                return w * perWord + first;
            }
        }
        return bound * perWord
                + TAIL.firstEntryOf(words, offset + (long) Long.BYTES * bound, count - bound, entryBits, register);
    }

    @Override
    public void minUnsignedLongs(MemorySegment dst, long dstOffset, MemorySegment src, long srcOffset, long values) {
        long bytes = values << 3;
        long bound = bytes & -STEP;
        long i = 0;
        for (; i < bound; i += STEP) {
            LongVector a = LongVector.fromMemorySegment(LONGS, dst, dstOffset + i, ORDER);
            LongVector b = LongVector.fromMemorySegment(LONGS, src, srcOffset + i, ORDER);
            a.lanewise(VectorOperators.UMIN, b).intoMemorySegment(dst, dstOffset + i, ORDER);
        }
        TAIL.minUnsignedLongs(dst, dstOffset + i, src, srcOffset + i, (bytes - i) >>> 3);
    }

    @Override
    public long histogram(MemorySegment registers, long offset, long count, long[] counts) {
        Arrays.fill(counts, 0, HISTOGRAM_LENGTH, 0L);
        long bound = count & -STEP;
        long chunkBytes = (long) CHUNK_VECTORS * STEP;
        for (long start = 0; start < bound; start += chunkBytes) {
            long end = Math.min(bound, start + chunkBytes);
            ByteVector low = ByteVector.broadcast(BYTES, (byte) -1);
            ByteVector high = ByteVector.zero(BYTES);
            for (long i = start; i < end; i += STEP) {
                ByteVector v = ByteVector.fromMemorySegment(BYTES, registers, offset + i, ORDER);
                low = low.lanewise(VectorOperators.UMIN, v);
                high = high.lanewise(VectorOperators.UMAX, v);
            }
            int min = unsignedReduction(low, VectorOperators.MIN);
            int max = Math.min(unsignedReduction(high, VectorOperators.MAX), MAX_COUNTED);
            int value = min;
            for (; value + 3 <= max; value += 4) {
                countFourInChunk(registers, offset + start, offset + end, value, counts);
            }
            for (; value <= max; value++) {
                counts[value] += countInChunk(registers, offset + start, offset + end, (byte) value);
            }
        }
        ScalarRegisterOps.accumulateHistogram(registers, offset + bound, count - bound, counts);
        return ScalarRegisterOps.registersAboveHistogram(count, counts);
    }

    @Override
    public void summary(MemorySegment registers, long offset, long count, int top, long[] summary) {
        VectorRegisterSummary.summarise(registers, offset, count, top, summary);
        long bound = count & -STEP;
        ScalarRegisterOps.accumulateSummary(registers, offset + bound, count - bound, top, summary);
    }

    /**
     * Reduces unsigned bytes with the signed {@code MIN} or {@code MAX}, which C2 compiles to vector
     * instructions for byte lanes: flipping the sign bit maps unsigned order onto signed order.
     */
    static int unsignedReduction(ByteVector v, VectorOperators.Associative signedOp) {
        return (v.lanewise(VectorOperators.XOR, Byte.MIN_VALUE).reduceLanes(signedOp) ^ Byte.MIN_VALUE) & 0xFF;
    }

    private static long countInChunk(MemorySegment registers, long from, long to, byte value) {
        ByteVector one = ByteVector.broadcast(BYTES, (byte) 1);
        ByteVector matches = ByteVector.zero(BYTES);
        for (long i = from; i < to; i += STEP) {
            matches = matches.add(
                    one,
                    ByteVector.fromMemorySegment(BYTES, registers, i, ORDER).eq(value));
        }
        return sumOfByteLanes(matches);
    }

    /** Adds the counts of {@code value} to {@code value + 3} in one scan of the chunk. */
    private static void countFourInChunk(MemorySegment registers, long from, long to, int value, long[] counts) {
        ByteVector one = ByteVector.broadcast(BYTES, (byte) 1);
        ByteVector m0 = ByteVector.zero(BYTES);
        ByteVector m1 = ByteVector.zero(BYTES);
        ByteVector m2 = ByteVector.zero(BYTES);
        ByteVector m3 = ByteVector.zero(BYTES);
        for (long i = from; i < to; i += STEP) {
            ByteVector v = ByteVector.fromMemorySegment(BYTES, registers, i, ORDER);
            m0 = m0.add(one, v.eq((byte) value));
            m1 = m1.add(one, v.eq((byte) (value + 1)));
            m2 = m2.add(one, v.eq((byte) (value + 2)));
            m3 = m3.add(one, v.eq((byte) (value + 3)));
        }
        counts[value] += sumOfByteLanes(m0);
        counts[value + 1] += sumOfByteLanes(m1);
        counts[value + 2] += sumOfByteLanes(m2);
        counts[value + 3] += sumOfByteLanes(m3);
    }

    /** Sums the byte lanes, each at most {@value #CHUNK_VECTORS}, eight at a time in 64-bit lanes. */
    private static long sumOfByteLanes(ByteVector counters) {
        return counters.reinterpretAsLongs()
                .mul(LOW_BYTES)
                .lanewise(VectorOperators.LSHR, 56)
                .reduceLanes(VectorOperators.ADD);
    }
}
