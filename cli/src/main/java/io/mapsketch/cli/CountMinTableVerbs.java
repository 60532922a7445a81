package io.mapsketch.cli;

import io.mapsketch.frequency.CountMinTable;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * What {@code table incrby} and {@code table query} do with an open Count-Min table: CMS.INCRBY and
 * CMS.QUERY on one key's sketch, each item's estimate printed on a line of its own with the mark of a
 * saturated one ({@link Saturation}).
 */
final class CountMinTableVerbs {

    private CountMinTableVerbs() {}

    /**
     * Adds each pair's count ({@link CountMinCommands#counts}, checked before) to the key's sketch and prints
     * each item's new estimate. Counts that would take the table's total N past its limit are refused before
     * anything is added.
     */
    static void incrby(CountMinTable table, Path file, String key, List<String> pairs, long[] counts, CommandIo io) {
        CountMinCommands.requireRoom(file, table.totalWeight(), counts);
        PrintWriter out = io.out();
        Saturation saturation = new Saturation(file, table, key.getBytes(StandardCharsets.UTF_8), "table create");
        try {
            for (int i = 0; i < counts.length; i++) {
                String item = pairs.get(2 * i);
                long estimate;
                try {
                    estimate = table.add(key, item, counts[i]);
                } catch (IllegalArgumentException refused) {
                    throw Items.stopped(file, "pair " + (i + 1), refused.getMessage(), i, "pair");
                }
                saturation.added(item, estimate);
                out.println(saturation.text(estimate));
            }
        } finally {
            saturation.report(io.err());
        }
    }

    /** Prints the estimate of each item in the key's sketch, 0 for a key not in the table. */
    static void query(CountMinTable table, String key, List<String> items, CommandIo io) {
        PrintWriter out = io.out();
        for (String item : items) {
            out.println(Saturation.text(table.estimate(key, item), table.maxEstimate(), table.counterBits()));
        }
    }
}
