package io.mapsketch.cli;

import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Parameters;

/** The arguments of every verb that takes one sketch file and items: {@code FILE [ITEM...]}. */
final class FileAndItems {

    @Parameters(index = "0", paramLabel = "FILE", description = "The sketch file.")
    private Path file;

    @Parameters(
            index = "1..*",
            paramLabel = "ITEM",
            description = "Items, as UTF-8 strings. None: one item per line of standard input.")
    private List<String> items = List.of();

    /** The arguments as picocli sets them. */
    FileAndItems() {}

    /**
     * The arguments of a verb run without picocli ({@link FastVerbs}, {@code mapsketch pipe}).
     *
     * @param file the sketch file
     * @param items the ITEM arguments; none for the lines of standard input
     */
    FileAndItems(Path file, List<String> items) {
        this.file = file;
        this.items = items;
    }

    /** The sketch file. */
    Path file() {
        return file;
    }

    /** The ITEM arguments, empty if the items come from standard input. */
    List<String> arguments() {
        return items;
    }

    /**
     * Hands every item to {@code sink}, one at a time: the ITEM arguments, or the lines of standard input
     * if there are none; an item refused stops the verb there ({@link Items#each}).
     */
    void each(CommandIo io, Items.Sink sink) {
        Items.each(file, items, io, sink);
    }

    /** As {@link #each}, in batches for the engine's bulk methods. */
    void eachBatch(CommandIo io, Items.BatchSink sink) {
        Items.eachBatch(file, items, io, sink);
    }
}
