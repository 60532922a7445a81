package io.mapsketch.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mapsketch.memory.AccessMode;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the items counter in the file follows an exclusive writer's adds and removes. */
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
