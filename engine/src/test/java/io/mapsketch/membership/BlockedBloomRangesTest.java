package io.mapsketch.membership;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import io.mapsketch.OpenMode;
import io.mapsketch.SketchImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlockedBloomRangesTest {

    private static final long QT_SEED = 22;
    private static final int[] RANGES = {1, 2, 5, 8};

    @TempDir
    Path dir;

    @Test
    void rangesWrittenInOrderAreTheImageOfTheWholeFilter() {
        qt().withFixedSeed(QT_SEED)
                .withExamples(40)
                .forAll(
                        lists().of(longs().all()).ofSizeBetween(0, 3_000),
                        integers().between(100, 20_000))
                .checkAssert((keys, expected) -> {
                    for (int ranges : RANGES) {
                        assertRangesGiveTheImage(keys, expected, ranges);
                    }
                });
    }

    @Test
    void rangesThatCrossPayloadChunksGiveTheImageOfTheWholeFilter() {
        List<Long> keys = new ArrayList<>();
        for (long key = 0; key < 50_000; key++) {
            keys.add(key * 0x9E3779B97F4A7C15L);
        }
        for (int ranges : new int[] {3, 8, 13}) {
            assertRangesGiveTheImage(keys, 400_000, ranges);
        }
    }

    @Test
    void eachRangeHoldsTheBlocksBetweenItsFirstAndTheNext() {
        BlockedBloomRanges split = BlockedBloomRanges.of(builder(10_000), 7);
        long blocks = split.blockCount();
        assertEquals(0, split.firstBlock(0));
        assertEquals(blocks, split.firstBlock(7));
        for (int r = 0; r < 7; r++) {
            long size = split.firstBlock(r + 1) - split.firstBlock(r);
            assertTrue(size == blocks / 7 || size == blocks / 7 + 1, "range " + r + " holds " + size);
            assertEquals(size * 64, split.newRange(r).bits().length);
        }
    }

    @Test
    void everyBlockCountSplitsAsItsFirstBlocksSay() {
        qt().withFixedSeed(QT_SEED + 1)
                .withExamples(200)
                .forAll(integers().between(1, 2_000), longs().all())
                .checkAssert((expected, hash) -> {
                    BlockedBloomRanges split = BlockedBloomRanges.of(builder(expected), 1);
                    int most = (int) Math.min(split.blockCount(), 50);
                    for (int ranges = 1; ranges <= most; ranges++) {
                        BlockedBloomRanges r = BlockedBloomRanges.of(builder(expected), ranges);
                        int range = r.rangeOf(hash);
                        long block = blockOf(hash, r.blockCount());
                        assertTrue(r.firstBlock(range) <= block && block < r.firstBlock(range + 1));
                    }
                });
    }

    @Test
    void rangeCountsOutsideTheSplitAreRefusedNamingTheRange() {
        BlockedBloomFilter.Builder builder = builder(1_000);
        long blocks = BlockedBloomRanges.of(builder, 1).blockCount();
        IllegalArgumentException none =
                assertThrows(IllegalArgumentException.class, () -> BlockedBloomRanges.of(builder, 0));
        assertTrue(none.getMessage().contains("ranges = 0, must be in [1, " + blocks + "]"), none.getMessage());
        IllegalArgumentException tooMany =
                assertThrows(IllegalArgumentException.class, () -> BlockedBloomRanges.of(builder, (int) blocks + 1));
        assertTrue(tooMany.getMessage().contains("ranges = " + (blocks + 1)), tooMany.getMessage());
    }

    @Test
    void aKeyOfAnotherRangeAndPartsOutOfOrderAreRefusedAndNothingIsWritten() throws IOException {
        BlockedBloomRanges split = BlockedBloomRanges.of(builder(10_000), 4);
        long hash = split.hash(42L);
        int range = split.rangeOf(hash);
        BlockedBloomRanges.Part other = split.newRange((range + 1) % 4);
        assertThrows(IllegalArgumentException.class, () -> other.add(hash));
        Path file = dir.resolve("out-of-order.sketch");
        List<BlockedBloomRanges.Part> swapped =
                List.of(split.newRange(1), split.newRange(0), split.newRange(2), split.newRange(3));
        IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class, () -> split.write(file, Instant.EPOCH, swapped.iterator()));
        assertTrue(refused.getMessage().contains("expected range 0"), refused.getMessage());
        List<BlockedBloomRanges.Part> short3 = List.of(split.newRange(0), split.newRange(1), split.newRange(2));
        assertThrows(IllegalArgumentException.class, () -> split.write(file, Instant.EPOCH, short3.iterator()));
        assertFalse(Files.exists(file));
        try (var leftovers = Files.list(dir)) {
            assertEquals(0, leftovers.count());
        }
        assertThrows(IllegalArgumentException.class, () -> split.part(0, 0, new byte[64]));
    }

    private void assertRangesGiveTheImage(List<Long> keys, int expected, int ranges) {
        try {
            byte[] whole;
            try (BlockedBloomFilter filter = builder(expected).createAnonymous(OpenMode.EXCLUSIVE)) {
                for (long key : keys) {
                    filter.add(key);
                }
                whole = SketchImage.toBytes(filter, Instant.EPOCH);
            }
            BlockedBloomRanges split = BlockedBloomRanges.of(builder(expected), ranges);
            List<BlockedBloomRanges.Part> parts = new ArrayList<>();
            for (int r = 0; r < ranges; r++) {
                parts.add(split.newRange(r));
            }
            for (long key : keys) {
                long hash = split.hash(key);
                parts.get(split.rangeOf(hash)).add(hash);
            }
            Path file = Files.createTempFile(dir, "ranges-" + ranges + "-", ".sketch");
            Files.delete(file);
            split.write(file, Instant.EPOCH, parts.iterator());
            assertArrayEquals(whole, Files.readAllBytes(file), ranges + " ranges");
            try (BlockedBloomFilter read = BlockedBloomFilter.open(file, OpenMode.READ_ONLY)) {
                assertEquals(keys.size(), read.itemsAdded());
                for (long key : keys) {
                    assertTrue(read.mightContain(key));
                }
            }
            Files.delete(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long blockOf(long hash, long blocks) {
        return Math.unsignedMultiplyHigh(hash, blocks);
    }

    private static BlockedBloomFilter.Builder builder(long expected) {
        return BlockedBloomFilter.builder().expectedItems(expected).falsePositiveRate(0.01);
    }
}
