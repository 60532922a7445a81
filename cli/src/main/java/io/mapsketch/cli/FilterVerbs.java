package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.membership.MembershipFilter;
import java.io.IOException;
import java.io.PrintWriter;

/**
 * What the Bloom ({@code bf}) and cuckoo ({@code cf}) verbs share, for any membership filter file:
 * adding items as a shared writer with Redis's replies, and answering 1 or 0 per item. The verbs and
 * {@code mapsketch pipe} call the same methods on an open filter. Items are UTF-8 bytes, except for a
 * filter of Guava's long funnel, whose items are decimal {@code long}s ({@link LongItems}).
 */
final class FilterVerbs {

    private FilterVerbs() {}

    /** Opens the filter file as a shared writer and {@linkplain #add(MembershipFilter, FileAndItems, CommandIo) adds} the items. */
    static void add(FileAndItems input, CommandIo io) throws IOException {
        try (MembershipFilter filter = MembershipFilter.open(input.file(), OpenMode.SHARED)) {
            add(filter, input, io);
        }
    }

    /**
     * Adds every item, one at a time, to the open filter and prints BF.ADD's reply per item
     * ({@link #added}). An item refused (a full cuckoo filter) stops the verb there.
     */
    static void add(MembershipFilter filter, FileAndItems input, CommandIo io) {
        PrintWriter out = io.out();
        input.each(io.forAnswers(), (bytes, offset, length) -> out.println(added(filter, bytes, offset, length)));
    }

    /**
     * Adds one item and returns BF.ADD's reply: 1 if the add changed a bit or counter (the item was
     * certainly new), 0 if not (it was added before, or is a false positive).
     */
    static int added(MembershipFilter filter, byte[] bytes, int offset, int length) {
        boolean changed = LongItems.takesLongs(filter)
                ? filter.add(LongItems.parse(bytes, offset, length))
                : filter.add(bytes, offset, length);
        return changed ? 1 : 0;
    }

    /** Opens the filter file read-only and {@linkplain #exists(MembershipFilter, FileAndItems, CommandIo) answers} the items. */
    static void exists(FileAndItems input, CommandIo io) throws IOException {
        try (MembershipFilter filter = MembershipFilter.open(input.file(), OpenMode.READ_ONLY)) {
            exists(filter, input, io);
        }
    }

    /**
     * Prints 1 if the filter may contain the item, 0 if it certainly does not, one line per item;
     * the items are looked up in batches ({@link #lookUp}).
     */
    static void exists(MembershipFilter filter, FileAndItems input, CommandIo io) {
        PrintWriter out = io.out();
        boolean[][] results = {new boolean[0]};
        input.eachBatch(io.forAnswers(), (data, offsets, lengths, count) -> {
            if (results[0].length < count) {
                results[0] = new boolean[count];
            }
            lookUp(filter, data, offsets, lengths, count, results[0]);
            for (int i = 0; i < count; i++) {
                out.println(results[0][i] ? 1 : 0);
            }
        });
    }

    /**
     * Looks up {@code count} items ({@link Items.BatchSink}'s shape) into {@code results}: one item with
     * the single-key lookup, which needs no batch machinery, more with the batch lookup (decimal
     * {@code long}s one by one).
     */
    static void lookUp(
            MembershipFilter filter, byte[] data, int[] offsets, int[] lengths, int count, boolean[] results) {
        if (LongItems.takesLongs(filter)) {
            for (int i = 0; i < count; i++) {
                results[i] = filter.mightContain(LongItems.parse(data, offsets[i], lengths[i]));
            }
        } else if (count == 1) {
            results[0] = filter.mightContain(data, offsets[0], lengths[0]);
        } else {
            filter.mightContainAll(data, offsets, lengths, count, results);
        }
    }
}
