package io.mapsketch.cli;

import io.mapsketch.internal.KeyTable;
import java.nio.file.Path;

/**
 * Lines {@code KEY<TAB>ITEM} of standard input as (key, item) pairs of a table: each batch of lines goes
 * to {@link KeyTable#addAll} as one batch of pairs; a line without a tab stops the verb, the lines
 * before it added.
 */
final class TableLines {

    private TableLines() {}

    /** Adds the lines {@code data[offsets[i], offsets[i] + lengths[i])}; sets {@code changed[0]} if a key's sketch changed. */
    static void add(
            Path file, KeyTable table, byte[] data, int[] offsets, int[] lengths, int count, boolean[] changed) {
        int[] itemOffsets = new int[count];
        int[] itemLengths = new int[count];
        int[] keyLengths = new int[count];
        for (int i = 0; i < count; i++) {
            int tab = tab(data, offsets[i], offsets[i] + lengths[i]);
            if (tab < 0) {
                if (i > 0) {
                    addPairs(table, data, offsets, keyLengths, itemOffsets, itemLengths, i, changed);
                }
                throw new CommandFailure(file + ": a line of standard input has no tab between KEY and ITEM;"
                        + " the lines before it were added");
            }
            keyLengths[i] = tab - offsets[i];
            itemOffsets[i] = tab + 1;
            itemLengths[i] = offsets[i] + lengths[i] - tab - 1;
        }
        addPairs(table, data, offsets, keyLengths, itemOffsets, itemLengths, count, changed);
    }

    private static void addPairs(
            KeyTable table,
            byte[] data,
            int[] keyOffsets,
            int[] keyLengths,
            int[] itemOffsets,
            int[] itemLengths,
            int count,
            boolean[] changed) {
        changed[0] |= table.addAll(data, keyOffsets, keyLengths, itemOffsets, itemLengths, count);
    }

    private static int tab(byte[] data, int from, int to) {
        for (int i = from; i < to; i++) {
            if (data[i] == '\t') {
                return i;
            }
        }
        return -1;
    }
}
