package io.mapsketch.kernels;

import static io.mapsketch.kernels.TestMemory.EXAMPLES;
import static io.mapsketch.kernels.TestMemory.QT_SEED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;
import org.quicktheories.generators.SourceDSL;

/** Blocked Bloom batch kernels: the twins agree, the layout is the documented one, nothing is lost. */
class BlockedBloomKernelsTest {

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(Layouts.ORDER);

    /**
     * One batch: filter shape and placement, the hashes (the batch is {@code count} of them from index 2),
     * the seed of the region's fill and of the absent queries, and which memory.
     */
    private record Batch(int blocks, int bitsPerKey, int offset, long[] hashes, long seed, TestMemory.Memory memory) {

        int count() {
            return hashes.length - 4;
        }

        @Override
        public String toString() {
            return "Batch[" + count() + " hashes into " + blocks + " blocks of " + bitsPerKey + " bits per key at "
                    + offset + ", " + memory + ", seed " + seed + "]";
        }
    }

    /**
     * One hash of a batch: after the fifth, one in eight repeats an earlier hash (the {@code earlier}-th,
     * modulo the hashes so far), the others are {@code value}.
     */
    private record Draw(boolean repeat, int earlier, long value) {}

    private static long[] hashes(List<Draw> draws) {
        long[] hashes = new long[draws.size()];
        for (int i = 0; i < hashes.length; i++) {
            Draw draw = draws.get(i);
            hashes[i] = i > 4 && draw.repeat() ? hashes[draw.earlier() % i] : draw.value();
        }
        return hashes;
    }

    /** The {@code count + 4} hashes of a seed, for the batches that run every tail. */
    private static long[] seededHashes(int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Draw> draws = new ArrayList<>();
        for (int i = 0; i < count + 4; i++) {
            draws.add(new Draw(random.nextInt(8) == 0, random.nextInt(Integer.MAX_VALUE), random.nextLong()));
        }
        return hashes(draws);
    }

    /** The generated hashes of a batch: 0 to 700 to add, and two on either side that are not. */
    private static Gen<long[]> batchHashes() {
        Gen<Draw> draws = Generate.range(0, 7)
                .zip(
                        Generate.range(0, 703),
                        Generate.longRange(Long.MIN_VALUE, Long.MAX_VALUE),
                        (roll, earlier, value) -> new Draw(roll == 0, earlier, value));
        return SourceDSL.lists()
                .of(draws)
                .ofSizeBetween(4, 704)
                .map(BlockedBloomKernelsTest::hashes)
                .describedAs(hashes -> hashes.length + " hashes " + Arrays.toString(hashes));
    }

    @Test
    void twinsAgreeOnAddAtomicAddAndLookup() {
        qt().withFixedSeed(QT_SEED + 7)
                .withExamples(EXAMPLES)
                .forAll(
                        Generate.range(1, 900),
                        Generate.range(0, 255),
                        batchHashes(),
                        Generate.longRange(Long.MIN_VALUE, Long.MAX_VALUE))
                .checkAssert((blocks, shape, hashes, seed) -> assertTwins(new Batch(
                        blocks,
                        (shape & 1) == 0 ? 8 : 16,
                        (shape >> 1) & 127,
                        hashes,
                        seed,
                        TestMemory.Memory.values()[(shape >> 1) & 1])));
    }

    @Test
    void twinsAgreeOnEveryBatchTail() {
        for (int count = 0; count <= 140; count++) {
            assertTwins(new Batch(
                    1 + count % 5,
                    count % 3 == 0 ? 16 : 8,
                    (count * 8) % 128,
                    seededHashes(count, count),
                    count,
                    TestMemory.Memory.values()[count % 2]));
        }
    }

    private static void assertTwins(Batch b) {
        SplittableRandom random = new SplittableRandom(b.seed());
        long[] hashes = b.hashes();
        int atomicOffset = b.offset() & -8;
        MemorySegment plainScalar = TestMemory.region(b.memory(), 0);
        MemorySegment plainTwin = TestMemory.region(b.memory(), 1);
        MemorySegment atomicScalar = TestMemory.region(b.memory(), 2);
        MemorySegment atomicTwin = TestMemory.region(b.memory(), 3);
        TestMemory.fill(plainScalar, random.nextBoolean() ? TestMemory.Fill.ZEROS : TestMemory.Fill.SPARSE, b.seed());
        plainTwin.copyFrom(plainScalar);
        atomicScalar.copyFrom(plainScalar.asSlice(b.offset() - atomicOffset));
        atomicScalar
                .asSlice(TestMemory.REGION_BYTES - (b.offset() - atomicOffset))
                .fill((byte) 0);
        atomicTwin.copyFrom(atomicScalar);
        KernelSet twin = TestMemory.twin();

        long added = KernelSet.SCALAR
                .blockedBloom()
                .add(plainScalar, b.offset(), b.blocks(), b.bitsPerKey(), hashes, 2, b.count());
        assertEquals(
                added,
                twin.blockedBloom().add(plainTwin, b.offset(), b.blocks(), b.bitsPerKey(), hashes, 2, b.count()),
                () -> "added count for " + b);
        assertEquals(-1, plainScalar.mismatch(plainTwin), () -> "plain adds differ for " + b);
        assertEquals(
                added,
                KernelSet.SCALAR
                        .blockedBloom()
                        .addAtomic(atomicScalar, atomicOffset, b.blocks(), b.bitsPerKey(), hashes, 2, b.count()),
                () -> "atomic added count for " + b);
        assertEquals(
                added,
                twin.blockedBloom()
                        .addAtomic(atomicTwin, atomicOffset, b.blocks(), b.bitsPerKey(), hashes, 2, b.count()),
                () -> "twin atomic added count for " + b);
        assertEquals(-1, atomicScalar.mismatch(atomicTwin), () -> "atomic adds differ for " + b);
        long filterBytes = (long) b.blocks() * BlockedBloomKernels.BLOCK_BYTES;
        assertEquals(
                -1,
                plainScalar.asSlice(b.offset(), filterBytes).mismatch(atomicScalar.asSlice(atomicOffset, filterBytes)),
                () -> "plain and atomic differ for " + b);

        long[] queries = new long[2 * b.count() + 1];
        for (int i = 0; i < queries.length; i++) {
            queries[i] = i % 2 == 0 ? random.nextLong() : hashes[2 + i / 2];
        }
        boolean[] expected = new boolean[queries.length + 3];
        boolean[] actual = new boolean[queries.length + 3];
        long found = KernelSet.SCALAR
                .blockedBloom()
                .mightContain(
                        plainScalar, b.offset(), b.blocks(), b.bitsPerKey(), queries, 0, queries.length, expected, 3);
        assertEquals(
                found,
                twin.blockedBloom()
                        .mightContain(
                                plainScalar,
                                b.offset(),
                                b.blocks(),
                                b.bitsPerKey(),
                                queries,
                                0,
                                queries.length,
                                actual,
                                3),
                () -> "found count for " + b);
        assertArrayEquals(expected, actual, () -> "lookups differ for " + b);
        long trues = 0;
        for (int i = 0; i < queries.length; i++) {
            trues += expected[3 + i] ? 1 : 0;
            if (i % 2 == 1) {
                assertTrue(expected[3 + i], "an added key was not found");
            }
        }
        assertEquals(trues, found);
    }

    @Test
    void chunksOverEmptyBlocksAnswerAbsentAndTheOthersKeyByKey() {
        int blocks = 1000;
        SplittableRandom random = new SplittableRandom(41);
        long[] added = new long[400];
        for (int i = 0; i < added.length; i++) {
            added[i] = random.nextLong() >>> 1;
        }
        long[] queries = new long[5 + 700];
        for (int i = 5; i < queries.length; i++) {
            // the first 256 queries land in the empty upper half of the blocks; then added and random keys alternate
            queries[i] = i < 5 + 256
                    ? random.nextLong() | Long.MIN_VALUE
                    : i % 2 == 0 ? added[random.nextInt(added.length)] : random.nextLong();
        }
        for (KernelSet kernels : new KernelSet[] {KernelSet.SCALAR, TestMemory.twin()}) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment filter = arena.allocate(64L * blocks, 64);
                kernels.blockedBloom().add(filter, 0, blocks, 8, added, 0, added.length);
                boolean[] answers = new boolean[7 + queries.length];
                Arrays.fill(answers, true);
                long found = kernels.blockedBloom()
                        .mightContain(filter, 0, blocks, 8, queries, 5, queries.length - 5, answers, 7);
                long expectedFound = 0;
                for (int i = 5; i < queries.length; i++) {
                    boolean expected = BlockedBloomKernels.mightContainOne(filter, 0, blocks, 8, queries[i]);
                    assertEquals(expected, answers[7 + i - 5], "query " + i);
                    expectedFound += expected ? 1 : 0;
                    if (i < 5 + 256) {
                        assertFalse(expected, "a key of an empty block was found");
                    }
                }
                assertEquals(expectedFound, found);
                assertTrue(found >= 222, "added keys were lost: " + found);
            }
        }
    }

    @Test
    void layoutMatchesTheDocumentedFormula() {
        long hash = 0x0123_4567_89AB_CDEFL;
        assertEquals(4, BlockedBloomKernels.blockIndex(hash, 1000));
        long[] k8 = {
            0x0000100000000000L,
            0x0000000010000000L,
            0x0000000000000200L,
            0x0000001000000000L,
            0x0080000000000000L,
            0x0000000100000000L,
            0x0000000000001000L,
            0x0000000000008000L
        };
        long[] k16 = {
            0x0000100000002000L,
            0x4000000010000000L,
            0x0000000000002200L,
            0x0000001002000000L,
            0x0080001000000000L,
            0x0000000100200000L,
            0x0000000000401000L,
            0x0000000000808000L
        };
        try (Arena arena = Arena.ofConfined()) {
            for (int bitsPerKey : new int[] {8, 16}) {
                long[] expected = bitsPerKey == 8 ? k8 : k16;
                MemorySegment filter = arena.allocate(64 * 1000 + 64, 64);
                assertEquals(1, BlockedBloomKernels.add(filter, 64, 1000, bitsPerKey, new long[] {hash}, 0, 1));
                for (int w = 0; w < 8; w++) {
                    assertEquals(expected[w], BlockedBloomKernels.wordPattern(hash, w, bitsPerKey));
                    assertEquals(expected[w], filter.get(LONG, 64 + 4 * 64 + 8L * w), "word " + w);
                }
                assertEquals(bitsPerKey, BitSetKernels.popcount(filter, 0, filter.byteSize() / 8));
            }
        }
        assertEquals(4_275_878_555L, BlockedBloomKernels.blockIndex(0xFEDC_BA98_7654_3210L, (1L << 32) + 3));
    }

    @Test
    void blockIndexUsesAllSixtyFourBits() {
        SplittableRandom random = new SplittableRandom(7);
        long[] blockCounts = {1, 2, 3, 1000, (1L << 32) - 1, 1L << 32, (1L << 32) + 1, 1L << 40, Long.MAX_VALUE};
        for (long blocks : blockCounts) {
            assertEquals(0, BlockedBloomKernels.blockIndex(0, blocks));
            assertEquals(blocks - 1, BlockedBloomKernels.blockIndex(-1, blocks));
            for (int i = 0; i < 1000; i++) {
                long hash = random.nextLong();
                long expected = new BigInteger(Long.toUnsignedString(hash))
                        .multiply(BigInteger.valueOf(blocks))
                        .shiftRight(64)
                        .longValueExact();
                assertEquals(expected, BlockedBloomKernels.blockIndex(hash, blocks));
            }
        }
        assertEquals(0x0123_4567_89L, BlockedBloomKernels.blockIndex(0x0123_4567_89AB_CDEFL, 1L << 40));
    }

    @Test
    void patternsHaveOneBitPerWordForEightAndAtMostTwoForSixteen() {
        SplittableRandom random = new SplittableRandom(8);
        int doubles = 0;
        for (int i = 0; i < 10_000; i++) {
            long hash = random.nextLong();
            for (int w = 0; w < 8; w++) {
                assertEquals(1, Long.bitCount(BlockedBloomKernels.wordPattern(hash, w, 8)));
                int bits = Long.bitCount(BlockedBloomKernels.wordPattern(hash, w, 16));
                assertTrue(bits == 1 || bits == 2);
                doubles += bits == 2 ? 1 : 0;
            }
        }
        assertTrue(doubles > 78_000, "second bits coincide too often: " + doubles + " of 80000 words have two");
    }

    @Test
    void falsePositiveRateAtTenBitsPerKeyIsAboutOnePercent() {
        SplittableRandom random = new SplittableRandom(9);
        int keys = 50_000;
        long blocks = keys * 10L / 512;
        long[] added = random.longs(keys).toArray();
        long[] absent = random.longs(200_000).toArray();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment filter = arena.allocate(blocks * 64, 64);
            BlockedBloomKernels.add(filter, 0, blocks, 8, added, 0, keys);
            boolean[] results = new boolean[absent.length];
            assertEquals(
                    keys, BlockedBloomKernels.mightContain(filter, 0, blocks, 8, added, 0, keys, new boolean[keys], 0));
            double rate = BlockedBloomKernels.mightContain(filter, 0, blocks, 8, absent, 0, absent.length, results, 0)
                    / (double) absent.length;
            assertTrue(rate > 0.007 && rate < 0.015, "false positive rate " + rate + ", expected about 0.0105");
        }
    }

    @Test
    void concurrentAtomicAddsLoseNoBit() throws InterruptedException {
        long blocks = 64;
        long[][] keys = new long[2][];
        keys[0] = new SplittableRandom(10).longs(100_000).toArray();
        keys[1] = new SplittableRandom(11).longs(100_000).toArray();
        try (Arena arena = Arena.ofShared()) {
            MemorySegment shared = arena.allocate(blocks * 64, 64);
            MemorySegment sequential = arena.allocate(blocks * 64, 64);
            Thread[] writers = new Thread[2];
            for (int t = 0; t < 2; t++) {
                long[] mine = keys[t];
                writers[t] = Thread.ofPlatform().start(() -> {
                    for (int i = 0; i < mine.length; i += 100) {
                        BlockedBloomKernels.addAtomic(shared, 0, blocks, 16, mine, i, 100);
                    }
                });
            }
            for (Thread writer : writers) {
                writer.join();
            }
            BlockedBloomKernels.add(sequential, 0, blocks, 16, keys[0], 0, keys[0].length);
            BlockedBloomKernels.add(sequential, 0, blocks, 16, keys[1], 0, keys[1].length);
            assertEquals(-1, shared.mismatch(sequential));
        }
    }

    @Test
    void filterWithMoreThanTwoToTheThirtyTwoBlocksInASparseMappedFile(@TempDir Path dir) throws IOException {
        long blocks = (1L << 32) + 3;
        long offset = 4096;
        Path file = dir.resolve("large.bloom");
        SplittableRandom random = new SplittableRandom(12);
        long[] hashes = new long[64];
        for (int i = 0; i < hashes.length; i++) {
            hashes[i] = random.nextLong() | Long.MIN_VALUE;
        }
        hashes[0] = -1;
        try (Arena arena = Arena.ofShared();
                FileChannel channel = FileChannel.open(
                        file,
                        StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.READ,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.SPARSE)) {
            MemorySegment filter = channel.map(FileChannel.MapMode.READ_WRITE, 0, offset + blocks * 64, arena);
            assertEquals(
                    hashes.length, BlockedBloomKernels.addAtomic(filter, offset, blocks, 8, hashes, 0, hashes.length));
            boolean[] found = new boolean[hashes.length];
            assertEquals(
                    hashes.length,
                    BlockedBloomKernels.mightContain(filter, offset, blocks, 8, hashes, 0, hashes.length, found, 0));
            long lastBlock = offset + (blocks - 1) * 64;
            for (int w = 0; w < 8; w++) {
                assertEquals(
                        BlockedBloomKernels.wordPattern(-1, w, 8),
                        filter.get(LONG, lastBlock + 8L * w) & BlockedBloomKernels.wordPattern(-1, w, 8));
            }
            assertFalse(
                    BlockedBloomKernels.mightContain(filter, offset, blocks, 8, new long[] {1}, 0, 1, found, 0) > 0);
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
