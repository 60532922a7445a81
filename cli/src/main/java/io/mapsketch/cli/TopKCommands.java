package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchKind;
import io.mapsketch.frequency.HeavyHitter;
import io.mapsketch.frequency.TopK;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code mapsketch topk}: the k heaviest items of a stream, kept with a Count-Min sketch in one file. */
@Command(
        name = "topk",
        description = "Top-K: the k most frequent items, with Count-Min estimates (never below" + " the true count)",
        subcommands = FamilyInfo.class)
final class TopKCommands implements SketchFamily {

    @ParentCommand
    private MapsketchCommand root;

    @Command(
            name = "create",
            description = "Creates an empty Top-K sketch: k candidates and a Count-Min sketch of"
                    + " ceil(e / E) x ceil(ln(1 / D)) counters.",
            footer = {"%nExample:%n  mapsketch topk create pages.topk --k 100"})
    int create(
            @Parameters(paramLabel = "FILE", description = "The file to create.") Path file,
            @Option(
                            names = "--k",
                            paramLabel = "K",
                            required = true,
                            description = "How many of the heaviest items to keep, in [1, " + TopK.MAX_K + "].")
                    int k,
            @Option(
                            names = "--epsilon",
                            paramLabel = "E",
                            defaultValue = "0.001",
                            description =
                                    "Count-Min error as a fraction of the total count N (default: ${DEFAULT-VALUE}).")
                    double epsilon,
            @Option(
                            names = "--delta",
                            paramLabel = "D",
                            defaultValue = "0.01",
                            description =
                                    "Probability that an estimate is off by more than E x N (default: ${DEFAULT-VALUE}).")
                    double delta,
            @Option(
                            names = "--max-item-bytes",
                            paramLabel = "B",
                            defaultValue = "" + TopK.DEFAULT_MAX_KEY_BYTES,
                            description = "The longest item stored, in UTF-8 bytes; longer items are refused"
                                    + " (default: ${DEFAULT-VALUE}).")
                    int maxItemBytes,
            @Option(
                            names = "--counter-bits",
                            paramLabel = "BITS",
                            defaultValue = "32",
                            description = "32 (default) or 64; counters saturate at 2^32 - 1 or 2^64 - 1, never wrap.")
                    int counterBits,
            @Mixin CreateOptions options)
            throws IOException {
        options.create(
                file,
                TopK.builder()
                        .k(k)
                        .epsilon(epsilon)
                        .delta(delta)
                        .maxKeyBytes(maxItemBytes)
                        .counterBits(counterBits));
        return 0;
    }

    @Command(
            name = "add",
            description = {
                "Adds one occurrence of each item and prints, per item, the item its add expelled from the"
                        + " top k, or an empty line if none (TOPK.ADD). Any number of processes may add to one file"
                        + " at once. Items longer than the file stores are refused before anything is added.",
                "With no ITEM, adds each line of standard input; a line refused stops the verb there, the lines"
                        + " before it added.",
                "An item whose count"
                        + " reaches the counters' largest value (2^32 - 1 for 32-bit counters) is saturated: a line on standard"
                        + " error names it and the option that counts further."
            },
            footer = {
                "%nExamples:%n  mapsketch topk add pages.topk /home /about /home",
                "  cut -f7 -d' ' access.log | mapsketch topk add pages.topk > /dev/null"
            })
    int add(@Mixin FileAndItems input) throws IOException {
        try (TopK sketch = TopK.open(input.file(), OpenMode.SHARED)) {
            add(sketch, input, root.io());
        }
        return 0;
    }

    /**
     * TOPK.ADD on an open sketch: adds one occurrence of each item and prints the item each add expelled,
     * or an empty line; arguments longer than the sketch stores are refused before anything is added.
     */
    static void add(TopK sketch, FileAndItems input, CommandIo io) {
        List<String> items = input.arguments();
        for (int i = 0; i < items.size(); i++) {
            requireStorable(input.file(), sketch, items.get(i), i);
        }
        Saturation saturation = new Saturation(input.file(), sketch, "topk create");
        PrintWriter out = io.out();
        try {
            input.each(io.forAnswers(), (bytes, offset, length) -> {
                if (length > sketch.maxKeyBytes()) {
                    throw new IllegalArgumentException(tooLong(sketch, length));
                }
                Optional<HeavyHitter> expelled = sketch.addExpelling(bytes, offset, length, 1);
                saturation.added(bytes, offset, length);
                out.println(expelled.map(HeavyHitter::keyAsString).orElse(""));
            });
        } finally {
            saturation.report(io.err());
        }
    }

    @Command(
            name = "incrby",
            description = {
                "Adds COUNT occurrences of each ITEM and prints, per item, the item its add expelled from the"
                        + " top k, or an empty line if none (TOPK.INCRBY). Every pair is checked before anything is"
                        + " added."
            },
            footer = {"%nExample:%n  mapsketch topk incrby pages.topk /home 10 /about 3"})
    int incrby(
            @Parameters(index = "0", paramLabel = "FILE", description = "A Top-K file.") Path file,
            @Parameters(
                            index = "1..*",
                            arity = "1..*",
                            paramLabel = "ITEM COUNT",
                            description = "Items, as UTF-8 strings, each followed by its count (at least 1).")
                    List<String> pairs)
            throws IOException {
        long[] counts = CountMinCommands.counts(pairs);
        try (TopK sketch = TopK.open(file, OpenMode.SHARED)) {
            incrby(sketch, file, pairs, counts, root.io());
        }
        return 0;
    }

    /**
     * TOPK.INCRBY on an open sketch: adds each pair's count ({@link CountMinCommands#counts}, checked
     * before) and prints the item each add expelled, or an empty line; every pair is checked first.
     */
    static void incrby(TopK sketch, Path file, List<String> pairs, long[] counts, CommandIo io) {
        for (int i = 0; i < counts.length; i++) {
            requireStorable(file, sketch, pairs.get(2 * i), i);
        }
        CountMinCommands.requireRoom(file, sketch.totalWeight(), counts);
        PrintWriter out = io.out();
        Saturation saturation = new Saturation(file, sketch, "topk create");
        try {
            for (int i = 0; i < counts.length; i++) {
                byte[] item = pairs.get(2 * i).getBytes(StandardCharsets.UTF_8);
                Optional<HeavyHitter> expelled;
                try {
                    expelled = sketch.addExpelling(item, 0, item.length, counts[i]);
                } catch (IllegalArgumentException refused) {
                    throw Items.stopped(file, "pair " + (i + 1), refused.getMessage(), i, "pair");
                }
                saturation.added(item, 0, item.length);
                out.println(expelled.map(HeavyHitter::keyAsString).orElse(""));
            }
        } finally {
            saturation.report(io.err());
        }
    }

    /** Refuses, before anything is added, an argument longer than the sketch stores. */
    private static void requireStorable(Path file, TopK sketch, String item, int index) {
        int length = item.getBytes(StandardCharsets.UTF_8).length;
        if (length > sketch.maxKeyBytes()) {
            throw new IllegalArgumentException(
                    file + ": item " + (index + 1) + ": " + tooLong(sketch, length) + "; nothing was added");
        }
    }

    /** Why an item of {@code length} bytes is refused. */
    private static String tooLong(TopK sketch, int length) {
        return "key length = " + length + " bytes, must be in [0, " + sketch.maxKeyBytes()
                + "] (the file's max item bytes)";
    }

    @Command(
            name = "query",
            description = {
                "Prints 1 per item that is among the top k now, 0 per item that is not (TOPK.QUERY).",
                "With no ITEM, answers each line of standard input."
            },
            footer = {"%nExample:%n  mapsketch topk query pages.topk /home /contact"})
    int query(@Mixin FileAndItems input) throws IOException {
        try (TopK sketch = TopK.open(input.file(), OpenMode.READ_ONLY)) {
            query(sketch, input, root.io());
        }
        return 0;
    }

    /** TOPK.QUERY on an open sketch: prints 1 per item among the top k now, 0 per item that is not. */
    static void query(TopK sketch, FileAndItems input, CommandIo io) {
        PrintWriter out = io.out();
        Set<ByteBuffer> top = sketch.top().stream()
                .map(hitter -> ByteBuffer.wrap(hitter.key()))
                .collect(Collectors.toSet());
        input.each(
                io.forAnswers(),
                (bytes, offset, length) -> out.println(top.contains(ByteBuffer.wrap(bytes, offset, length)) ? 1 : 0));
    }

    @Command(
            name = "count",
            description = {
                "Prints the estimated count of each item, one per line, whether or not it is among the top k:"
                        + " never below the true count (TOPK.COUNT); a saturated count is marked as 'list' marks it.",
                "With no ITEM, answers each line of standard input."
            },
            footer = {"%nExample:%n  mapsketch topk count pages.topk /home /contact"})
    int count(@Mixin FileAndItems input) throws IOException {
        try (TopK sketch = TopK.open(input.file(), OpenMode.READ_ONLY)) {
            Saturation.printEstimates(sketch, input, root.io());
        }
        return 0;
    }

    @Command(
            name = "list",
            description = {
                "Lists the heaviest items, most frequent first, equal counts by item" + " (TOPK.LIST).",
                "A saturated count, at the counters' largest value, may be below the true count: it"
                        + " is printed with a mark, e.g. '4294967295 (saturated: 32-bit counters)', or in JSON with"
                        + " \"saturated\": true."
            },
            footer = {"%nExample:%n  mapsketch topk list pages.topk --with-count"})
    int list(
            @Parameters(paramLabel = "FILE", description = "A Top-K file.") Path file,
            @Option(names = "--with-count", description = "Print each item's estimated count after a tab.")
                    boolean withCount,
            @Option(
                            names = "--json",
                            description =
                                    "Print a JSON array of {\"item\": ..., \"count\": ...," + " \"saturated\": ...}.")
                    boolean json)
            throws IOException {
        try (TopK sketch = TopK.open(file, OpenMode.READ_ONLY)) {
            list(sketch, withCount, json, root.io().out());
        }
        return 0;
    }

    /**
     * TOPK.LIST on an open sketch: the top k, heaviest first, one per line, with a tab and the count
     * if {@code withCount}, or as one JSON array.
     */
    static void list(TopK sketch, boolean withCount, boolean json, PrintWriter out) {
        List<HeavyHitter> top = sketch.top();
        if (json) {
            out.println(top.stream()
                    .map(hitter -> {
                        Map<String, Object> entry = new LinkedHashMap<>();
                        entry.put("item", hitter.keyAsString());
                        entry.put("count", hitter.estimate());
                        entry.put("saturated", Saturation.isSaturated(sketch, hitter.estimate()));
                        return Info.toJson(entry);
                    })
                    .toList()
                    .toString());
            return;
        }
        for (HeavyHitter hitter : top) {
            out.println(
                    withCount
                            ? hitter.keyAsString() + "\t" + Saturation.text(sketch, hitter.estimate())
                            : hitter.keyAsString());
        }
    }

    @Override
    public boolean reads(SketchKind kind) {
        return kind == SketchKind.TOP_K;
    }

    @Override
    public Sketch open(Path file, OpenMode mode) throws IOException {
        return TopK.open(file, mode);
    }
}
