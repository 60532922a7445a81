package io.mapsketch.kernels;

import static io.mapsketch.kernels.TestMemory.EXAMPLES;
import static io.mapsketch.kernels.TestMemory.QT_SEED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Bit-array merges and popcounts: the twins agree, and the reference agrees with plain arithmetic. */
class BitSetKernelsTest {

    private static final TestMemory.Merge OR =
            (k, d, dOff, s, sOff, n) -> k.bitSets().or(d, dOff, s, sOff, n);
    private static final TestMemory.Merge AND =
            (k, d, dOff, s, sOff, n) -> k.bitSets().and(d, dOff, s, sOff, n);
    private static final TestMemory.Merge XOR =
            (k, d, dOff, s, sOff, n) -> k.bitSets().xor(d, dOff, s, sOff, n);
    private static final TestMemory.Merge AND_NOT =
            (k, d, dOff, s, sOff, n) -> k.bitSets().andNot(d, dOff, s, sOff, n);
    private static final TestMemory.Reduce POPCOUNT =
            (k, a, aOff, b, bOff, n) -> k.bitSets().popcount(a, aOff, n);
    private static final TestMemory.Reduce POPCOUNT_AND =
            (k, a, aOff, b, bOff, n) -> k.bitSets().popcountAnd(a, aOff, b, bOff, n);
    private static final TestMemory.Reduce POPCOUNT_OR =
            (k, a, aOff, b, bOff, n) -> k.bitSets().popcountOr(a, aOff, b, bOff, n);

    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED;

    @Test
    void mergeTwinsAgreeOnGeneratedSlices() {
        qt().withFixedSeed(QT_SEED)
                .withExamples(EXAMPLES)
                .forAll(TestMemory.cases())
                .checkAssert(c -> {
                    TestMemory.assertMergeTwins(c, Long.BYTES, OR);
                    TestMemory.assertMergeTwins(c, Long.BYTES, AND);
                    TestMemory.assertMergeTwins(c, Long.BYTES, XOR);
                    TestMemory.assertMergeTwins(c, Long.BYTES, AND_NOT);
                });
    }

    @Test
    void popcountTwinsAgreeOnGeneratedSlices() {
        qt().withFixedSeed(QT_SEED + 1)
                .withExamples(EXAMPLES)
                .forAll(TestMemory.cases())
                .checkAssert(c -> {
                    TestMemory.assertReduceTwins(c, POPCOUNT);
                    TestMemory.assertReduceTwins(c, POPCOUNT_AND);
                    TestMemory.assertReduceTwins(c, POPCOUNT_OR);
                });
    }

    @Test
    void twinsAgreeOnEveryTailLength() {
        for (TestMemory.Case c : TestMemory.everyTail()) {
            TestMemory.assertMergeTwins(c, Long.BYTES, OR);
            TestMemory.assertMergeTwins(c, Long.BYTES, AND);
            TestMemory.assertMergeTwins(c, Long.BYTES, XOR);
            TestMemory.assertMergeTwins(c, Long.BYTES, AND_NOT);
            TestMemory.assertReduceTwins(c, POPCOUNT);
            TestMemory.assertReduceTwins(c, POPCOUNT_AND);
            TestMemory.assertReduceTwins(c, POPCOUNT_OR);
        }
    }

    @Test
    void referenceMergesMatchWordArithmetic() {
        SplittableRandom random = new SplittableRandom(1);
        int words = 1000;
        long[] a = random.longs(words).toArray();
        long[] b = random.longs(words).toArray();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(words * 8L + 3).asSlice(3);
            MemorySegment.copy(b, 0, src, WORD, 0, words);
            for (String op : new String[] {"or", "and", "xor", "andNot"}) {
                MemorySegment dst = arena.allocate(words * 8L);
                MemorySegment.copy(a, 0, dst, WORD, 0, words);
                BitSetOps ops = KernelSet.SCALAR.bitSets();
                switch (op) {
                    case "or" -> ops.or(dst, 0, src, 0, words);
                    case "and" -> ops.and(dst, 0, src, 0, words);
                    case "xor" -> ops.xor(dst, 0, src, 0, words);
                    default -> ops.andNot(dst, 0, src, 0, words);
                }
                for (int i = 0; i < words; i++) {
                    long expected = switch (op) {
                        case "or" -> a[i] | b[i];
                        case "and" -> a[i] & b[i];
                        case "xor" -> a[i] ^ b[i];
                        default -> a[i] & ~b[i];
                    };
                    assertEquals(expected, dst.get(WORD, i * 8L), op + " word " + i);
                }
            }
        }
    }

    @Test
    void referencePopcountsCountBits() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ones = arena.allocate(8 * 100).fill((byte) -1);
            MemorySegment alternate = arena.allocate(8 * 100).fill((byte) 0x55);
            BitSetOps ops = KernelSet.SCALAR.bitSets();
            assertEquals(6400, ops.popcount(ones, 0, 100));
            assertEquals(0, ops.popcount(ones, 0, 0));
            assertEquals(3200, ops.popcount(alternate, 0, 100));
            assertEquals(3200, ops.popcountAnd(ones, 0, alternate, 0, 100));
            assertEquals(6400, ops.popcountOr(ones, 0, alternate, 0, 100));
            assertEquals(32 * 7, ops.popcountOr(alternate, 0, alternate, 0, 7));
        }
    }

    @Test
    void facadeMergesInPlaceAndCountsUnionAndIntersection() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(8 * 33);
            MemorySegment b = arena.allocate(8 * 33);
            for (int i = 0; i < 33; i++) {
                a.setAtIndex(ValueLayout.JAVA_LONG, i, 0xFF00L);
                b.setAtIndex(ValueLayout.JAVA_LONG, i, 0x0FF0L);
            }
            assertEquals(33 * 4, BitSetKernels.popcountAnd(a, 0, b, 0, 33));
            assertEquals(33 * 12, BitSetKernels.popcountOr(a, 0, b, 0, 33));
            BitSetKernels.or(a, 0, a, 0, 33);
            assertEquals(33 * 8, BitSetKernels.popcount(a, 0, 33));
            BitSetKernels.xor(a, 0, b, 0, 33);
            assertEquals(0xF0F0L, a.getAtIndex(ValueLayout.JAVA_LONG, 32));
            BitSetKernels.andNot(a, 0, b, 0, 33);
            assertEquals(0xF000L, a.getAtIndex(ValueLayout.JAVA_LONG, 0));
            BitSetKernels.and(a, 0, b, 0, 33);
            assertEquals(0, BitSetKernels.popcount(a, 0, 33));
        }
    }

    @Test
    void facadeWorksOnHeapSegments() {
        long[] dst = new long[37];
        long[] src = new long[37];
        Arrays.fill(src, 0x8000_0000_0000_0001L);
        MemorySegment d = MemorySegment.ofArray(dst);
        BitSetKernels.or(d, 8, MemorySegment.ofArray(src), 0, 36);
        assertEquals(0, dst[0]);
        assertEquals(0x8000_0000_0000_0001L, dst[36]);
        assertEquals(72, BitSetKernels.popcount(d, 0, 37));
    }
}
