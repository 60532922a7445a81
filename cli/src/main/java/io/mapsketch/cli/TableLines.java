package io.mapsketch.cli;

import io.mapsketch.TableFullException;
import io.mapsketch.frequency.CountMinTable;
import io.mapsketch.internal.KeyTable;
import io.mapsketch.memory.LiveCounters;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * Lines of standard input as the pairs or triples of a table's batch add: {@code KEY<TAB>ITEM} for
 * {@code table add} ({@link KeyTable#addAll}), {@code KEY<TAB>ITEM<TAB>COUNT} for {@code table incrby}
 * ({@link CountMinTable#addAll}; the item ends at the line's last tab). Each chunk of lines
 * ({@link Items#eachBatch}) is one batch, split in place, no line copied. A line refused (a field missing,
 * a new key the full table has no room for; for {@code incrby} also a COUNT not a whole number of at least
 * 1 or past the total's limit, or a triple the table refuses) stops the verb with its line number and the
 * fault, the lines before it added, none after it.
 */
final class TableLines {

    private final Path file;
    private final boolean counted;
    private int[] keyLengths = new int[0];
    private int[] itemOffsets = new int[0];
    private int[] itemLengths = new int[0];
    private long[] counts = new long[0];
    private long[] estimates = new long[0];
    private long done;
    private String fault;

    private TableLines(Path file, boolean counted) {
        this.file = file;
        this.counted = counted;
    }

    /**
     * {@code table add TABLE}: adds every line {@code KEY<TAB>ITEM} of standard input.
     *
     * @return whether a key's sketch changed
     */
    static boolean add(Path file, KeyTable table, CommandIo io) {
        TableLines lines = new TableLines(file, false);
        boolean[] changed = {false};
        Items.eachBatch(file, List.of(), io, (data, offsets, lengths, count) -> {
            int valid = lines.split(data, offsets, lengths, count);
            try {
                changed[0] |=
                        table.addAll(data, offsets, lines.keyLengths, lines.itemOffsets, lines.itemLengths, valid);
            } catch (TableFullException full) {
                int added = (int) full.pairsAdded().orElseThrow();
                lines.fault = full.getMessage();
                lines.added(added, added + 1);
            }
            lines.added(valid, count);
        });
        return changed[0];
    }

    /**
     * {@code table incrby TABLE}: adds every line {@code KEY<TAB>ITEM<TAB>COUNT} of standard input and prints
     * each line's new estimate ({@link Saturation#text}), one per line, in the order of the lines.
     */
    static void incrby(Path file, CountMinTable table, CommandIo io) {
        TableLines lines = new TableLines(file, true);
        PrintWriter out = io.out();
        Saturation saturation = new Saturation(file, table, "table create");
        try {
            Items.eachBatch(file, List.of(), io, (data, offsets, lengths, count) -> {
                int valid = lines.withinRoom(table.totalWeight(), lines.split(data, offsets, lengths, count));
                long[] estimates = lines.estimates;
                int added = valid;
                RuntimeException refused = null;
                try {
                    table.addAll(
                            data,
                            offsets,
                            lines.keyLengths,
                            lines.itemOffsets,
                            lines.itemLengths,
                            lines.counts,
                            valid,
                            estimates);
                } catch (IllegalArgumentException | TableFullException e) {
                    // The triples are added in order and an estimate after an add is at least 1.
                    added = 0;
                    while (added < valid && estimates[added] != 0) {
                        added++;
                    }
                    refused = e;
                }
                for (int i = 0; i < added; i++) {
                    saturation.added(
                            data,
                            offsets[i],
                            lines.keyLengths[i],
                            lines.itemOffsets[i],
                            lines.itemLengths[i],
                            estimates[i]);
                    out.println(saturation.text(estimates[i]));
                }
                if (refused != null) {
                    lines.fault = refused.getMessage();
                    lines.added(added, added + 1);
                }
                lines.added(valid, count);
            });
        } finally {
            saturation.report(io.err());
        }
    }

    /**
     * Splits the first lines of a batch into their fields, up to the first that lacks one (or whose COUNT is
     * not a whole number of at least 1), whose fault it keeps.
     *
     * @return how many lines from the first are whole
     */
    private int split(byte[] data, int[] offsets, int[] lengths, int count) {
        if (keyLengths.length < count) {
            int size = Math.max(count, 2 * keyLengths.length);
            keyLengths = new int[size];
            itemOffsets = new int[size];
            itemLengths = new int[size];
            counts = new long[size];
            estimates = new long[size];
        }
        for (int i = 0; i < count; i++) {
            int from = offsets[i];
            int to = from + lengths[i];
            int tab = firstTab(data, from, to);
            if (tab < 0) {
                fault = counted
                        ? "no tab after KEY; lines are KEY<TAB>ITEM<TAB>COUNT"
                        : "no tab between KEY and ITEM; lines are KEY<TAB>ITEM";
                return i;
            }
            keyLengths[i] = tab - from;
            itemOffsets[i] = tab + 1;
            int itemEnd = to;
            if (counted) {
                itemEnd = lastTab(data, tab + 1, to);
                if (itemEnd < 0) {
                    fault = "no tab between ITEM and COUNT; lines are KEY<TAB>ITEM<TAB>COUNT";
                    return i;
                }
                counts[i] = count(data, itemEnd + 1, to);
                if (counts[i] < 1) {
                    return i;
                }
                estimates[i] = 0;
            }
            itemLengths[i] = itemEnd - tab - 1;
        }
        return count;
    }

    /**
     * The lines from the first of the {@code valid} whose counts fit the room the total N = {@code weight}
     * leaves; the first that does not is refused with the total it would reach.
     */
    private int withinRoom(long weight, int valid) {
        long room = LiveCounters.LIMIT - weight;
        for (int i = 0; i < valid; i++) {
            if (counts[i] > room) {
                fault = "COUNT " + counts[i] + " would take the total N = " + (LiveCounters.LIMIT - room) + " past "
                        + LiveCounters.LIMIT + " (2^63 - 2^55 - 1)";
                return i;
            }
            room -= counts[i];
        }
        return valid;
    }

    /** Counts the {@code added} lines of a batch of {@code count}; if fewer, refuses the next one with the fault. */
    private void added(int added, int count) {
        done += added;
        if (added < count) {
            throw Items.stopped(file, "standard input line " + (done + 1), fault, done, "line");
        }
    }

    /**
     * The COUNT {@code data[from, to)}: digits, or else what {@link Long#parseLong} takes; 0 with the fault
     * kept if it is not a whole number of at least 1.
     */
    private long count(byte[] data, int from, int to) {
        long value = 0;
        int i = from;
        for (; i < to && i - from < 18 && data[i] >= '0' && data[i] <= '9'; i++) {
            value = 10 * value + data[i] - '0';
        }
        if (i == to && i > from && value >= 1) {
            return value;
        }
        String text = new String(data, from, to - from, StandardCharsets.UTF_8);
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            fault = "COUNT '" + text + "' is not a whole number";
            return 0;
        }
        if (value < 1) {
            fault = "COUNT " + text + " must be at least 1";
            return 0;
        }
        return value;
    }

    private static int firstTab(byte[] data, int from, int to) {
        for (int i = from; i < to; i++) {
            if (data[i] == '\t') {
                return i;
            }
        }
        return -1;
    }

    private static int lastTab(byte[] data, int from, int to) {
        for (int i = to - 1; i >= from; i--) {
            if (data[i] == '\t') {
                return i;
            }
        }
        return -1;
    }
}
