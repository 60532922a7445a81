package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchKind;
import io.mapsketch.similarity.MinHash;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code mapsketch minhash}: tables of MinHash signatures, "how similar are sets A and B?" (Jaccard). */
@Command(
        name = "minhash",
        description = "MinHash signatures, one per row: how similar are two sets? (Jaccard"
                + " estimate, standard error about 1/sqrt(k))",
        subcommands = FamilyInfo.class)
final class MinHashCommands implements SketchFamily {

    @ParentCommand
    private MapsketchCommand root;

    @Command(
            name = "create",
            description = "Creates a table of ROWS empty signatures of k = ceil(1 / E^2) slots.",
            footer = {"%nExample:%n  mapsketch minhash create pages.mh --rows 1000 --standard-error 0.05"})
    int create(
            @Parameters(paramLabel = "FILE", description = "The file to create.") Path file,
            @Option(
                            names = "--rows",
                            paramLabel = "ROWS",
                            defaultValue = "1",
                            description = "Sets (signatures) in the file (default: ${DEFAULT-VALUE}).")
                    int rows,
            @Option(
                            names = "--standard-error",
                            paramLabel = "E",
                            defaultValue = "0.05",
                            description = "Standard error of a Jaccard estimate, in (0, 1) (default: ${DEFAULT-VALUE},"
                                    + " 400 slots of 8 bytes per row).")
                    double standardError,
            @Mixin CreateOptions options)
            throws IOException {
        options.create(file, MinHash.builder().rows(rows).standardError(standardError));
        return 0;
    }

    @Command(
            name = "add",
            description = {
                "Adds items to the set of row ROW. Any number of processes may add to" + " one file at once.",
                "With no ITEM, adds each line of standard input."
            },
            footer = {"%nExample:%n  tr ' ' '\\n' < page-17.txt | mapsketch minhash add pages.mh 17"})
    int add(
            @Parameters(index = "0", paramLabel = "FILE", description = "A MinHash file.") Path file,
            @Parameters(index = "1", paramLabel = "ROW", description = "The row, from 0.") int row,
            @Parameters(index = "2..*", paramLabel = "ITEM", description = "Items, as UTF-8 strings.")
                    List<String> items)
            throws IOException {
        try (MinHash sketch = MinHash.open(file, OpenMode.SHARED)) {
            if (row < 0 || row >= sketch.rows()) {
                throw new IllegalArgumentException("ROW = " + row + ", must be in [0, " + sketch.rows() + ")");
            }
            Items.each(
                    file,
                    items == null ? List.of() : items,
                    root.io(),
                    (bytes, offset, length) -> sketch.add(row, bytes, offset, length));
        }
        return 0;
    }

    @Command(
            name = "similar",
            description = "Prints the rows most similar to row ROW, best first, one per line:"
                    + " the row and the estimated Jaccard similarity, tab-separated.",
            footer = {"%nExample:%n  mapsketch minhash similar pages.mh 17 --top 5"})
    int similar(
            @Parameters(index = "0", paramLabel = "FILE", description = "A MinHash file.") Path file,
            @Parameters(index = "1", paramLabel = "ROW", description = "The row to compare with the others.") int row,
            @Option(
                            names = "--top",
                            paramLabel = "N",
                            defaultValue = "10",
                            description = "How many rows to print (default: ${DEFAULT-VALUE}).")
                    int top)
            throws IOException {
        PrintWriter out = root.io().out();
        try (MinHash sketch = MinHash.open(file, OpenMode.READ_ONLY)) {
            if (row < 0 || row >= sketch.rows()) {
                throw new IllegalArgumentException("ROW = " + row + ", must be in [0, " + sketch.rows() + ")");
            }
            List<MinHash.Match> matches = sketch.mostSimilar(sketch.signature(row), Math.min(top + 1, sketch.rows()));
            matches.stream()
                    .filter(match -> match.row() != row)
                    .limit(top)
                    .forEach(match ->
                            out.println(match.row() + "\t" + String.format(Locale.ROOT, "%.4f", match.jaccard())));
        }
        return 0;
    }

    @Override
    public boolean reads(SketchKind kind) {
        return kind == SketchKind.MINHASH;
    }

    @Override
    public Sketch open(Path file, OpenMode mode) throws IOException {
        return MinHash.open(file, mode);
    }
}
