package io.mapsketch.kernels;

import static io.mapsketch.kernels.TestMemory.EXAMPLES;
import static io.mapsketch.kernels.TestMemory.QT_SEED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Saturating counter sums: the twins agree, and the reference saturates and never wraps. */
class CounterKernelsTest {

    private static final TestMemory.Merge INTS =
            (k, d, dOff, s, sOff, n) -> k.counters().addSaturatingInts(d, dOff, s, sOff, n);
    private static final TestMemory.Merge LONGS =
            (k, d, dOff, s, sOff, n) -> k.counters().addSaturatingLongs(d, dOff, s, sOff, n);

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(Layouts.ORDER);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(Layouts.ORDER);
    private static final BigInteger MAX_U64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    @Test
    void twinsAgreeOnGeneratedSlices() {
        qt().withFixedSeed(QT_SEED + 2)
                .withExamples(EXAMPLES)
                .forAll(TestMemory.cases())
                .checkAssert(c -> {
                    TestMemory.assertMergeTwins(c, Integer.BYTES, INTS);
                    TestMemory.assertMergeTwins(c, Long.BYTES, LONGS);
                });
    }

    @Test
    void twinsAgreeOnEveryTailLength() {
        for (TestMemory.Case c : TestMemory.everyTail()) {
            TestMemory.assertMergeTwins(c, Integer.BYTES, INTS);
            TestMemory.assertMergeTwins(c, Long.BYTES, LONGS);
        }
    }

    @Test
    void referenceSaturatesThirtyTwoBitCounters() {
        int[][] cases = {
            {1, 2, 3},
            {0x7FFF_FFFF, 1, 0x8000_0000},
            {0xFFFF_FFF0, 0x0F, 0xFFFF_FFFF},
            {0xFFFF_FFF0, 0x10, 0xFFFF_FFFF},
            {0xFFFF_FFF0, 0x20, 0xFFFF_FFFF},
            {0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF},
            {0x8000_0000, 0x8000_0000, 0xFFFF_FFFF},
            {0, 0, 0},
        };
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dst = arena.allocate(4L * cases.length);
            MemorySegment src = arena.allocate(4L * cases.length);
            for (int i = 0; i < cases.length; i++) {
                dst.set(INT, 4L * i, cases[i][0]);
                src.set(INT, 4L * i, cases[i][1]);
            }
            KernelSet.SCALAR.counters().addSaturatingInts(dst, 0, src, 0, cases.length);
            for (int i = 0; i < cases.length; i++) {
                assertEquals(
                        Integer.toUnsignedString(cases[i][2]),
                        Integer.toUnsignedString(dst.get(INT, 4L * i)),
                        "case " + i);
            }
        }
    }

    @Test
    void referenceSaturatesSixtyFourBitCounters() {
        long[][] cases = {
            {1, 2, 3},
            {Long.MAX_VALUE, 1, Long.MIN_VALUE},
            {-2, 1, -1},
            {-2, 2, -1},
            {-1, -1, -1},
            {Long.MIN_VALUE, Long.MIN_VALUE, -1},
            {0xFFFF_FFFFL, 1, 0x1_0000_0000L},
        };
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dst = arena.allocate(8L * cases.length);
            MemorySegment src = arena.allocate(8L * cases.length);
            for (int i = 0; i < cases.length; i++) {
                dst.set(LONG, 8L * i, cases[i][0]);
                src.set(LONG, 8L * i, cases[i][1]);
            }
            KernelSet.SCALAR.counters().addSaturatingLongs(dst, 0, src, 0, cases.length);
            for (int i = 0; i < cases.length; i++) {
                assertEquals(cases[i][2], dst.get(LONG, 8L * i), "case " + i);
            }
        }
    }

    @Test
    void referenceEqualsUnboundedSumClampedOnRandomCounters() {
        SplittableRandom random = new SplittableRandom(3);
        int n = 5000;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dst = arena.allocate(8L * n);
            MemorySegment src = arena.allocate(8L * n);
            long[] a = new long[n];
            long[] b = new long[n];
            for (int i = 0; i < n; i++) {
                a[i] = random.nextBoolean() ? random.nextLong() : random.nextLong() >>> random.nextInt(64);
                b[i] = random.nextBoolean() ? random.nextLong() : random.nextLong() >>> random.nextInt(64);
                dst.set(LONG, 8L * i, a[i]);
                src.set(LONG, 8L * i, b[i]);
            }
            KernelSet.SCALAR.counters().addSaturatingLongs(dst, 0, src, 0, n);
            for (int i = 0; i < n; i++) {
                BigInteger sum = unsigned(a[i]).add(unsigned(b[i])).min(MAX_U64);
                assertEquals(sum.longValue(), dst.get(LONG, 8L * i), "counter " + i);
            }
            for (int i = 0; i < 2 * n; i++) {
                dst.set(INT, 4L * i, (int) a[i / 2]);
                src.set(INT, 4L * i, (int) b[i / 2]);
            }
            KernelSet.SCALAR.counters().addSaturatingInts(dst, 0, src, 0, 2L * n);
            for (int i = 0; i < 2 * n; i++) {
                long sum = Math.min(((int) a[i / 2] & 0xFFFF_FFFFL) + ((int) b[i / 2] & 0xFFFF_FFFFL), 0xFFFF_FFFFL);
                assertEquals((int) sum, dst.get(INT, 4L * i), "counter " + i);
            }
        }
    }

    @Test
    void facadeNeverWrapsWhenAddingASliceToItself() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment counters = arena.allocate(4L * 100);
            counters.fill((byte) 0x40);
            for (int round = 0; round < 4; round++) {
                CounterKernels.addSaturatingUnsignedInts(counters, 0, counters, 0, 100);
            }
            for (int i = 0; i < 100; i++) {
                assertEquals(-1, counters.get(INT, 4L * i));
            }
            counters.fill((byte) 0);
            counters.set(LONG, 8, 0x4000_0000_0000_0000L);
            for (int round = 0; round < 2; round++) {
                CounterKernels.addSaturatingUnsignedLongs(counters, 0, counters, 0, 50);
            }
            assertEquals(-1L, counters.get(LONG, 8));
            assertEquals(0L, counters.get(LONG, 16));
        }
    }

    private static BigInteger unsigned(long value) {
        return new BigInteger(Long.toUnsignedString(value));
    }
}
