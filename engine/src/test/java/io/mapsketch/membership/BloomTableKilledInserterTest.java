package io.mapsketch.membership;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.KilledInserter;
import io.mapsketch.enginetesting.TablePairs;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inserters killed with SIGKILL part-way lose no acknowledged (key, item) pair of a Bloom table: after
 * each kill the table opens SHARED and EXCLUSIVE (which check its index and filter words), and every
 * acknowledged item might be in its key's filter; the next inserter goes on from there.
 */
class BloomTableKilledInserterTest {

    private static final int ROUNDS = 3;

    @TempDir
    Path dir;

    @Test
    void everyAcknowledgedPairSurvivesKilledInserters() throws Exception {
        Path file = dir.resolve("seen.bft");
        BloomTable.builder()
                .capacity(TablePairs.KEYS + ROUNDS)
                .expectedItemsPerKey(50)
                .falsePositiveRate(0.01)
                .seed(5)
                .create(file, OpenMode.SHARED)
                .close();
        TablePairs pairs = new TablePairs();
        SplittableRandom random = new SplittableRandom(42);
        int acknowledged = 0;
        for (int round = 0; round < ROUNDS; round++) {
            acknowledged = KilledInserter.round(dir, file, acknowledged, random);
            for (OpenMode mode : List.of(OpenMode.SHARED, OpenMode.EXCLUSIVE)) {
                try (BloomTable table = BloomTable.open(file, mode)) {
                    String when = "after kill " + round + " (" + acknowledged + " pairs acknowledged, " + mode + ")";
                    for (int n = 0; n < acknowledged; n++) {
                        String key = pairs.key(n);
                        long item = pairs.item(n);
                        assertTrue(table.mightContain(key, item), () -> when + ": " + key + " lost " + item);
                    }
                    table.verify();
                }
            }
        }
        System.out.println(ROUNDS + " killed inserters acknowledged " + acknowledged + " pairs, all held");
    }
}
