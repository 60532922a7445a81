package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchKind;
import io.mapsketch.similarity.SimHash;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code mapsketch simhash}: tables of 64-bit SimHash fingerprints of documents, for near-duplicates. */
@Command(
        name = "simhash",
        description = "SimHash fingerprints of documents: which stored documents are near"
                + " duplicates of this one? (Hamming distance tracks cosine similarity)",
        subcommands = FamilyInfo.class)
final class SimHashCommands implements SketchFamily {

    @ParentCommand
    private MapsketchCommand root;

    @Command(
            name = "create",
            description = "Creates an empty table for N fingerprints.",
            footer = {"%nExample:%n  mapsketch simhash create docs.sh --capacity 1000000"})
    int create(
            @Parameters(paramLabel = "FILE", description = "The file to create.") Path file,
            @Option(names = "--capacity", paramLabel = "N", required = true, description = "Fingerprints it holds.")
                    long capacity,
            @Mixin CreateOptions options)
            throws IOException {
        options.create(file, SimHash.builder().capacity(capacity));
        return 0;
    }

    @Command(
            name = "add",
            description = {
                "Appends the fingerprint of each document (its word shingles) and prints" + " its index, one per line.",
                "With no DOCUMENT, each line of standard input is a document."
            },
            footer = {"%nExample:%n  mapsketch simhash add docs.sh \"the quick brown fox jumps over the lazy dog\""})
    int add(@Mixin FileAndItems input, @Mixin Shingles shingles) throws IOException {
        PrintWriter out = root.io().out();
        try (SimHash table = SimHash.open(input.file(), OpenMode.SHARED)) {
            input.each(
                    root.io().forAnswers(),
                    (bytes, offset, length) ->
                            out.println(table.append(fingerprint(table, shingles, bytes, offset, length))));
        }
        return 0;
    }

    @Command(
            name = "near",
            description = {
                "Prints the indices of the stored fingerprints within D bits of each"
                        + " document's, ascending, tab-separated, one line per document.",
                "With no DOCUMENT, each line of standard input is a document."
            },
            footer = {
                "%nExample:%n  mapsketch simhash near docs.sh --distance 3 \"the quick brown fox jumped over"
                        + " the lazy dog\""
            })
    int near(
            @Mixin FileAndItems input,
            @Mixin Shingles shingles,
            @Option(
                            names = "--distance",
                            paramLabel = "D",
                            defaultValue = "3",
                            description = "Largest Hamming distance, in [0, 64] (default: ${DEFAULT-VALUE}).")
                    int distance)
            throws IOException {
        PrintWriter out = root.io().out();
        try (SimHash table = SimHash.open(input.file(), OpenMode.READ_ONLY)) {
            input.each(root.io().forAnswers(), (bytes, offset, length) -> {
                long[] found = table.within(fingerprint(table, shingles, bytes, offset, length), distance);
                StringBuilder line = new StringBuilder();
                for (long index : found) {
                    line.append(line.isEmpty() ? "" : "\t").append(index);
                }
                out.println(line);
            });
        }
        return 0;
    }

    /**
     * How documents are cut into features, given to each verb that fingerprints them: the file does not
     * record it, so {@code create} does not take it; use the same width to add and to look up.
     */
    static final class Shingles {

        @Option(
                names = "--shingle",
                paramLabel = "W",
                defaultValue = "3",
                description = "Words per shingle, the features of a document (default: ${DEFAULT-VALUE});"
                        + " use the same W to add and to look up.")
        private int words;
    }

    private static long fingerprint(SimHash table, Shingles shingles, byte[] bytes, int offset, int length) {
        return table.features()
                .addShingles(new String(bytes, offset, length, StandardCharsets.UTF_8), shingles.words)
                .fingerprint();
    }

    @Override
    public boolean reads(SketchKind kind) {
        return kind == SketchKind.SIMHASH;
    }

    @Override
    public Sketch open(Path file, OpenMode mode) throws IOException {
        return SimHash.open(file, mode);
    }

    @Override
    public String mergeRefusal() {
        return "SimHash tables do not merge; append the other table's fingerprints instead";
    }
}
