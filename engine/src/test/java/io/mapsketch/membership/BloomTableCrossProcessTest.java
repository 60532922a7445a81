package io.mapsketch.membership;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.KeyTableWorker;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four JVMs insert the same new keys into one mapped Bloom table at once, each starting at another key
 * so that they meet on every key (and race for its filter): every key has exactly one slot and one
 * filter, whose bits are those of one {@link BlockedBloomFilter} of every item the four added to it. The
 * table holds exactly as many filters as keys, so a filter lost in a race would refuse a worker's add.
 */
class BloomTableCrossProcessTest {

    private static final int WORKERS = 4;
    private static final int KEYS = 3_000;
    private static final int ITEMS = 40;

    @TempDir
    Path dir;

    @Test
    void fourProcessesInsertingOverlappingNewKeysGiveEachKeyOneFilterWithEveryItem() throws Exception {
        Path file = dir.resolve("seen.bft");
        BloomTable.builder()
                .capacity(KEYS)
                .expectedItemsPerKey(ITEMS * WORKERS)
                .falsePositiveRate(0.01)
                .seed(11)
                .create(file, OpenMode.SHARED)
                .close();
        KeyTableWorker.addFromChildJvms(dir, file, KEYS, ITEMS, WORKERS);
        try (BloomTable table = BloomTable.open(file, OpenMode.READ_ONLY)) {
            assertEquals(KEYS, table.keyCount());
            assertEquals(
                    KEYS, table.keys().stream().map(Arrays::toString).distinct().count());
            assertEquals((long) KEYS * ITEMS * WORKERS, table.itemsAdded());
            for (int k = 0; k < KEYS; k++) {
                try (BlockedBloomFilter filter = BlockedBloomFilter.builder()
                        .expectedItems(ITEMS * WORKERS)
                        .falsePositiveRate(0.01)
                        .seed(11)
                        .createAnonymous(OpenMode.EXCLUSIVE)) {
                    for (long i = 0; i < (long) ITEMS * WORKERS; i++) {
                        filter.add((long) k * ITEMS * WORKERS + i);
                    }
                    assertArrayEquals(
                            BloomTablePropertiesTest.wordsOf(filter),
                            table.filterWords(KeyTableWorker.key(k)),
                            KeyTableWorker.key(k));
                }
            }
        }
    }
}
