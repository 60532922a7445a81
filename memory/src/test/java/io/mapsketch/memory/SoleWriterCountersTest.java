package io.mapsketch.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The exclusive writer's plain counters: in the file at once, from where the file left them, for that writer only. */
class SoleWriterCountersTest {

    @TempDir
    Path dir;

    @Test
    void everyUpdateIsInTheFileAtOnceAndStartsFromTheFilesCount() throws IOException {
        Path file = SketchFiles.create(dir.resolve("counted.sketch"), SketchFiles.header(TestKinds.COUNT_MIN, 4096));
        try (SketchRegion earlier = SketchRegions.open(file, RegionMode.EXCLUSIVE)) {
            earlier.addItems(5);
            earlier.addWeight(50);
        }
        try (SketchRegion writer = SketchRegions.open(file, RegionMode.EXCLUSIVE);
                SketchRegion reader = SketchRegions.open(file, RegionMode.READ_ONLY)) {
            SoleWriterCounters counters = writer.soleWriterCounters();
            assertEquals(50, counters.weight(), "the copy starts from the file");
            counters.addItemsAndWeight(1, 7);
            assertEquals(6, reader.itemsAdded(), "another mapping sees the stores without a force");
            assertEquals(57, reader.totalWeight());
            counters.addItems(-2);
            assertEquals(4, reader.itemsAdded());
            assertEquals(4, writer.itemsAdded());
            writer.addItems(5);
            assertEquals(9, writer.itemsAdded(), "the region's own release-store path sees the same counter");
        }
        try (SketchRegion reopened = SketchRegions.open(file, RegionMode.READ_ONLY)) {
            assertEquals(9, reopened.itemsAdded());
            assertEquals(57, reopened.totalWeight());
        }
    }

    @Test
    void onlyAnOpenExclusiveWriterHasThem() throws IOException {
        Path file = SketchFiles.create(dir.resolve("modes.sketch"), SketchFiles.header(TestKinds.COUNT_MIN, 4096));
        for (RegionMode mode : new RegionMode[] {RegionMode.SHARED, RegionMode.READ_ONLY}) {
            try (SketchRegion region = SketchRegions.open(file, mode)) {
                IllegalStateException e = assertThrows(IllegalStateException.class, region::soleWriterCounters);
                assertTrue(e.getMessage().contains("is open " + mode), e.getMessage());
            }
        }
        SketchRegion writer = SketchRegions.open(file, RegionMode.EXCLUSIVE);
        SoleWriterCounters counters = writer.soleWriterCounters();
        writer.close();
        assertThrows(IllegalStateException.class, () -> counters.addItems(1), "a closed region's counters");
        assertThrows(IllegalStateException.class, writer::soleWriterCounters);
    }
}
