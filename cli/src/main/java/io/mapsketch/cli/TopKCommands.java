package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchKind;
import io.mapsketch.frequency.HeavyHitter;
import io.mapsketch.frequency.TopK;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code mapsketch topk}: the k heaviest items of a stream, kept with a Count-Min sketch in one file. */
@Command(
        name = "topk",
        description = "Top-K: the k most frequent items, with Count-Min estimates (never below" + " the true count)")
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
                "Adds one occurrence of each item (TOPK.ADD). Any number of processes"
                        + " may add to one file at once.",
                "With no ITEM, adds each line of standard input.",
                "An item whose count"
                        + " reaches the counters' largest value (2^32 - 1 for 32-bit counters) is saturated: a line on standard"
                        + " error names it and the option that counts further."
            },
            footer = {
                "%nExamples:%n  mapsketch topk add pages.topk /home /about /home",
                "  cut -f7 -d' ' access.log | mapsketch topk add pages.topk"
            })
    int add(@Mixin FileAndItems input) throws IOException {
        try (TopK sketch = TopK.open(input.file(), OpenMode.SHARED)) {
            Saturation saturation = new Saturation(input.file(), sketch, "topk create");
            try {
                input.eachBatch(root.io(), (data, offsets, lengths, count) -> {
                    sketch.addAll(data, offsets, lengths, count);
                    saturation.added(data, offsets, lengths, count);
                });
            } finally {
                saturation.report(root.io().err());
            }
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
        PrintWriter out = root.io().out();
        try (TopK sketch = TopK.open(file, OpenMode.READ_ONLY)) {
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
                return 0;
            }
            for (HeavyHitter hitter : top) {
                out.println(
                        withCount
                                ? hitter.keyAsString() + "\t" + Saturation.text(sketch, hitter.estimate())
                                : hitter.keyAsString());
            }
        }
        return 0;
    }

    @Override
    public boolean reads(SketchKind kind) {
        return kind == SketchKind.TOP_K;
    }

    @Override
    public void describe(Path file, Map<String, Object> facts) throws IOException {
        try (TopK sketch = TopK.open(file, OpenMode.READ_ONLY)) {
            facts.put("k", sketch.k());
            facts.put("max item bytes", sketch.maxKeyBytes());
            facts.put("candidates", sketch.top().size());
            facts.put("candidate lock recoveries", sketch.candidateRecoveries());
            CountMinCommands.describeCounters(sketch, facts);
        }
    }

    @Override
    public Sketch open(Path file, OpenMode mode) throws IOException {
        return TopK.open(file, mode);
    }
}
