package io.mapsketch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.CountingBloomFilter;
import io.mapsketch.memory.RegionMode;
import io.mapsketch.memory.SketchRegion;
import io.mapsketch.memory.SketchRegions;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the items and weight counters in the file follow an exclusive writer's adds and removes. */
class ItemsCounterTest {

    @TempDir
    Path dir;

    @Test
    void anExclusiveWriterCountsInTheFileAtOnce() throws IOException {
        Path file = dir.resolve("counted.cbf");
        try (CountingBloomFilter writer = CountingBloomFilter.builder()
                        .expectedItems(10_000)
                        .falsePositiveRate(0.01)
                        .create(file, OpenMode.EXCLUSIVE);
                SketchRegion reader = SketchRegions.open(file, RegionMode.READ_ONLY)) {
            for (long key = 0; key < 5_000; key++) {
                writer.add(key);
            }
            assertEquals(5_000, writer.itemsAdded());
            assertEquals(5_000, reader.itemsAdded(), "another mapping of the file sees every add");
            for (long key = 0; key < 10; key++) {
                writer.remove(key);
            }
            assertEquals(4_990, writer.itemsAdded());
            assertEquals(4_990, reader.itemsAdded(), "removes are counted down as they happen");
        }
        try (SketchRegion reopened = SketchRegions.open(file, RegionMode.READ_ONLY)) {
            assertEquals(4_990, reopened.itemsAdded());
        }
    }

    @Test
    void anExclusiveCountMinWriterCountsNInTheFileAtOnce() throws IOException {
        Path file = dir.resolve("weighted.cms");
        try (CountMinSketch writer =
                        CountMinSketch.builder().epsilon(0.01).delta(0.01).create(file, OpenMode.EXCLUSIVE);
                SketchRegion reader = SketchRegions.open(file, RegionMode.READ_ONLY)) {
            for (long key = 0; key < 5_000; key++) {
                writer.add(key, 3);
            }
            assertEquals(15_000, writer.totalWeight());
            assertEquals(15_000, reader.totalWeight(), "another mapping of the file sees every add");
            assertEquals(5_000, reader.itemsAdded());
            assertEquals(150, writer.errorBound());
            writer.add(7, 5);
        }
        try (CountMinSketch reopened = CountMinSketch.open(file, OpenMode.EXCLUSIVE)) {
            assertEquals(15_005, reopened.totalWeight(), "a new writer starts from the file's N");
            reopened.add(8, 10);
            assertEquals(15_015, reopened.totalWeight());
        }
        try (SketchRegion reopened = SketchRegions.open(file, RegionMode.READ_ONLY)) {
            assertEquals(15_015, reopened.totalWeight());
        }
    }

    @Test
    void sharedWritersCountInTheFileAtOnce() throws IOException {
        Path file = dir.resolve("shared.bbf");
        try (BlockedBloomFilter writer = BlockedBloomFilter.builder()
                        .expectedItems(1_000)
                        .falsePositiveRate(0.01)
                        .create(file, OpenMode.SHARED);
                SketchRegion reader = SketchRegions.open(file, RegionMode.READ_ONLY)) {
            writer.add(1);
            writer.addAll(new long[] {2, 3});
            assertEquals(3, reader.itemsAdded());
        }
    }
}
