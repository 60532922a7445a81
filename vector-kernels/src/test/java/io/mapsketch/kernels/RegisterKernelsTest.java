package io.mapsketch.kernels;

import static io.mapsketch.kernels.TestMemory.EXAMPLES;
import static io.mapsketch.kernels.TestMemory.QT_SEED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Register merges and the histogram: the twins agree, and the reference agrees with plain loops. */
class RegisterKernelsTest {

    private static final TestMemory.Merge MAX_BYTES =
            (k, d, dOff, s, sOff, n) -> k.registers().maxUnsignedBytes(d, dOff, s, sOff, n);
    private static final TestMemory.Merge MIN_LONGS =
            (k, d, dOff, s, sOff, n) -> k.registers().minUnsignedLongs(d, dOff, s, sOff, n);

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(Layouts.ORDER);

    @Test
    void mergeTwinsAgreeOnGeneratedSlices() {
        qt().withFixedSeed(QT_SEED + 3).withExamples(EXAMPLES).forAll(TestMemory.cases()).checkAssert(c -> {
            TestMemory.assertMergeTwins(c, Byte.BYTES, MAX_BYTES);
            TestMemory.assertMergeTwins(c, Long.BYTES, MIN_LONGS);
        });
    }

    @Test
    void histogramTwinsAgreeOnGeneratedSlices() {
        qt().withFixedSeed(QT_SEED + 4).withExamples(EXAMPLES).forAll(TestMemory.cases())
                .checkAssert(RegisterKernelsTest::assertHistogramTwins);
    }

    @Test
    void twinsAgreeOnEveryTailLength() {
        for (TestMemory.Case c : TestMemory.everyTail()) {
            TestMemory.assertMergeTwins(c, Byte.BYTES, MAX_BYTES);
            TestMemory.assertMergeTwins(c, Long.BYTES, MIN_LONGS);
            assertHistogramTwins(c);
        }
    }

    @Test
    void histogramTwinsAgreeOnLongRegisterArrays() {
        for (TestMemory.Fill fill : TestMemory.Fill.values()) {
            TestMemory.Case c = new TestMemory.Case(60_000, 0, 5, fill, fill, TestMemory.Memory.MAPPED, fill.ordinal());
            assertHistogramTwins(c);
        }
    }

    private static void assertHistogramTwins(TestMemory.Case c) {
        MemorySegment registers = TestMemory.region(c.memory(), 0);
        TestMemory.fill(registers, c.srcFill(), c.seed());
        long[] expected = new long[RegisterOps.HISTOGRAM_LENGTH + 2];
        long[] actual = new long[RegisterOps.HISTOGRAM_LENGTH + 2];
        Arrays.fill(expected, 7);
        Arrays.fill(actual, 7);
        long expectedAbove = KernelSet.SCALAR.registers().histogram(registers, c.srcOffset(), c.length(), expected);
        long actualAbove = TestMemory.twin().registers().histogram(registers, c.srcOffset(), c.length(), actual);
        assertArrayEquals(expected, actual, () -> "histograms differ for " + c);
        assertEquals(expectedAbove, actualAbove, () -> "registers above 64 differ for " + c);
    }

    @Test
    void referenceMaxComparesBytesUnsigned() {
        int[][] cases = {{0x00, 0xFF, 0xFF}, {0x80, 0x7F, 0x80}, {0x7F, 0x80, 0x80}, {0x01, 0x00, 0x01},
            {0xFE, 0xFF, 0xFF}, {0x40, 0x40, 0x40}, {0x81, 0x01, 0x81}, {0x00, 0x00, 0x00}, {0x3F, 0xC0, 0xC0}};
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dst = arena.allocate(cases.length);
            MemorySegment src = arena.allocate(cases.length);
            for (int i = 0; i < cases.length; i++) {
                dst.set(ValueLayout.JAVA_BYTE, i, (byte) cases[i][0]);
                src.set(ValueLayout.JAVA_BYTE, i, (byte) cases[i][1]);
            }
            KernelSet.SCALAR.registers().maxUnsignedBytes(dst, 0, src, 0, cases.length);
            for (int i = 0; i < cases.length; i++) {
                assertEquals(cases[i][2], dst.get(ValueLayout.JAVA_BYTE, i) & 0xFF, "case " + i);
            }
        }
    }

    @Test
    void referenceMergesEqualPlainLoopsOnRandomData() {
        SplittableRandom random = new SplittableRandom(4);
        int n = 4099;
        byte[] a = new byte[n];
        byte[] b = new byte[n];
        random.nextBytes(a);
        random.nextBytes(b);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dst = arena.allocate(8L * n);
            MemorySegment src = arena.allocate(8L * n);
            MemorySegment.copy(a, 0, dst, ValueLayout.JAVA_BYTE, 1, n - 1);
            MemorySegment.copy(b, 0, src, ValueLayout.JAVA_BYTE, 0, n);
            KernelSet.SCALAR.registers().maxUnsignedBytes(dst, 1, src, 0, n - 1);
            for (int i = 0; i < n - 1; i++) {
                assertEquals(Math.max(a[i] & 0xFF, b[i] & 0xFF), dst.get(ValueLayout.JAVA_BYTE, 1 + i) & 0xFF);
            }
            long[] x = random.longs(n).toArray();
            long[] y = random.longs(n).toArray();
            MemorySegment.copy(x, 0, dst, LONG, 0, n);
            MemorySegment.copy(y, 0, src, LONG, 0, n);
            KernelSet.SCALAR.registers().minUnsignedLongs(dst, 0, src, 0, n);
            for (int i = 0; i < n; i++) {
                long min = Long.compareUnsigned(x[i], y[i]) <= 0 ? x[i] : y[i];
                assertEquals(min, dst.get(LONG, 8L * i), "value " + i);
            }
        }
    }

    @Test
    void referenceMinIsUnsigned() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dst = arena.allocate(24);
            MemorySegment src = arena.allocate(24);
            long[] d = {-1L, Long.MIN_VALUE, 5};
            long[] s = {5, Long.MAX_VALUE, 5};
            MemorySegment.copy(d, 0, dst, LONG, 0, 3);
            MemorySegment.copy(s, 0, src, LONG, 0, 3);
            KernelSet.SCALAR.registers().minUnsignedLongs(dst, 0, src, 0, 3);
            assertEquals(5, dst.get(LONG, 0));
            assertEquals(Long.MAX_VALUE, dst.get(LONG, 8));
            assertEquals(5, dst.get(LONG, 16));
        }
    }

    @Test
    void referenceHistogramCountsEveryValueAndSumsToLength() {
        SplittableRandom random = new SplittableRandom(5);
        int n = 10_007;
        byte[] values = new byte[n];
        long[] expected = new long[RegisterOps.HISTOGRAM_LENGTH];
        long above = 0;
        for (int i = 0; i < n; i++) {
            int v = random.nextInt(10) == 0 ? random.nextInt(256) : random.nextInt(20);
            values[i] = (byte) v;
            if (v <= 64) {
                expected[v]++;
            } else {
                above++;
            }
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment registers = arena.allocate(n + 3L);
            MemorySegment.copy(values, 0, registers, ValueLayout.JAVA_BYTE, 3, n);
            long[] counts = new long[RegisterOps.HISTOGRAM_LENGTH];
            Arrays.fill(counts, 99);
            long returned = KernelSet.SCALAR.registers().histogram(registers, 3, n, counts);
            assertArrayEquals(expected, counts);
            assertEquals(above, returned);
            assertEquals(n, Arrays.stream(counts).sum() + returned);
        }
    }

    @Test
    void facadeHistogramOfEmptyAndFullRegisters() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment registers = arena.allocate(16384);
            long[] counts = new long[70];
            counts[69] = 42;
            assertEquals(0, RegisterKernels.histogram(registers, 0, 16384, counts));
            assertEquals(16384, counts[0]);
            assertEquals(42, counts[69]);
            registers.fill((byte) 64);
            assertEquals(0, RegisterKernels.histogram(registers, 0, 16384, counts));
            assertEquals(0, counts[0]);
            assertEquals(16384, counts[64]);
            registers.fill((byte) 65);
            assertEquals(16384, RegisterKernels.histogram(registers, 0, 16384, counts));
            assertEquals(0, Arrays.stream(counts, 0, 65).sum());
        }
    }

    @Test
    void facadeMergesHyperLogLogRegistersAndMinHashSignatures() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(1000);
            MemorySegment b = arena.allocate(1000);
            a.fill((byte) 3);
            b.fill((byte) 200);
            b.set(ValueLayout.JAVA_BYTE, 999, (byte) 1);
            RegisterKernels.maxUnsignedBytes(a, 0, b, 0, 1000);
            assertEquals(200, a.get(ValueLayout.JAVA_BYTE, 0) & 0xFF);
            assertEquals(3, a.get(ValueLayout.JAVA_BYTE, 999));
            a.fill((byte) 0xFF);
            b.fill((byte) 0);
            b.set(LONG, 992, 7);
            RegisterKernels.minUnsignedLongs(a, 0, b, 0, 125);
            assertEquals(0, a.get(LONG, 0));
            assertEquals(7, a.get(LONG, 992));
        }
    }
}
