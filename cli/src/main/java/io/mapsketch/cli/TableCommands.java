package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchKind;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.cardinality.HyperLogLogTable;
import io.mapsketch.cardinality.HyperLogLogTableBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code mapsketch table}: sketch tables, one sketch per key in one file, with Redis's keyspace verbs
 * over it; a HyperLogLog per key ({@code --kind hll}).
 */
@Command(
        name = "table",
        description = "Sketch tables: one HyperLogLog per key in one file (unique visitors per page per day).",
        subcommands = FamilyInfo.class)
final class TableCommands implements SketchFamily {

    @ParentCommand
    private MapsketchCommand root;

    @Command(
            name = "create",
            description = "Creates an empty table of up to N keys, each a HyperLogLog of 2^P registers"
                    + " (sparse while small); its file takes about N x BYTES.",
            footer = {"%nExample:%n  mapsketch table create pages-2026-05-01.hllt --kind hll --precision 14"})
    int create(
            @Parameters(paramLabel = "TABLE", description = "The file to create.") Path file,
            @Option(names = "--kind", paramLabel = "KIND", required = true, description = "hll: a HyperLogLog per key.")
                    String kind,
            @Option(
                            names = "--precision",
                            paramLabel = "P",
                            required = true,
                            description = "Precision of every key's HyperLogLog, " + HyperLogLog.MIN_PRECISION + " to "
                                    + HyperLogLog.MAX_PRECISION + " (14: 0.81%% standard error).")
                    int precision,
            @Option(
                            names = "--capacity",
                            paramLabel = "N",
                            defaultValue = "100000",
                            description = "Keys the table holds at most (default: ${DEFAULT-VALUE}).")
                    long capacity,
            @Option(
                            names = "--bytes-per-key",
                            paramLabel = "BYTES",
                            defaultValue = "" + HyperLogLogTableBuilder.DEFAULT_BYTES_PER_KEY,
                            description = "Heap bytes per key of capacity (default: ${DEFAULT-VALUE}: a key of 16 bytes"
                                    + " with 100 distinct items; a dense key takes about 1.5 x 2^P).")
                    long bytesPerKey,
            @Mixin CreateOptions options)
            throws IOException {
        if (!kind.equals("hll")) {
            throw new CommandFailure("--kind " + kind + ": this build makes tables of kind hll only");
        }
        options.create(
                file,
                HyperLogLogTable.builder()
                        .precision(precision)
                        .capacity(capacity)
                        .bytesPerKey(bytesPerKey));
        return 0;
    }

    @Command(
            name = "add",
            description = {
                "Adds the ITEMs to KEY's HyperLogLog, inserting the key if it is new, and prints 1 if a register"
                        + " changed, else 0 (PFADD KEY ITEM...). Any number of processes may add at once.",
                "With no KEY, adds each line KEY<TAB>ITEM of standard input and prints 1 or 0 once."
            },
            footer = {
                "%nExamples:%n  mapsketch table add pages.hllt /home alice bob",
                "  awk -F'\\t' '{print $2 \"\\t\" $1}' access.log | mapsketch table add pages.hllt"
            })
    int add(
            @Parameters(index = "0", paramLabel = "TABLE", description = "The table file.") Path file,
            @Parameters(index = "1", arity = "0..1", paramLabel = "KEY", description = "The key.") String key,
            @Parameters(index = "2..*", paramLabel = "ITEM", description = "Items, as UTF-8 strings.")
                    List<String> items)
            throws IOException {
        boolean[] changed = {false};
        try (HyperLogLogTable table = HyperLogLogTable.open(file, OpenMode.SHARED)) {
            if (key == null) {
                Items.eachBatch(
                        file,
                        List.of(),
                        root.io(),
                        (data, offsets, lengths, count) ->
                                TableLines.add(file, table, data, offsets, lengths, count, changed));
            } else {
                if (items == null || items.isEmpty()) {
                    throw new CommandFailure(file + ": KEY " + key + " needs at least one ITEM");
                }
                for (String item : items) {
                    changed[0] |= table.add(key, item);
                }
            }
        }
        root.io().out().println(changed[0] ? 1 : 0);
        return 0;
    }

    @Command(
            name = "count",
            description = "Prints the estimated number of distinct items of the union of the KEYs (PFCOUNT KEY...).",
            footer = {"%nExample:%n  mapsketch table count pages.hllt /home /about"})
    int count(
            @Parameters(index = "0", paramLabel = "TABLE", description = "The table file.") Path file,
            @Parameters(index = "1..*", arity = "1..*", paramLabel = "KEY", description = "Keys of the table.")
                    List<String> keys)
            throws IOException {
        try (HyperLogLogTable table = HyperLogLogTable.open(file, OpenMode.READ_ONLY)) {
            root.io().out().println(Math.round(table.estimateUnion(keys)));
        }
        return 0;
    }

    @Command(
            name = "keys",
            description = "Prints every key of the table, one per line, in no particular order (KEYS *).",
            footer = {"%nExample:%n  mapsketch table keys pages.hllt"})
    int keys(@Parameters(paramLabel = "TABLE", description = "The table file.") Path file) throws IOException {
        try (HyperLogLogTable table = HyperLogLogTable.open(file, OpenMode.READ_ONLY)) {
            for (byte[] key : table.keys()) {
                root.io().out().println(new String(key, StandardCharsets.UTF_8));
            }
        }
        return 0;
    }

    @Command(
            name = "merge",
            description = {
                "Merges the SRC tables into DEST key by key (PFMERGE of each key): day tables into a month's."
                        + " A missing DEST is created empty in the first source's shape and seed.",
                "Tables of another precision or seed are refused."
            },
            footer = {"%nExample:%n  mapsketch table merge pages-2026-05.hllt pages-2026-05-*.hllt"})
    int merge(
            @Parameters(index = "0", paramLabel = "DEST", description = "The table to merge into.") Path destination,
            @Parameters(index = "1..*", arity = "1..*", paramLabel = "SRC", description = "Tables.") List<Path> sources)
            throws IOException {
        Merging.merge(destination, sources, HyperLogLogTable::open, (into, from, source) -> into.merge(from));
        return 0;
    }

    @Override
    public boolean reads(SketchKind kind) {
        return kind == SketchKind.HYPERLOGLOG_TABLE;
    }

    @Override
    public Sketch open(Path file, OpenMode mode) throws IOException {
        return HyperLogLogTable.open(file, mode);
    }
}
