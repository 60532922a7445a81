package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchKind;
import io.mapsketch.similarity.SimHash;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.ScopeType;

/** {@code mapsketch simhash}: tables of 64-bit SimHash fingerprints of documents, for near-duplicates. */
@Command(
        name = "simhash",
        description = "SimHash fingerprints of documents: which stored documents are near"
                + " duplicates of this one? (Hamming distance tracks cosine similarity)")
final class SimHashCommands implements SketchFamily {

    @ParentCommand
    private MapsketchCommand root;

    @Option(
            names = "--shingle",
            paramLabel = "W",
            defaultValue = "3",
            scope = ScopeType.INHERIT,
            description = "Words per shingle, the features of a document (default: ${DEFAULT-VALUE}).")
    private int shingle;

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
    int add(@Mixin FileAndItems input) throws IOException {
        PrintWriter out = root.io().out();
        try (SimHash table = SimHash.open(input.file(), OpenMode.SHARED)) {
            input.each(
                    root.io().forAnswers(),
                    (bytes, offset, length) -> out.println(table.append(fingerprint(table, bytes, offset, length))));
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
                long[] found = table.within(fingerprint(table, bytes, offset, length), distance);
                StringBuilder line = new StringBuilder();
                for (long index : found) {
                    line.append(line.isEmpty() ? "" : "\t").append(index);
                }
                out.println(line);
            });
        }
        return 0;
    }

    private long fingerprint(SimHash table, byte[] bytes, int offset, int length) {
        return table.features()
                .addShingles(new String(bytes, offset, length, StandardCharsets.UTF_8), shingle)
                .fingerprint();
    }

    @Override
    public boolean reads(SketchKind kind) {
        return kind == SketchKind.SIMHASH;
    }

    @Override
    public void describe(Path file, Map<String, Object> facts) throws IOException {
        try (SimHash table = SimHash.open(file, OpenMode.READ_ONLY)) {
            facts.put("capacity", table.capacity());
            facts.put("fingerprints", table.size());
            facts.put("memory bytes", table.memoryBytes());
        }
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
