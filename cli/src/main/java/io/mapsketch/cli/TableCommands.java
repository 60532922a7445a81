package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchKind;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.cardinality.HyperLogLogTable;
import io.mapsketch.cardinality.HyperLogLogTableBuilder;
import io.mapsketch.frequency.CountMinTable;
import io.mapsketch.frequency.CountMinTableBuilder;
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
 * over it: a HyperLogLog per key ({@code --kind hll}, PFADD and PFCOUNT), a blocked Bloom filter per
 * key ({@code --kind bloom}, BF.ADD and BF.EXISTS) or a Count-Min sketch per key ({@code --kind cms},
 * CMS.INCRBY and CMS.QUERY). {@code --capacity} is the keys a table holds, for every kind.
 */
@Command(
        name = "table",
        description = "Sketch tables: one HyperLogLog (unique visitors per page per day), one Bloom filter"
                + " (has user 7 seen clip 42) or one Count-Min sketch (how often did user 7 play clip 42) per key,"
                + " in one file.",
        subcommands = FamilyInfo.class)
final class TableCommands implements SketchFamily {

    private static final String TABLES = "a sketch table (HYPERLOGLOG_TABLE, BLOOM_TABLE or COUNT_MIN_TABLE)";

    @ParentCommand
    private MapsketchCommand root;

    @Command(
            name = "create",
            description = {
                "Creates an empty table of up to N keys. --kind hll: each key a HyperLogLog of 2^P registers"
                        + " (sparse while small); the file takes about N x BYTES.",
                "--kind bloom: each key a blocked Bloom filter sized for M items at rate R (as mapsketch bf"
                        + " create --layout blocked sizes one); the file takes about N x (BYTES + the filter).",
                "--kind cms: each key a Count-Min sketch of --width W x --depth D counters, or sized from"
                        + " --epsilon E and --delta D (as mapsketch cms create sizes one); the file takes about"
                        + " N x (BYTES + the sketch)."
            },
            footer = {
                "%nExamples:%n  mapsketch table create pages-2026-05-01.hllt --kind hll --precision 14",
                "  mapsketch table create seen.bft --kind bloom --capacity 1000000 --items-per-key 100 --error-rate 0.01",
                "  mapsketch table create plays.cmt --kind cms --capacity 100000 --width 2000 --depth 5"
            })
    int create(
            @Parameters(paramLabel = "TABLE", description = "The file to create.") Path file,
            @Option(
                            names = "--kind",
                            paramLabel = "KIND",
                            required = true,
                            description = "hll: a HyperLogLog per key; bloom: a blocked Bloom filter per key;"
                                    + " cms: a Count-Min sketch per key.")
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
            @Mixin CountMinShape countMin,
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
                                    + ") and cms (default " + CountMinTableBuilder.DEFAULT_BYTES_PER_KEY
                                    + "): a key's record, 16 bytes and the key's bytes.")
                    Long bytesPerKey,
            @Mixin CreateOptions options)
            throws IOException {
        switch (kind) {
            case "hll" -> {
                refuseOption(errorRate != null, "--error-rate", "bloom");
                countMin.refuse("hll");
                if (precision == null) {
                    throw new CommandFailure("--kind hll needs --precision P");
                }
                HyperLogLogTableBuilder builder =
                        HyperLogLogTable.builder().precision(precision).capacity(capacity);
                options.create(file, bytesPerKey == null ? builder : builder.bytesPerKey(bytesPerKey));
            }
            case "bloom" -> {
                refuseOption(precision != null, "--precision", "hll");
                countMin.refuse("bloom");
                if (errorRate == null) {
                    throw new CommandFailure("--kind bloom needs --error-rate R");
                }
                BloomTableBuilder builder = BloomTable.builder()
                        .capacity(capacity)
                        .expectedItemsPerKey(itemsPerKey)
                        .falsePositiveRate(errorRate);
                options.create(file, bytesPerKey == null ? builder : builder.bytesPerKey(bytesPerKey));
            }
            case "cms" -> {
                refuseOption(precision != null, "--precision", "hll");
                refuseOption(errorRate != null, "--error-rate", "bloom");
                CountMinTableBuilder builder = countMin.tableBuilder().capacity(capacity);
                options.create(file, bytesPerKey == null ? builder : builder.bytesPerKey(bytesPerKey));
            }
            default -> throw new CommandFailure("--kind " + kind + ": a table's kind is hll, bloom or cms");
        }
        return 0;
    }

    static void refuseOption(boolean given, String option, String kind) {
        if (given) {
            throw new CommandFailure(option + " sizes tables of --kind " + kind + " only");
        }
    }

    @Command(
            name = "add",
            description = {
                "Adds the ITEMs to KEY's sketch, inserting the key if it is new, and prints 1 if the sketch"
                        + " changed, else 0: for a HyperLogLog table once, if a register grew (PFADD KEY ITEM...);"
                        + " for a Bloom table once per ITEM, if it set a bit (BF.MADD KEY ITEM...); for a Count-Min"
                        + " table once, one occurrence of each ITEM (table incrby prints the estimates). Any number"
                        + " of processes may add at once.",
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
                changed[0] = TableLines.add(file, table, root.io());
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
            name = "incrby",
            description = {
                "Count-Min tables: adds COUNT occurrences of each ITEM to KEY's sketch, inserting the key if it is"
                        + " new, and prints each item's new estimate, one per line (CMS.INCRBY on the key's"
                        + " sketch). Every pair is checked before anything is added. Any number of processes may add"
                        + " at once.",
                "With no KEY, adds each line KEY<TAB>ITEM<TAB>COUNT of standard input (the item ends at the line's"
                        + " last tab) and prints each line's new estimate, in the order of the lines; a line refused"
                        + " stops the verb there, the lines before it added.",
                "An estimate at the counters' largest value is saturated: it is printed with a mark, and a line on"
                        + " standard error names the first such item and the option that counts further."
            },
            footer = {
                "%nExamples:%n  mapsketch table incrby plays.cmt user7 clip42 3 clip43 1",
                "  printf 'user7\\tclip42\\t3\\n' | mapsketch table incrby plays.cmt"
            })
    int incrby(
            @Parameters(index = "0", paramLabel = "TABLE", description = "The table file.") Path file,
            @Parameters(index = "1", arity = "0..1", paramLabel = "KEY", description = "The key.") String key,
            @Parameters(
                            index = "2..*",
                            paramLabel = "ITEM COUNT",
                            description = "Items, as UTF-8 strings, each followed by its count (at least 1).")
                    List<String> pairs)
            throws IOException {
        List<String> arguments = pairs == null ? List.of() : pairs;
        if (key != null && arguments.isEmpty()) {
            throw new CommandFailure(file + ": KEY " + key + " needs at least one ITEM COUNT pair");
        }
        long[] counts = CountMinCommands.counts(arguments);
        try (CountMinTable table = CountMinTable.open(file, OpenMode.SHARED)) {
            if (key == null) {
                TableLines.incrby(file, table, root.io().forAnswers());
            } else {
                CountMinTableVerbs.incrby(table, file, key, arguments, counts, root.io());
            }
        }
        return 0;
    }

    @Command(
            name = "query",
            description = {
                "Count-Min tables: prints the estimated count of each ITEM in KEY's sketch, one per line, never"
                        + " below the true count (CMS.QUERY on the key's sketch). A key not in the table answers 0.",
                "A saturated estimate is printed with a mark, e.g. '4294967295 (saturated: 32-bit counters)'."
            },
            footer = {"%nExample:%n  mapsketch table query plays.cmt user7 clip42 clip43"})
    int query(
            @Parameters(index = "0", paramLabel = "TABLE", description = "The table file.") Path file,
            @Parameters(index = "1", paramLabel = "KEY", description = "The key.") String key,
            @Parameters(index = "2..*", arity = "1..*", paramLabel = "ITEM", description = "Items, as UTF-8 strings.")
                    List<String> items)
            throws IOException {
        try (CountMinTable table = CountMinTable.open(file, OpenMode.READ_ONLY)) {
            CountMinTableVerbs.query(table, key, items, root.io());
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
                        + " each key's filter for Bloom tables, a sum of each key's counters for Count-Min tables,"
                        + " CMS.MERGE): day tables into a month's. A missing DEST is created empty in the first"
                        + " source's shape and seed.",
                "Tables of another kind, shape (precision; blocks and bits per key; width, depth and counter bits)"
                        + " or seed are refused; a Count-Min DEST among the sources is refused (its counts would be"
                        + " added again).",
                "Count-Min tables take --weights (CMS.MERGE WEIGHTS): each source's counters added W times, key by"
                        + " key, as if its plays had been added W times."
            },
            footer = {
                "%nExamples:%n  mapsketch table merge pages-2026-05.hllt pages-2026-05-*.hllt",
                "  mapsketch table merge plays-week.cmt plays-mon.cmt plays-tue.cmt --weights 1 2"
            })
    int merge(
            @Parameters(index = "0", paramLabel = "DEST", description = "The table to merge into.") Path destination,
            @Parameters(index = "1..*", arity = "1..*", paramLabel = "SRC", description = "Tables.") List<Path> sources,
            @Option(
                            names = "--weights",
                            arity = "1..*",
                            paramLabel = "W",
                            description = "Count-Min tables: one weight per SRC, each at least 1 (default: 1 each).")
                    List<Long> weights)
            throws IOException {
        if (weights == null) {
            Merging.mergeTogether(destination, sources, TableCommands::openTable);
            return 0;
        }
        long[] times = CountMinCommands.weights(weights, sources);
        Merging.mergeTogether(
                destination,
                sources,
                TableCommands::openWeighted,
                (into, from, indices) -> into.mergeAll(
                        from, indices.stream().mapToLong(i -> times[i]).toArray()));
        return 0;
    }

    @Override
    public boolean reads(SketchKind kind) {
        return kind == SketchKind.HYPERLOGLOG_TABLE
                || kind == SketchKind.BLOOM_TABLE
                || kind == SketchKind.COUNT_MIN_TABLE;
    }

    @Override
    public Sketch open(Path file, OpenMode mode) throws IOException {
        return openTable(file, mode);
    }

    /** Opens a Count-Min table for a weighted merge; a file of another kind is refused, naming it and its kind. */
    private static CountMinTable openWeighted(Path file, OpenMode mode) throws IOException {
        return SketchOpener.open(
                file, mode, CountMinTable.class, "COUNT_MIN_TABLE: --weights weighs Count-Min tables only");
    }

    /** Opens a table of any kind; a file of another kind is refused, naming it and its kind. */
    private static KeyTable openTable(Path file, OpenMode mode) throws IOException {
        return SketchOpener.open(file, mode, KeyTable.class, TABLES);
    }
}
