package io.mapsketch.cardinality;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.KeyTableWorker;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four JVMs insert the same new keys into one mapped table at once, each starting at another key so
 * that they meet on every key: every key has exactly one slot, and its registers are those of one
 * {@link HyperLogLog} of every item the four added to it.
 */
class HyperLogLogTableCrossProcessTest {

    private static final int WORKERS = 4;
    private static final int KEYS = 3_000;
    private static final int ITEMS = 40;

    @TempDir
    Path dir;

    @Test
    void fourProcessesInsertingOverlappingNewKeysGiveEachKeyOneSketchWithEveryItem() throws Exception {
        Path file = dir.resolve("pages.hllt");
        HyperLogLogTable.builder()
                .precision(12)
                .capacity(KEYS)
                .bytesPerKey(2_048)
                .seed(11)
                .create(file, OpenMode.SHARED)
                .close();
        KeyTableWorker.addFromChildJvms(dir, file, KEYS, ITEMS, WORKERS);
        try (HyperLogLogTable table = HyperLogLogTable.open(file, OpenMode.READ_ONLY)) {
            assertEquals(KEYS, table.keyCounts().keys());
            assertEquals(
                    KEYS, table.keys().stream().map(Arrays::toString).distinct().count());
            assertEquals((long) KEYS * ITEMS * WORKERS, table.itemsAdded());
            for (int k = 0; k < KEYS; k++) {
                try (HyperLogLog hll =
                        HyperLogLog.builder().precision(12).seed(11).createAnonymous(OpenMode.EXCLUSIVE)) {
                    for (long i = 0; i < (long) ITEMS * WORKERS; i++) {
                        hll.add((long) k * ITEMS * WORKERS + i);
                    }
                    assertArrayEquals(
                            HyperLogLogTablePropertiesTest.registersOf(hll),
                            table.registers(KeyTableWorker.key(k)),
                            KeyTableWorker.key(k));
                }
            }
        }
    }
}
