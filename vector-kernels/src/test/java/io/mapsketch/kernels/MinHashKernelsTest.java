package io.mapsketch.kernels;

import static io.mapsketch.kernels.TestMemory.QT_SEED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** MinHash kernels: the twins agree, and the reference agrees with the documented derivation. */
class MinHashKernelsTest {

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(Layouts.ORDER);

    @Test
    void derivationMatchesTheDocumentedWorkedExample() {
        assertEquals(0x9CA066F1A4AB2EEAL, MinHashKernels.derive(0, 0));
        assertEquals(0x5D6AA135C0100BF9L, MinHashKernels.derive(0x0123456789ABCDEFL, 5));
    }

    @Test
    void updateTwinsAgreeOnGeneratedSignaturesAndBatches() {
        qt().withFixedSeed(QT_SEED + 11)
                .withExamples(300)
                .forAll(TestMemory.cases(), integers().between(0, 70))
                .checkAssert((c, count) ->
                        assertUpdateTwins(c.length() % 301, count, c.dstOffset(), c.seed(), c.memory(), c.dstFill()));
    }

    @Test
    void updateTwinsAgreeOnEveryTailLength() {
        TestMemory.Fill[] fills = {TestMemory.Fill.ONES, TestMemory.Fill.RANDOM, TestMemory.Fill.ZEROS};
        for (int slots = 0; slots <= 70; slots++) {
            assertUpdateTwins(
                    slots,
                    slots % 9,
                    slots % 64,
                    slots,
                    TestMemory.Memory.values()[slots % 2],
                    fills[slots % fills.length]);
        }
    }

    private static void assertUpdateTwins(
            int slots, int count, int offset, long seed, TestMemory.Memory memory, TestMemory.Fill fill) {
        long[] hashes = new SplittableRandom(seed).longs(count + 3).toArray();
        MemorySegment expected = TestMemory.region(memory, 1);
        MemorySegment actual = TestMemory.region(memory, 2);
        TestMemory.fill(expected, fill, ~seed);
        actual.copyFrom(expected);
        KernelSet.SCALAR.minHash().update(expected, offset, 0, slots, hashes, 2, count);
        TestMemory.twin().minHash().update(actual, offset, 0, slots, hashes, 2, count);
        assertEquals(
                -1,
                expected.mismatch(actual),
                () -> "twins differ at byte " + expected.mismatch(actual) + " for " + slots + " slots, " + count
                        + " hashes, offset " + offset + ", " + memory + ", " + fill);
    }

    @Test
    void referenceIsTheMinimumOfTheDerivedValuesWhateverTheBatching() {
        qt().withFixedSeed(QT_SEED + 12)
                .withExamples(100)
                .forAll(integers().between(1, 200), TestMemory.words(0, 100))
                .checkAssert((slots, hashes) -> {
                    int count = hashes.length;
                    try (Arena arena = Arena.ofConfined()) {
                        MemorySegment whole = arena.allocate(8L * slots);
                        MemorySegment split = arena.allocate(8L * slots);
                        whole.fill((byte) -1);
                        split.fill((byte) -1);
                        MinHashKernels.update(whole, 0, slots, hashes, 0, count);
                        MinHashKernels.update(split, 0, slots, hashes, count / 2, count - count / 2);
                        MinHashKernels.update(split, 0, slots, hashes, 0, count / 2);
                        assertEquals(-1, whole.mismatch(split), "batching changes nothing");
                        for (int s = 0; s < slots; s++) {
                            long min = -1L;
                            for (long h : hashes) {
                                long v = MinHashKernels.derive(h, s);
                                min = Long.compareUnsigned(v, min) < 0 ? v : min;
                            }
                            assertEquals(min, whole.get(LONG, 8L * s), "slot " + s);
                        }
                    }
                });
    }

    @Test
    void countEqualTwinsAgreeOnSignaturesThatShareSlots() {
        qt().withFixedSeed(QT_SEED + 13)
                .withExamples(300)
                .forAll(TestMemory.cases(), integers().between(0, 100))
                .checkAssert((c, sharePercent) -> {
                    MemorySegment a = TestMemory.region(c.memory(), 0);
                    MemorySegment b = TestMemory.region(c.memory(), 1);
                    TestMemory.fill(a, c.srcFill(), c.seed());
                    TestMemory.fill(b, c.dstFill(), ~c.seed());
                    SplittableRandom random = new SplittableRandom(c.seed());
                    long plain = 0;
                    for (int i = 0; i < c.length(); i++) {
                        if (random.nextInt(100) < sharePercent) {
                            b.set(LONG, c.dstOffset() + 8L * i, a.get(LONG, c.srcOffset() + 8L * i));
                        }
                        plain += a.get(LONG, c.srcOffset() + 8L * i) == b.get(LONG, c.dstOffset() + 8L * i) ? 1 : 0;
                    }
                    long expected =
                            KernelSet.SCALAR.minHash().countEqual(a, c.srcOffset(), b, c.dstOffset(), c.length());
                    assertEquals(plain, expected, () -> "reference against a plain loop for " + c);
                    assertEquals(
                            expected,
                            TestMemory.twin().minHash().countEqual(a, c.srcOffset(), b, c.dstOffset(), c.length()),
                            () -> "twins differ for " + c);
                });
    }

    @Test
    void facadeRefusesBadArgumentsBeforeTouchingMemory() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment signature = arena.allocate(64);
            long[] hashes = new long[4];
            FacadeValidationTest.assertMessage(
                    IllegalArgumentException.class,
                    () -> MinHashKernels.update(signature, 0, -1, hashes, 0, 1),
                    "slots = -1",
                    ">= 0");
            FacadeValidationTest.assertMessage(
                    IndexOutOfBoundsException.class,
                    () -> MinHashKernels.update(signature, 8, 8, hashes, 0, 1),
                    "offset = 8",
                    "slots = 8");
            FacadeValidationTest.assertMessage(
                    IndexOutOfBoundsException.class,
                    () -> MinHashKernels.update(signature, 0, 8, hashes, 2, 3),
                    "from = 2",
                    "count = 3");
            FacadeValidationTest.assertMessage(
                    IllegalArgumentException.class,
                    () -> MinHashKernels.update(signature.asReadOnly(), 0, 8, hashes, 0, 1),
                    "signature is read-only");
            FacadeValidationTest.assertMessage(
                    IndexOutOfBoundsException.class,
                    () -> MinHashKernels.countEqual(signature, 0, signature, 1, 8),
                    "bOffset = 1",
                    "slots = 8");
            assertEquals(0, signature.get(LONG, 0));
        }
    }
}
