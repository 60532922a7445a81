package io.mapsketch.kernels;

import static io.mapsketch.kernels.TestMemory.EXAMPLES;
import static io.mapsketch.kernels.TestMemory.QT_SEED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

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
        qt().withFixedSeed(QT_SEED + 3)
                .withExamples(EXAMPLES)
                .forAll(TestMemory.cases())
                .checkAssert(c -> {
                    TestMemory.assertMergeTwins(c, Byte.BYTES, MAX_BYTES);
                    TestMemory.assertMergeTwins(c, Long.BYTES, MIN_LONGS);
                });
    }

    @Test
    void histogramTwinsAgreeOnGeneratedSlices() {
        qt().withFixedSeed(QT_SEED + 4)
                .withExamples(EXAMPLES)
                .forAll(TestMemory.cases())
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
    void firstRaisedTwinsFindThePlantedRegister() {
        qt().withFixedSeed(QT_SEED + 6)
                .withExamples(EXAMPLES)
                .forAll(TestMemory.cases())
                .checkAssert(RegisterKernelsTest::assertFirstRaisedTwins);
        for (TestMemory.Case c : TestMemory.everyTail()) {
            assertFirstRaisedTwins(c);
        }
    }

    /**
     * Makes dst at least src everywhere (a merge), then raises one source register at a position drawn
     * from the case's seed, or none (position = length): both twins must return that position, and on
     * the unmerged slices the same index.
     */
    private static void assertFirstRaisedTwins(TestMemory.Case c) {
        MemorySegment src = TestMemory.region(c.memory(), 0);
        MemorySegment dst = TestMemory.region(c.memory(), 1);
        TestMemory.fill(src, c.srcFill(), c.seed());
        TestMemory.fill(dst, c.dstFill(), ~c.seed());
        long unmerged = KernelSet.SCALAR.registers().firstRaised(dst, c.dstOffset(), src, c.srcOffset(), c.length());
        assertEquals(
                unmerged,
                TestMemory.twin().registers().firstRaised(dst, c.dstOffset(), src, c.srcOffset(), c.length()),
                () -> "unmerged " + c);
        KernelSet.SCALAR.registers().maxUnsignedBytes(dst, c.dstOffset(), src, c.srcOffset(), c.length());
        long planted = Math.floorMod(c.seed(), c.length() + 1L);
        if (planted < c.length()) {
            dst.set(ValueLayout.JAVA_BYTE, c.dstOffset() + planted, (byte) 0x7F);
            src.set(ValueLayout.JAVA_BYTE, c.srcOffset() + planted, (byte) 0x80);
        }
        for (KernelSet kernels : new KernelSet[] {KernelSet.SCALAR, TestMemory.twin()}) {
            assertEquals(
                    planted,
                    kernels.registers().firstRaised(dst, c.dstOffset(), src, c.srcOffset(), c.length()),
                    () -> kernels.implementation() + " for " + c);
        }
    }

    /**
     * Packed sparse entries of a few registers, some empty, at every entry width and at every offset of a
     * word: both twins and the facade find the first empty entry or entry of the register, as a plain loop
     * over the entries does.
     */
    @Test
    void firstEntryOfTwinsFindTheFirstEmptyOrMatchingEntry() {
        qt().withFixedSeed(QT_SEED + 9)
                .withExamples(EXAMPLES)
                .forAll(
                        lists().of(integers().between(0, 40)).ofSizeBetween(0, 300),
                        integers().between(1, 40),
                        integers().between(RegisterKernels.ENTRY_VALUE_BITS + 1, Integer.SIZE),
                        integers().between(0, 7))
                .checkAssert((registers, wanted, entryBits, skew) -> {
                    int perWord = Long.SIZE / entryBits;
                    int limit = 1 << (entryBits - RegisterKernels.ENTRY_VALUE_BITS);
                    int register = wanted % limit;
                    int count = (registers.size() + perWord - 1) / perWord;
                    try (Arena arena = Arena.ofConfined()) {
                        MemorySegment words = arena.allocate(Long.BYTES * (count + 1L));
                        long offset = skew; // any byte offset
                        int expected = registers.size(); // the entries after the listed ones are empty
                        for (int i = 0; i < registers.size(); i++) {
                            int r = (registers.get(i) + limit - 1) % limit;
                            long entry = registers.get(i) == 0
                                    ? 0
                                    : (long) r << RegisterKernels.ENTRY_VALUE_BITS | (1 + i % 50);
                            long at = offset + (long) Long.BYTES * (i / perWord);
                            words.set(
                                    ValueLayout.JAVA_LONG_UNALIGNED,
                                    at,
                                    words.get(ValueLayout.JAVA_LONG_UNALIGNED, at)
                                            | entry << (i % perWord * entryBits));
                            if (expected == registers.size() && (entry == 0 || r == register)) {
                                expected = i;
                            }
                        }
                        assertEquals(
                                expected,
                                KernelSet.SCALAR.registers().firstEntryOf(words, offset, count, entryBits, register));
                        assertEquals(
                                expected,
                                TestMemory.twin().registers().firstEntryOf(words, offset, count, entryBits, register));
                        assertEquals(expected, RegisterKernels.firstEntryOf(words, offset, count, entryBits, register));
                    }
                });
    }

    @Test
    void firstEntryOfRefusesAnEntryWidthOutsideItsRange() {
        MemorySegment words = MemorySegment.ofArray(new long[4]);
        IllegalArgumentException refused =
                assertThrows(IllegalArgumentException.class, () -> RegisterKernels.firstEntryOf(words, 0, 4, 33, 1));
        assertEquals("entryBits = 33, must be in [7, 32]", refused.getMessage());
    }

    @Test
    void facadeMaxOfUnsignedBytesIsTheByteWiseMaximum() {
        SplittableRandom random = new SplittableRandom(8);
        for (int i = 0; i < 10_000; i++) {
            long a = random.nextLong();
            long b = random.nextLong();
            long expected = 0;
            for (int shift = 0; shift < Long.SIZE; shift += Byte.SIZE) {
                expected |= Math.max((a >>> shift) & 0xFF, (b >>> shift) & 0xFF) << shift;
            }
            assertEquals(expected, RegisterKernels.maxOfUnsignedBytes(a, b));
        }
    }

    @Test
    void summaryTwinsAgreeOnGeneratedSlices() {
        qt().withFixedSeed(QT_SEED + 5)
                .withExamples(EXAMPLES)
                .forAll(TestMemory.cases())
                .checkAssert(RegisterKernelsTest::assertSummaryTwins);
    }

    @Test
    void summaryTwinsAgreeOnEveryTailAndOnLongRegisterArrays() {
        for (TestMemory.Case c : TestMemory.everyTail()) {
            assertSummaryTwins(c);
        }
        for (TestMemory.Fill fill : TestMemory.Fill.values()) {
            assertSummaryTwins(new TestMemory.Case(60_000, 0, 3, fill, fill, TestMemory.Memory.MAPPED, fill.ordinal()));
        }
    }

    /** Tops of a HyperLogLog at p = 18, 14 and 4, the extremes 1 and 63, and one drawn from the case's seed. */
    private static void assertSummaryTwins(TestMemory.Case c) {
        MemorySegment registers = TestMemory.region(c.memory(), 0);
        TestMemory.fill(registers, c.srcFill(), c.seed());
        for (int top : new int[] {1, 47, 51, 61, RegisterOps.MAX_TOP, 1 + Math.floorMod(c.seed(), 63)}) {
            long[] expected = new long[RegisterOps.SUMMARY_LENGTH + 1];
            long[] actual = new long[RegisterOps.SUMMARY_LENGTH + 1];
            Arrays.fill(expected, 7);
            Arrays.fill(actual, 7);
            KernelSet.SCALAR.registers().summary(registers, c.srcOffset(), c.length(), top, expected);
            TestMemory.twin().registers().summary(registers, c.srcOffset(), c.length(), top, actual);
            assertArrayEquals(expected, actual, () -> "summaries at top " + top + " differ for " + c);
        }
    }

    @Test
    void referenceSummaryAgreesWithTheHistogram() {
        SplittableRandom random = new SplittableRandom(6);
        int n = 16_387;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment registers = arena.allocate(n + 5L);
            for (int i = 0; i < n; i++) {
                int v = random.nextInt(50) == 0 ? 51 + random.nextInt(205) : random.nextInt(52);
                registers.set(ValueLayout.JAVA_BYTE, 5 + i, (byte) v);
            }
            long[] counts = new long[RegisterOps.HISTOGRAM_LENGTH];
            long aboveHistogram = KernelSet.SCALAR.registers().histogram(registers, 5, n, counts);
            int top = 51;
            long[] summary = new long[RegisterOps.SUMMARY_LENGTH];
            KernelSet.SCALAR.registers().summary(registers, 5, n, top, summary);
            long powerSum = 0;
            long above = aboveHistogram;
            for (int v = 1; v < RegisterOps.HISTOGRAM_LENGTH; v++) {
                if (v < top) {
                    powerSum += counts[v] << (top - 1 - v);
                } else if (v > top) {
                    above += counts[v];
                }
            }
            assertArrayEquals(new long[] {counts[0], counts[top], above, powerSum}, summary);
        }
    }

    @Test
    void facadeSummaryOfEmptyFullAndCorruptRegisters() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment registers = arena.allocate(16384);
            long[] summary = new long[5];
            summary[4] = 42;
            RegisterKernels.summary(registers, 0, 16384, 51, summary);
            assertArrayEquals(new long[] {16384, 0, 0, 0, 42}, summary);
            registers.fill((byte) 1);
            RegisterKernels.summary(registers, 0, 16384, 51, summary);
            assertArrayEquals(new long[] {0, 0, 0, 16384L << 49, 42}, summary);
            registers.fill((byte) 51);
            registers.set(ValueLayout.JAVA_BYTE, 77, (byte) 52);
            registers.set(ValueLayout.JAVA_BYTE, 78, (byte) 0xFF);
            RegisterKernels.summary(registers, 0, 16384, 51, summary);
            assertArrayEquals(new long[] {0, 16382, 2, 0, 42}, summary);
        }
    }

    @Test
    void referenceMaxComparesBytesUnsigned() {
        int[][] cases = {
            {0x00, 0xFF, 0xFF},
            {0x80, 0x7F, 0x80},
            {0x7F, 0x80, 0x80},
            {0x01, 0x00, 0x01},
            {0xFE, 0xFF, 0xFF},
            {0x40, 0x40, 0x40},
            {0x81, 0x01, 0x81},
            {0x00, 0x00, 0x00},
            {0x3F, 0xC0, 0xC0}
        };
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
