package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchKind;
import io.mapsketch.membership.CuckooFilter;
import io.mapsketch.membership.KeyNotPresentException;
import io.mapsketch.membership.MembershipFilter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code mapsketch cf}: cuckoo filters, "is X in the set?" with false positives only, and removal. */
@Command(
        name = "cf",
        description = "Cuckoo filters: is X in the set? (false positives only); items can be removed",
        subcommands = FamilyInfo.class)
final class CuckooCommands implements SketchFamily {

    @ParentCommand
    private MapsketchCommand root;

    @Command(
            name = "create",
            description = "Creates an empty cuckoo filter for N items: buckets of 4 fingerprints"
                    + " of 8, 12 or 16 bits, chosen from the false-positive rate.",
            footer = {"%nExample:%n  mapsketch cf create sessions.cf --capacity 1000000 --error-rate 0.001"})
    int create(
            @Parameters(paramLabel = "FILE", description = "The file to create.") Path file,
            @Option(
                            names = "--capacity",
                            paramLabel = "N",
                            required = true,
                            description =
                                    "Items the filter holds; adds may be refused beyond it (the table is then full).")
                    long capacity,
            @Option(
                            names = "--error-rate",
                            paramLabel = "P",
                            defaultValue = "0.01",
                            description = "False-positive rate wanted, in [1.22e-4, 1) (default: ${DEFAULT-VALUE}).")
                    double errorRate,
            @Mixin CreateOptions options)
            throws IOException {
        options.create(file, CuckooFilter.builder().expectedItems(capacity).falsePositiveRate(errorRate));
        return 0;
    }

    @Command(
            name = "add",
            description = {
                "Adds items and prints 1 per item (CF.ADD); an item added again is stored again, up to 8"
                        + " copies. Any number of processes may add to one file at once. A full filter refuses the item"
                        + " (exit 1, naming its position) and keeps everything added before it.",
                "With no ITEM, adds each line of standard input."
            },
            footer = {"%nExample:%n  mapsketch cf add sessions.cf 3f2a91 77c0de"})
    int add(@Mixin FileAndItems input) throws IOException {
        try (CuckooFilter filter = CuckooFilter.open(input.file(), OpenMode.SHARED)) {
            add(filter, input, root.io());
        }
        return 0;
    }

    /** CF.ADD on an open filter: adds each item and prints 1; a full filter refuses the item. */
    static void add(CuckooFilter filter, FileAndItems input, CommandIo io) {
        PrintWriter out = io.out();
        input.each(io.forAnswers(), (bytes, offset, length) -> {
            filter.add(bytes, offset, length);
            out.println(1);
        });
    }

    @Command(
            name = "addnx",
            description = {
                "Adds each item only if the filter does not report it present, and prints 1 if it was added,"
                        + " 0 if it was there (or is a false positive) (CF.ADDNX). The check and the add are one"
                        + " step under the filter's lock: of processes adding one new item at once, one adds it.",
                "With no ITEM, adds each line of standard input."
            },
            footer = {"%nExample:%n  mapsketch cf addnx sessions.cf 3f2a91"})
    int addnx(@Mixin FileAndItems input) throws IOException {
        try (CuckooFilter filter = CuckooFilter.open(input.file(), OpenMode.SHARED)) {
            addnx(filter, input, root.io());
        }
        return 0;
    }

    /** CF.ADDNX on an open filter: prints 1 per item added, 0 per item it reported present. */
    static void addnx(CuckooFilter filter, FileAndItems input, CommandIo io) {
        PrintWriter out = io.out();
        input.each(
                io.forAnswers(),
                (bytes, offset, length) -> out.println(filter.addIfAbsent(bytes, offset, length) ? 1 : 0));
    }

    @Command(
            name = "count",
            description = {
                "Prints, per item, how many copies of its fingerprint the filter holds (CF.COUNT): the times it"
                        + " was added and not removed, more if another item shares its fingerprint and buckets.",
                "With no ITEM, answers each line of standard input."
            },
            footer = {"%nExample:%n  mapsketch cf count sessions.cf 3f2a91"})
    int count(@Mixin FileAndItems input) throws IOException {
        try (CuckooFilter filter = CuckooFilter.open(input.file(), OpenMode.READ_ONLY)) {
            count(filter, input, root.io());
        }
        return 0;
    }

    /** CF.COUNT on an open filter: prints the copies of each item's fingerprint in its buckets. */
    static void count(CuckooFilter filter, FileAndItems input, CommandIo io) {
        PrintWriter out = io.out();
        input.each(io.forAnswers(), (bytes, offset, length) -> out.println(filter.count(bytes, offset, length)));
    }

    @Command(
            name = "del",
            description = {
                "Removes one copy of each item and prints 1, or prints 0 if the filter"
                        + " does not hold it (CF.DEL). Only remove what was added: removing an item never added may remove"
                        + " another item's fingerprint.",
                "With no ITEM, removes each line of standard input."
            },
            footer = {"%nExample:%n  mapsketch cf del sessions.cf 3f2a91"})
    int del(@Mixin FileAndItems input) throws IOException {
        try (CuckooFilter filter = CuckooFilter.open(input.file(), OpenMode.SHARED)) {
            del(filter, input, root.io());
        }
        return 0;
    }

    /** CF.DEL on an open filter: removes one copy of each item and prints 1, or 0 if it holds none. */
    static void del(CuckooFilter filter, FileAndItems input, CommandIo io) {
        PrintWriter out = io.out();
        input.each(io.forAnswers(), (bytes, offset, length) -> {
            try {
                filter.remove(bytes, offset, length);
                out.println(1);
            } catch (KeyNotPresentException absent) {
                out.println(0);
            }
        });
    }

    @Command(
            name = "exists",
            description = {
                "Prints 1 or 0 per item, one per line: 1 if the filter may contain it"
                        + " (or it is a false positive), 0 if it certainly does not (CF.EXISTS).",
                "With no ITEM, answers each line of standard input."
            },
            footer = {"%nExample:%n  mapsketch cf exists sessions.cf 3f2a91 000000"})
    int exists(@Mixin FileAndItems input) throws IOException {
        FilterVerbs.exists(input, root.io());
        return 0;
    }

    @Override
    public boolean reads(SketchKind kind) {
        return kind == SketchKind.CUCKOO;
    }

    @Override
    public Sketch open(Path file, OpenMode mode) throws IOException {
        return MembershipFilter.open(file, mode);
    }

    @Override
    public String mergeRefusal() {
        return "cuckoo filters do not merge (a fingerprint's bucket depends on the table it was added to);"
                + " add the items of every source to one filter instead";
    }
}
