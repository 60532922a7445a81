package io.mapsketch.kernels;

import static io.mapsketch.kernels.TestMemory.QT_SEED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * The SimHash kernels: the twins agree on the fingerprint sums to the bit and on the Hamming scan, and
 * the scan's reference is exactly the brute-force answer.
 */
class SimHashKernelsTest {

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(Layouts.ORDER);

    /** Fills a table with fingerprints near the query (a few bits flipped), far from it, and equal to it. */
    private static long fillNear(MemorySegment table, long offset, int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long query = random.nextLong();
        for (int i = 0; i < count; i++) {
            long fingerprint = query;
            int flips = random.nextInt(3) == 0 ? random.nextInt(65) : random.nextInt(8);
            for (int f = 0; f < flips; f++) {
                fingerprint ^= 1L << random.nextInt(64);
            }
            table.set(LONG, offset + 8L * i, fingerprint);
        }
        return query;
    }

    private static int[] bruteForce(MemorySegment table, long offset, int count, long query, int d) {
        return java.util.stream.IntStream.range(0, count)
                .filter(i -> Long.bitCount(table.get(LONG, offset + 8L * i) ^ query) <= d)
                .toArray();
    }

    private static void assertTwins(MemorySegment table, int offset, int count, long query, int d) {
        int[] expected = new int[count + 5];
        int[] actual = new int[count + 5];
        Arrays.fill(expected, -7);
        Arrays.fill(actual, -7);
        int expectedFound = KernelSet.SCALAR.simHash().within(table, offset, count, query, d, expected, 5);
        int actualFound = TestMemory.twin().simHash().within(table, offset, count, query, d, actual, 5);
        assertArrayEquals(
                bruteForce(table, offset, count, query, d),
                Arrays.copyOfRange(expected, 5, 5 + expectedFound),
                "reference against brute force");
        assertEquals(expectedFound, actualFound, "match counts of the twins");
        assertArrayEquals(
                expected, actual, () -> "twins differ: " + count + " fingerprints at offset " + offset + ", d = " + d);
    }

    @Test
    void twinsAgreeWithBruteForceOnGeneratedTables() {
        qt().withFixedSeed(QT_SEED + 21)
                .withExamples(300)
                .forAll(TestMemory.cases(), integers().between(0, 64))
                .checkAssert((c, d) -> {
                    MemorySegment table = TestMemory.region(c.memory(), 0);
                    long query = fillNear(table, c.srcOffset(), c.length(), c.seed());
                    assertTwins(table, c.srcOffset(), c.length(), query, d);
                });
    }

    @Test
    void twinsAgreeOnEveryTailLengthAndDistance() {
        MemorySegment table = TestMemory.region(TestMemory.Memory.MAPPED, 1);
        for (int count = 0; count <= 70; count++) {
            long query = fillNear(table, count % 16, count, count);
            for (int d = 0; d <= 64; d += 1 + d / 4) {
                assertTwins(table, count % 16, count, query, d);
            }
        }
    }

    /** A feature: its hash and its weight, 1 a third of the time, else a fraction times 2^-20 to 2^19. */
    private record Feature(long hash, double weight) {}

    private static Gen<List<Feature>> features() {
        Gen<Double> weights = integers()
                .between(0, 2)
                .zip(
                        doubles().between(0, 1),
                        integers().between(-20, 19),
                        (roll, fraction, exponent) -> roll == 0 ? 1 : fraction * Math.scalb(1.0, exponent));
        return lists().of(longs().all().zip(weights, Feature::new)).ofSizeBetween(0, 300);
    }

    @Test
    void accumulateTwinsAgreeToTheBit() {
        qt().withFixedSeed(QT_SEED + 22).withExamples(200).forAll(features()).checkAssert(features -> {
            double[] expected = new double[70];
            double[] actual = new double[70];
            Arrays.fill(expected, 64, 70, 5.5);
            Arrays.fill(actual, 64, 70, 5.5);
            for (Feature feature : features) {
                KernelSet.SCALAR.simHash().accumulate(expected, feature.hash(), feature.weight());
                TestMemory.twin().simHash().accumulate(actual, feature.hash(), feature.weight());
            }
            assertArrayEquals(expected, actual, "sums after " + features.size() + " features");
        });
    }

    @Test
    void accumulateAddsWhereTheHashHasOnesAndSubtractsElsewhere() {
        double[] sums = new double[64];
        SimHashKernels.accumulate(sums, 0x8000_0000_0000_0005L, 2.5);
        SimHashKernels.accumulate(sums, 0x1L, 1);
        assertEquals(3.5, sums[0]);
        assertEquals(-3.5, sums[1]);
        assertEquals(1.5, sums[2]);
        assertEquals(1.5, sums[63]);
        FacadeValidationTest.assertMessage(
                IllegalArgumentException.class,
                () -> SimHashKernels.accumulate(new double[63], 1, 1),
                "sums.length = 63",
                ">= 64");
    }

    @Test
    void countOnesTwinsAgreeAndCountEveryBit() {
        qt().withFixedSeed(QT_SEED + 23)
                .withExamples(200)
                .forAll(lists().of(longs().all()).ofSizeBetween(0, SimHashKernels.ONES_LIMIT))
                .checkAssert(hashes -> {
                    long[] expected = new long[9];
                    long[] actual = new long[9];
                    expected[8] = actual[8] = 77;
                    for (long hash : hashes) {
                        KernelSet.SCALAR.simHash().countOnes(expected, hash);
                        TestMemory.twin().simHash().countOnes(actual, hash);
                    }
                    assertArrayEquals(expected, actual, "lanes after " + hashes.size() + " hashes");
                    for (int bit = 0; bit < Long.SIZE; bit++) {
                        int b = bit;
                        long ones =
                                hashes.stream().filter(h -> (h >>> b & 1) != 0).count();
                        assertEquals(ones, expected[bit % 8] >>> (8 * (bit / 8)) & 0xFF, "ones of bit " + bit);
                    }
                });
        FacadeValidationTest.assertMessage(
                IllegalArgumentException.class,
                () -> SimHashKernels.countOnes(new long[7], 1),
                "lanes.length = 7",
                ">= 8");
    }

    @Test
    void facadeChecksDistanceAndRoomForMatches() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment table = arena.allocate(80);
            FacadeValidationTest.assertMessage(
                    IllegalArgumentException.class,
                    () -> SimHashKernels.within(table, 0, 10, 0, 65, new int[10], 0),
                    "maxDistance = 65",
                    "[0, 64]");
            FacadeValidationTest.assertMessage(
                    IllegalArgumentException.class,
                    () -> SimHashKernels.within(table, 0, 10, 0, -1, new int[10], 0),
                    "maxDistance = -1");
            FacadeValidationTest.assertMessage(
                    IndexOutOfBoundsException.class,
                    () -> SimHashKernels.within(table, 0, 10, 0, 3, new int[12], 3),
                    "matchesFrom = 3",
                    "count = 10");
            FacadeValidationTest.assertMessage(
                    IndexOutOfBoundsException.class,
                    () -> SimHashKernels.within(table, 8, 10, 0, 3, new int[10], 0),
                    "offset = 8");
            int[] all = new int[10];
            assertEquals(10, SimHashKernels.within(table, 0, 10, 0, 0, all, 0), "zeros are all at distance 0");
            assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, all);
            assertEquals(10, SimHashKernels.within(table, 0, 10, -1, 64, all, 0), "every fingerprint is within 64");
            assertEquals(0, SimHashKernels.within(table, 0, 10, -1, 63, all, 0));
        }
    }
}
