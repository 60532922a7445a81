package io.mapsketch.membership;

import static io.mapsketch.enginetesting.FalsePositives.measuredFalsePositiveRate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The blocked layout: the contract, plus its Poisson-mixture sizing. */
class BlockedBloomFilterTest extends MembershipFilterContract<BlockedBloomFilter> {

    @Override
    FilterBuilder<?, BlockedBloomFilter> builder() {
        return BlockedBloomFilter.builder();
    }

    @Override
    BlockedBloomFilter open(Path file, OpenMode mode) throws IOException {
        return BlockedBloomFilter.open(file, mode);
    }

    @Override
    void merge(BlockedBloomFilter into, BlockedBloomFilter from) {
        into.merge(from);
    }

    @Override
    SketchKind kind() {
        return SketchKind.BLOCKED_BLOOM;
    }

    @Test
    void sizingAccountsForUnevenBlockLoads() throws IOException {
        try (BlockedBloomFilter onePercent = anonymous(1_000_000, 0.01, OpenMode.EXCLUSIVE);
                BlockedBloomFilter onePerMille = anonymous(1_000_000, 0.001, OpenMode.EXCLUSIVE);
                BlockedBloomFilter tiny = anonymous(1_000_000, 1e-5, OpenMode.EXCLUSIVE)) {
            assertEquals(10.1, onePercent.blockCount() * 512 / 1e6, 0.05, "bits per item at 1%");
            assertEquals(8, onePercent.bitsPerKey());
            assertEquals(15.7, onePerMille.blockCount() * 512 / 1e6, 0.05, "bits per item at 0.1%");
            assertEquals(16, tiny.bitsPerKey(), "two bits per word pay off at very low rates");
        }
        assertEquals(
                0.0105,
                BlockedBloomSizing.falsePositiveRate(1_000, 8, 51_200),
                0.0001,
                "10 bits per key: 1.05% where the classic filter has 0.82%");
    }

    @Test
    void sixteenBitPatternsMeetTheirRate() throws IOException {
        int items = 20_000;
        try (BlockedBloomFilter filter = anonymous(items, 1e-4, OpenMode.EXCLUSIVE)) {
            assertEquals(16, filter.bitsPerKey());
            filter.addAll(new SplittableRandom(2).longs(items).toArray());
            double measured = measuredFalsePositiveRate(filter, 4_000_000, 3);
            assertEquals(1e-4, measured, 1e-4 * 0.15, "measured " + measured);
        }
    }

    @Test
    void mergeRefusesAnotherShapeNamingIt() throws IOException {
        try (BlockedBloomFilter a = anonymous(1_000, 0.01, OpenMode.EXCLUSIVE);
                BlockedBloomFilter wider = anonymous(20_000, 0.01, OpenMode.EXCLUSIVE)) {
            IncompatibleSketchException e = assertThrows(IncompatibleSketchException.class, () -> a.merge(wider));
            assertTrue(e.getMessage().startsWith("sketches differ in blocks: "), e.getMessage());
        }
    }
}
