package io.mapsketch.cardinality;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.KilledInserter;
import io.mapsketch.enginetesting.TablePairs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inserters killed with SIGKILL part-way lose no acknowledged (key, item) pair of a HyperLogLog table:
 * after each kill the table opens SHARED and EXCLUSIVE (which check its index and every key's
 * registers), and every key's registers are at least those of one {@link HyperLogLog} of the items
 * acknowledged for it; the next inserter goes on from there.
 */
class HyperLogLogTableKilledInserterTest {

    private static final int ROUNDS = 3;
    private static final int PRECISION = 8;
    private static final long SEED = 5;

    @TempDir
    Path dir;

    @Test
    void everyAcknowledgedPairSurvivesKilledInserters() throws Exception {
        Path file = dir.resolve("pages.hllt");
        HyperLogLogTable.builder()
                .precision(PRECISION)
                .capacity(TablePairs.KEYS + ROUNDS)
                .seed(SEED)
                .create(file, OpenMode.SHARED)
                .close();
        TablePairs pairs = new TablePairs();
        SplittableRandom random = new SplittableRandom(41);
        int acknowledged = 0;
        for (int round = 0; round < ROUNDS; round++) {
            acknowledged = KilledInserter.round(dir, file, acknowledged, random);
            Map<String, long[]> items = itemsByKey(pairs, acknowledged);
            for (OpenMode mode : List.of(OpenMode.SHARED, OpenMode.EXCLUSIVE)) {
                try (HyperLogLogTable table = HyperLogLogTable.open(file, mode)) {
                    String when = "after kill " + round + " (" + acknowledged + " pairs acknowledged, " + mode + ")";
                    assertTrue(table.keyCount() >= items.size(), when + ": keys " + table.keyCount());
                    for (Map.Entry<String, long[]> key : items.entrySet()) {
                        assertHolds(table, key.getKey(), key.getValue(), when);
                    }
                    table.verify();
                }
            }
        }
        try (HyperLogLogTable table = HyperLogLogTable.open(file, OpenMode.READ_ONLY)) {
            assertTrue(table.keyCounts().dense() > 0, "a hot key turned dense: " + table.keyCounts());
            assertTrue(table.keyCounts().sparse() > 0, "keys stayed sparse: " + table.keyCounts());
            System.out.println(ROUNDS + " killed inserters acknowledged " + acknowledged + " pairs, all held; "
                    + table.keyCounts());
        }
    }

    private static Map<String, long[]> itemsByKey(TablePairs pairs, int count) {
        Map<String, LongStream.Builder> items = new LinkedHashMap<>();
        for (int n = 0; n < count; n++) {
            items.computeIfAbsent(pairs.key(n), k -> LongStream.builder()).add(pairs.item(n));
        }
        Map<String, long[]> built = new LinkedHashMap<>();
        items.forEach((key, builder) -> built.put(key, builder.build().toArray()));
        return built;
    }

    private static void assertHolds(HyperLogLogTable table, String key, long[] items, String when) throws IOException {
        try (HyperLogLog hll =
                HyperLogLog.builder().precision(PRECISION).seed(SEED).createAnonymous(OpenMode.EXCLUSIVE)) {
            hll.addAll(items);
            byte[] want = HyperLogLogTablePropertiesTest.registersOf(hll);
            byte[] have = table.registers(key);
            for (int r = 0; r < want.length; r++) {
                if (Byte.toUnsignedInt(have[r]) < Byte.toUnsignedInt(want[r])) {
                    throw new AssertionError(when + ": " + key + " register " + r + " is " + have[r] + ", below "
                            + want[r] + " of its " + items.length + " acknowledged items");
                }
            }
        }
    }
}
