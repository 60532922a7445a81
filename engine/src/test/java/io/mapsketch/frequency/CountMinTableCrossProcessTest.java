package io.mapsketch.frequency;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.KeyTableWorker;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four JVMs add to the same new keys of one mapped Count-Min table at once, each starting at another key
 * so that they meet on every key (and race for its sketch): every key has exactly one slot and one sketch,
 * whose counters are those of one {@link CountMinSketch} of every item the four added to it. The table holds
 * exactly as many sketches as keys, so a sketch lost in a race would refuse a worker's add.
 */
class CountMinTableCrossProcessTest {

    private static final int WORKERS = 4;
    private static final int KEYS = 3_000;
    private static final int ITEMS = 40;

    @TempDir
    Path dir;

    @Test
    void fourProcessesAddingToOverlappingNewKeysLoseNoCount() throws Exception {
        Path file = dir.resolve("plays.cmt");
        CountMinTable.builder()
                .capacity(KEYS)
                .dimensions(60, 3)
                .seed(11)
                .create(file, OpenMode.SHARED)
                .close();
        KeyTableWorker.addFromChildJvms(dir, file, KEYS, ITEMS, WORKERS);
        try (CountMinTable table = CountMinTable.open(file, OpenMode.READ_ONLY)) {
            assertEquals(KEYS, table.keyCount());
            assertEquals(
                    KEYS, table.keys().stream().map(Arrays::toString).distinct().count());
            assertEquals((long) KEYS * ITEMS * WORKERS, table.itemsAdded());
            assertEquals((long) KEYS * ITEMS * WORKERS, table.totalWeight());
            for (int k = 0; k < KEYS; k++) {
                try (CountMinSketch sketch =
                        CountMinSketch.builder().dimensions(60, 3).seed(11).createAnonymous(OpenMode.EXCLUSIVE)) {
                    for (long i = 0; i < (long) ITEMS * WORKERS; i++) {
                        sketch.add((long) k * ITEMS * WORKERS + i);
                    }
                    assertArrayEquals(
                            sketch.counterTable(), table.counterTable(KeyTableWorker.key(k)), KeyTableWorker.key(k));
                }
            }
        }
    }
}
