package io.mapsketch.cli;

import io.mapsketch.Mergeable;
import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchKind;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.cardinality.HyperLogLogTable;
import io.mapsketch.cardinality.HyperLogLogTableBuilder;
import io.mapsketch.internal.KeyTable;
import io.mapsketch.internal.SketchOpener;
import io.mapsketch.membership.BloomTable;
import io.mapsketch.membership.BloomTableBuilder;
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
 * over it: a HyperLogLog per key ({@code --kind hll}, PFADD and PFCOUNT) or a blocked Bloom filter per
 * key ({@code --kind bloom}, BF.ADD and BF.EXISTS). {@code --capacity} is the keys a table holds, for
 * either kind.
 */
@Command(
        name = "table",
        description = "Sketch tables: one HyperLogLog (unique visitors per page per day) or one Bloom filter"
                + " (has user 7 seen clip 42) per key, in one file.",
        subcommands = FamilyInfo.class)
final class TableCommands implements SketchFamily {

    private static final String TABLES = "a sketch table (HYPERLOGLOG_TABLE or BLOOM_TABLE)";

    @ParentCommand
    private MapsketchCommand root;

    @Command(
            name = "create",
            description = {
                "Creates an empty table of up to N keys. --kind hll: each key a HyperLogLog of 2^P registers"
                        + " (sparse while small); the file takes about N x BYTES.",
                "--kind bloom: each key a blocked Bloom filter sized for M items at rate R (as mapsketch bf"
                        + " create --layout blocked sizes one); the file takes about N x (BYTES + the filter)."
            },
            footer = {
                "%nExamples:%n  mapsketch table create pages-2026-05-01.hllt --kind hll --precision 14",
                "  mapsketch table create seen.bft --kind bloom --capacity 1000000 --items-per-key 100 --error-rate 0.01"
            })
    int create(
            @Parameters(paramLabel = "TABLE", description = "The file to create.") Path file,
            @Option(
                            names = "--kind",
                            paramLabel = "KIND",
                            required = true,
                            description = "hll: a HyperLogLog per key; bloom: a blocked Bloom filter per key.")
                    String kind,
            @Option(
                            names = "--precision",
                            paramLabel = "P",
                            description = "hll: precision of every key's HyperLogLog, " + HyperLogLog.MIN_PRECISION
                                    + " to " + HyperLogLog.MAX_PRECISION + " (14: 0.81%% standard error). Required.")
                    Integer precision,
            @Option(
                            names = "--error-rate",
                            paramLabel = "R",
                            description = "bloom: every key's false-positive rate at M items, in (0, 1). Required.")
                    Double errorRate,
            @Option(
                            names = "--items-per-key",
                            paramLabel = "M",
                            defaultValue = "100",
                            description =
                                    "bloom: the items each key's filter is sized for (default: ${DEFAULT-VALUE}).")
                    long itemsPerKey,
            @Option(
                            names = "--capacity",
                            paramLabel = "N",
                            defaultValue = "100000",
                            description = "Keys the table holds at most, of either kind (default: ${DEFAULT-VALUE}).")
                    long capacity,
            @Option(
                            names = "--bytes-per-key",
                            paramLabel = "BYTES",
                            description = "Heap bytes per key of capacity. hll (default "
                                    + HyperLogLogTableBuilder.DEFAULT_BYTES_PER_KEY
                                    + "): a key of 16 bytes with 100 distinct items; a dense key takes about 1.5 x 2^P."
                                    + " bloom (default " + BloomTableBuilder.DEFAULT_BYTES_PER_KEY
                                    + "): a key's record, 16 bytes and the key's bytes.")
                    Long bytesPerKey,
            @Mixin CreateOptions options)
            throws IOException {
        switch (kind) {
            case "hll" -> {
                refuseOption(errorRate != null, "--error-rate", "bloom");
                if (precision == null) {
                    throw new CommandFailure("--kind hll needs --precision P");
                }
                HyperLogLogTableBuilder builder =
                        HyperLogLogTable.builder().precision(precision).capacity(capacity);
                options.create(file, bytesPerKey == null ? builder : builder.bytesPerKey(bytesPerKey));
            }
            case "bloom" -> {
                refuseOption(precision != null, "--precision", "hll");
                if (errorRate == null) {
                    throw new CommandFailure("--kind bloom needs --error-rate R");
                }
                BloomTableBuilder builder = BloomTable.builder()
                        .capacity(capacity)
                        .expectedItemsPerKey(itemsPerKey)
                        .falsePositiveRate(errorRate);
                options.create(file, bytesPerKey == null ? builder : builder.bytesPerKey(bytesPerKey));
            }
            default -> throw new CommandFailure("--kind " + kind + ": a table's kind is hll or bloom");
        }
        return 0;
    }

    private static void refuseOption(boolean given, String option, String kind) {
        if (given) {
            throw new CommandFailure(option + " sizes tables of --kind " + kind + " only");
        }
    }

    @Command(
            name = "add",
            description = {
                "Adds the ITEMs to KEY's sketch, inserting the key if it is new, and prints 1 if the sketch"
                        + " changed, else 0: for a HyperLogLog table once, if a register grew (PFADD KEY ITEM...);"
                        + " for a Bloom table once per ITEM, if it set a bit (BF.MADD KEY ITEM...). Any number of"
                        + " processes may add at once.",
                "With no KEY, adds each line KEY<TAB>ITEM of standard input and prints 1 or 0 once, whether"
                        + " any sketch changed."
            },
            footer = {
                "%nExamples:%n  mapsketch table add pages.hllt /home alice bob",
                "  mapsketch table add seen.bft user7 clip42",
                "  awk -F'\\t' '{print $2 \"\\t\" $1}' access.log | mapsketch table add pages.hllt"
            })
    int add(
            @Parameters(index = "0", paramLabel = "TABLE", description = "The table file.") Path file,
            @Parameters(index = "1", arity = "0..1", paramLabel = "KEY", description = "The key.") String key,
            @Parameters(index = "2..*", paramLabel = "ITEM", description = "Items, as UTF-8 strings.")
                    List<String> items)
            throws IOException {
        boolean[] changed = {false};
        try (KeyTable table = openTable(file, OpenMode.SHARED)) {
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
                boolean perItem = table instanceof BloomTable;
                for (String item : items) {
                    boolean added = table.add(key, item);
                    if (perItem) {
                        root.io().out().println(added ? 1 : 0);
                    }
                    changed[0] |= added;
                }
                if (perItem) {
                    return 0;
                }
            }
        }
        root.io().out().println(changed[0] ? 1 : 0);
        return 0;
    }

    @Command(
            name = "count",
            description = "HyperLogLog tables: prints the estimated number of distinct items of the union of the"
                    + " KEYs (PFCOUNT KEY...).",
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
            name = "exists",
            description = "Bloom tables: prints, one line per ITEM, 1 if it may have been added to KEY, 0 if it"
                    + " certainly was not (BF.MEXISTS KEY ITEM...). A key not in the table answers 0.",
            footer = {"%nExample:%n  mapsketch table exists seen.bft user7 clip42 clip43"})
    int exists(
            @Parameters(index = "0", paramLabel = "TABLE", description = "The table file.") Path file,
            @Parameters(index = "1", paramLabel = "KEY", description = "The key.") String key,
            @Parameters(index = "2..*", arity = "1..*", paramLabel = "ITEM", description = "Items, as UTF-8 strings.")
                    List<String> items)
            throws IOException {
        try (BloomTable table = BloomTable.open(file, OpenMode.READ_ONLY)) {
            for (String item : items) {
                root.io().out().println(table.mightContain(key, item) ? 1 : 0);
            }
        }
        return 0;
    }

    @Command(
            name = "keys",
            description = "Prints every key of the table, one per line, in no particular order (KEYS *).",
            footer = {"%nExample:%n  mapsketch table keys pages.hllt"})
    int keys(@Parameters(paramLabel = "TABLE", description = "The table file.") Path file) throws IOException {
        try (KeyTable table = openTable(file, OpenMode.READ_ONLY)) {
            for (byte[] key : table.keys()) {
                root.io().out().println(new String(key, StandardCharsets.UTF_8));
            }
        }
        return 0;
    }

    @Command(
            name = "merge",
            description = {
                "Merges the SRC tables into DEST key by key (PFMERGE of each key for HyperLogLog tables, an OR of"
                        + " each key's filter for Bloom tables): day tables into a month's. A missing DEST is"
                        + " created empty in the first source's shape and seed.",
                "Tables of another kind, shape (precision; blocks and bits per key) or seed are refused."
            },
            footer = {"%nExample:%n  mapsketch table merge pages-2026-05.hllt pages-2026-05-*.hllt"})
    int merge(
            @Parameters(index = "0", paramLabel = "DEST", description = "The table to merge into.") Path destination,
            @Parameters(index = "1..*", arity = "1..*", paramLabel = "SRC", description = "Tables.") List<Path> sources)
            throws IOException {
        Merging.merge(
                destination,
                sources,
                TableCommands::openTable,
                (into, from, source) -> ((Mergeable<?>) into).mergeSketch(from));
        return 0;
    }

    @Override
    public boolean reads(SketchKind kind) {
        return kind == SketchKind.HYPERLOGLOG_TABLE || kind == SketchKind.BLOOM_TABLE;
    }

    @Override
    public Sketch open(Path file, OpenMode mode) throws IOException {
        return openTable(file, mode);
    }

    /** Opens a table of either kind; a file of another kind is refused, naming it and its kind. */
    private static KeyTable openTable(Path file, OpenMode mode) throws IOException {
        return SketchOpener.open(file, mode, KeyTable.class, TABLES);
    }
}
