package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.membership.MembershipFilter;
import java.io.IOException;
import java.io.PrintWriter;

/**
 * What the Bloom ({@code bf}) and cuckoo ({@code cf}) verbs share, for any membership filter file:
 * adding items as a shared writer with Redis's replies, and answering 1 or 0 per item. Items are UTF-8
 * bytes, except for a filter of Guava's long funnel, whose items are decimal {@code long}s ({@link LongItems}).
 */
final class FilterVerbs {

    private FilterVerbs() {}

    /**
     * Adds every item, one at a time, to the filter file, opened as a shared writer, and prints BF.ADD's
     * reply per item: 1 if the add changed a bit or counter (the item was certainly new), 0 if not (it was
     * added before, or is a false positive). An item refused (a full cuckoo filter) stops the verb there.
     */
    static void add(FileAndItems input, CommandIo io) throws IOException {
        PrintWriter out = io.out();
        try (MembershipFilter filter = MembershipFilter.open(input.file(), OpenMode.SHARED)) {
            if (LongItems.takesLongs(filter)) {
                input.each(
                        io.forAnswers(),
                        (bytes, offset, length) ->
                                out.println(filter.add(LongItems.parse(bytes, offset, length)) ? 1 : 0));
                return;
            }
            input.each(
                    io.forAnswers(), (bytes, offset, length) -> out.println(filter.add(bytes, offset, length) ? 1 : 0));
        }
    }

    /**
     * Prints 1 if the filter may contain the item, 0 if it certainly does not, one line per item;
     * the items are looked up in batches.
     */
    static void exists(FileAndItems input, CommandIo io) throws IOException {
        PrintWriter out = io.out();
        try (MembershipFilter filter = MembershipFilter.open(input.file(), OpenMode.READ_ONLY)) {
            if (LongItems.takesLongs(filter)) {
                input.each(
                        io.forAnswers(),
                        (bytes, offset, length) ->
                                out.println(filter.mightContain(LongItems.parse(bytes, offset, length)) ? 1 : 0));
                return;
            }
            boolean[][] results = {new boolean[0]};
            input.eachBatch(io.forAnswers(), (data, offsets, lengths, count) -> {
                if (results[0].length < count) {
                    results[0] = new boolean[count];
                }
                filter.mightContainAll(data, offsets, lengths, count, results[0]);
                for (int i = 0; i < count; i++) {
                    out.println(results[0][i] ? 1 : 0);
                }
            });
        }
    }
}
