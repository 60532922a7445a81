package io.mapsketch.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mapsketch.memory.AccessMode;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the items and weight counters in the file follow an exclusive writer's adds and removes. */
class ItemsCounterTest {

    @TempDir
    Path dir;

    @Test
    void anExclusiveWriterPublishesItsCountInStepsAndOnForceAndClose() throws IOException {
        Path file = dir.resolve("counted.cbf");
        try (CountingBloomFilter writer = CountingBloomFilter.builder().expectedItems(10_000).falsePositiveRate(0.01)
                .create(file, AccessMode.EXCLUSIVE);
             SketchRegion reader = SketchRegion.open(file, AccessMode.READ_ONLY)) {
            for (long key = 0; key < 5_000; key++) {
                writer.add(key);
            }
            assertEquals(5_000, writer.itemsAdded(), "the writer's own view is exact");
            assertEquals(RegionSketch.PUBLISH_EVERY, reader.itemsAdded(), "the file lags by less than a step");
            writer.force();
            assertEquals(5_000, reader.itemsAdded());
            for (long key = 0; key < 10; key++) {
                writer.remove(key);
            }
            assertEquals(4_990, writer.itemsAdded());
            assertEquals(5_000, reader.itemsAdded());
        }
        try (SketchRegion reopened = SketchRegion.open(file, AccessMode.READ_ONLY)) {
            assertEquals(4_990, reopened.itemsAdded(), "close publishes the rest");
        }
    }

    @Test
    void anExclusiveCountMinWriterPublishesNWithItsItems() throws IOException {
        Path file = dir.resolve("weighted.cms");
        try (CountMinSketch writer = CountMinSketch.builder().epsilon(0.01).delta(0.01)
                .create(file, AccessMode.EXCLUSIVE);
             SketchRegion reader = SketchRegion.open(file, AccessMode.READ_ONLY)) {
            for (long key = 0; key < 5_000; key++) {
                writer.add(key, 3);
            }
            assertEquals(15_000, writer.totalWeight(), "the writer's own view of N is exact");
            assertEquals(3 * RegionSketch.PUBLISH_EVERY, reader.totalWeight(), "published with the items counter");
            assertEquals(150, writer.errorBound());
            writer.force();
            assertEquals(15_000, reader.totalWeight());
            writer.add(7, 5);
        }
        try (CountMinSketch reopened = CountMinSketch.open(file, AccessMode.EXCLUSIVE)) {
            assertEquals(15_005, reopened.totalWeight(), "close publishes the rest, and a new writer starts from it");
            reopened.add(8, 10);
            assertEquals(15_015, reopened.totalWeight());
        }
        try (SketchRegion reopened = SketchRegion.open(file, AccessMode.READ_ONLY)) {
            assertEquals(15_015, reopened.totalWeight());
        }
    }

    @Test
    void sharedWritersCountInTheFileAtOnce() throws IOException {
        Path file = dir.resolve("shared.bbf");
        try (BlockedBloomFilter writer = BlockedBloomFilter.builder().expectedItems(1_000).falsePositiveRate(0.01)
                .create(file, AccessMode.SHARED);
             SketchRegion reader = SketchRegion.open(file, AccessMode.READ_ONLY)) {
            writer.add(1);
            writer.addAll(new long[] {2, 3});
            assertEquals(3, reader.itemsAdded());
        }
    }
}
