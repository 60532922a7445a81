package io.mapsketch.kernels;

import static io.mapsketch.kernels.Layouts.ORDER;
import static io.mapsketch.kernels.RegisterOps.ABOVE_TOP;
import static io.mapsketch.kernels.RegisterOps.AT_TOP;
import static io.mapsketch.kernels.RegisterOps.POWER_SUM;
import static io.mapsketch.kernels.RegisterOps.ZEROS;

import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API register summary ({@link RegisterOps#summary}), by table lookups into byte counters.
 *
 * <p>Within a few thousand registers of a HyperLogLog sketch the non-zero values span a narrow range.
 * The registers are read in chunks of {@value #CHUNK_VECTORS} vectors. A first scan of a chunk counts
 * its zeros and finds its smallest non-zero value {@code b} and its largest value. Then each scan of
 * the chunk (from the L1 cache) covers {@link #SPAN} values from {@code b} on, in {@link #GROUPS}
 * groups of four: a lane holding r looks up, with one byte permutation per group, the table entry at
 * {@code d = r - b}, which is {@code 2^(3 - k)} when d is the group's k-th value and 0 otherwise, and
 * adds it to the group's byte counters. Group g's total, scaled by {@code 2^(top - 4 - b - 4 g)}, is
 * its registers' share of the power sum exactly (entries for values from {@code top} on are zeroed,
 * so a negative scale only drops zero bits). A lane adds at most 8 per vector, so a counter of
 * {@value #CHUNK_VECTORS} vectors stays below 256. Values below {@code b} or beyond the span map, by
 * an unsigned minimum, to the last table entry, which is 0.
 *
 * <p>Cost per vector of 64 registers: about six operations in the first scan and thirteen in each
 * further scan; a chunk of a sketch that has seen many keys spans 15 to 20 values, mostly one scan.
 */
final class VectorRegisterSummary {

    private static final VectorSpecies<Byte> BYTES = VectorKernels.BYTES;
    private static final int STEP = BYTES.vectorByteSize();
    /** Vectors per chunk: a byte counter gains at most 8 per vector and must stay below 256. */
    private static final int CHUNK_VECTORS = 31;

    private static final int CHUNK_BYTES = CHUNK_VECTORS * STEP;
    private static final int GROUP_VALUES = 4;
    /** Tables per scan. */
    private static final int TABLE_COUNT = 5;
    /** Groups per scan: five, fewer when a vector has too few lanes to index them (the last lane is 0). */
    private static final int GROUPS = Math.min(TABLE_COUNT, (BYTES.length() - 1) / GROUP_VALUES);
    /** Register values covered by one scan. */
    private static final int SPAN = GROUPS * GROUP_VALUES;

    private static final ByteVector[] TABLES = tables();
    private static final ByteVector INDEX =
            (ByteVector) BYTES.iotaShuffle(0, 1, false).toVector();

    private VectorRegisterSummary() {}

    private static ByteVector[] tables() {
        ByteVector[] tables = new ByteVector[TABLE_COUNT];
        for (int g = 0; g < tables.length; g++) {
            byte[] table = new byte[BYTES.length()];
            for (int k = 0; g < GROUPS && k < GROUP_VALUES; k++) {
                table[GROUP_VALUES * g + k] = (byte) (1 << (GROUP_VALUES - 1 - k));
            }
            tables[g] = ByteVector.fromArray(BYTES, table, 0);
        }
        return tables;
    }

    /** Sets the summary of {@code count} registers from {@code offset} to {@code offset + count & -STEP}. */
    static void summarise(MemorySegment registers, long offset, long count, int top, long[] summary) {
        long bound = count & -STEP;
        long zeros = 0;
        long powerSum = 0;
        long atTop = 0;
        long above = 0;
        for (long start = 0; start < bound; start += CHUNK_BYTES) {
            long from = offset + start;
            int length = (int) Math.min(CHUNK_BYTES, bound - start);
            ByteVector one = ByteVector.broadcast(BYTES, (byte) 1);
            ByteVector zeroCounts = ByteVector.zero(BYTES);
            ByteVector lowMinusOne = ByteVector.broadcast(BYTES, (byte) -1);
            ByteVector high = ByteVector.zero(BYTES);
            for (int i = 0; i < length; i += STEP) {
                ByteVector v = ByteVector.fromMemorySegment(BYTES, registers, from + i, ORDER);
                zeroCounts = zeroCounts.add(one, v.eq((byte) 0));
                lowMinusOne = lowMinusOne.lanewise(VectorOperators.UMIN, v.sub((byte) 1));
                high = high.lanewise(VectorOperators.UMAX, v);
            }
            zeros += sumOfBytes(zeroCounts);
            int low = VectorRegisterOps.unsignedReduction(lowMinusOne, VectorOperators.MIN) + 1;
            int largest = VectorRegisterOps.unsignedReduction(high, VectorOperators.MAX);
            if (largest >= top) {
                atTop += count(registers, from, length, VectorOperators.EQ, top);
                above += count(registers, from, length, VectorOperators.UGT, top);
            }
            for (int base = low; base < Math.min(largest + 1, top); base += SPAN) {
                powerSum += scan(registers, from, length, base, top);
            }
        }
        summary[ZEROS] = zeros;
        summary[AT_TOP] = atTop;
        summary[ABOVE_TOP] = above;
        summary[POWER_SUM] = powerSum;
    }

    /**
     * The power sum of the chunk's registers with values in {@code [base, min(base + SPAN, top))}.
     * Scalars in and out: C2 does not inline this method into the chunk loop, and a vector that
     * crosses a call that is not inlined is boxed on the heap, so the counters are summed here.
     */
    private static long scan(MemorySegment registers, long from, int length, int base, int top) {
        VectorMask<Byte> pastTop = INDEX.compare(VectorOperators.GE, (byte) Math.min(top - base, BYTES.length()));
        ByteVector t0 = TABLES[0].blend(0, pastTop);
        ByteVector t1 = TABLES[1].blend(0, pastTop);
        ByteVector t2 = TABLES[2].blend(0, pastTop);
        ByteVector t3 = TABLES[3].blend(0, pastTop);
        ByteVector t4 = TABLES[4].blend(0, pastTop);
        byte last = (byte) (BYTES.length() - 1);
        ByteVector c0 = ByteVector.zero(BYTES);
        ByteVector c1 = c0;
        ByteVector c2 = c0;
        ByteVector c3 = c0;
        ByteVector c4 = c0;
        for (int i = 0; i < length; i += STEP) {
            ByteVector d = ByteVector.fromMemorySegment(BYTES, registers, from + i, ORDER)
                    .sub((byte) base)
                    .lanewise(VectorOperators.UMIN, last);
            c0 = c0.add(d.selectFrom(t0));
            c1 = c1.add(d.selectFrom(t1));
            c2 = c2.add(d.selectFrom(t2));
            c3 = c3.add(d.selectFrom(t3));
            c4 = c4.add(d.selectFrom(t4));
        }
        int scale = top - GROUP_VALUES - base;
        return scaled(sumOfBytes(c0), scale)
                + scaled(sumOfBytes(c1), scale - GROUP_VALUES)
                + scaled(sumOfBytes(c2), scale - 2 * GROUP_VALUES)
                + scaled(sumOfBytes(c3), scale - 3 * GROUP_VALUES)
                + scaled(sumOfBytes(c4), scale - 4 * GROUP_VALUES);
    }

    /**
     * {@code sum * 2^exponent}; a negative exponent drops only zero bits here (every table entry that
     * counts is a multiple of the scale).
     */
    private static long scaled(long sum, int exponent) {
        return exponent >= 0 ? sum << exponent : sum >>> -exponent;
    }

    private static long count(
            MemorySegment registers, long from, int length, VectorOperators.Comparison comparison, int top) {
        long n = 0;
        for (int i = 0; i < length; i += STEP) {
            n += ByteVector.fromMemorySegment(BYTES, registers, from + i, ORDER)
                    .compare(comparison, (byte) top)
                    .trueCount();
        }
        return n;
    }

    /**
     * Sums byte counters of at most 248: pairs into 16-bit lanes, whose sum (at most 64 x 248) cannot
     * overflow a {@code short}.
     */
    private static long sumOfBytes(ByteVector counters) {
        ShortVector halves = counters.reinterpretAsShorts();
        return halves.and((short) 0xFF)
                .add(halves.lanewise(VectorOperators.LSHR, Byte.SIZE))
                .reduceLanes(VectorOperators.ADD);
    }
}
