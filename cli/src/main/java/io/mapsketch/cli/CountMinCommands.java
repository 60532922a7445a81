package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchKind;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.frequency.FrequencySketch;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code mapsketch cms}: Count-Min sketches, "how often does X occur?" with overcounts only. */
@Command(
        name = "cms",
        description = "Count-Min sketches: how often does X occur? (overcounts only, by at most"
                + " epsilon x N with probability 1 - delta)")
final class CountMinCommands implements SketchFamily {

    @ParentCommand
    private MapsketchCommand root;

    @Command(
            name = "create",
            description = "Creates an empty Count-Min sketch of ceil(e / E) x ceil(ln(1 / D))" + " counters.",
            footer = {"%nExample:%n  mapsketch cms create events.cms --epsilon 0.001 --delta 0.01"})
    int create(
            @Parameters(paramLabel = "FILE", description = "The file to create.") Path file,
            @Option(
                            names = "--epsilon",
                            paramLabel = "E",
                            required = true,
                            description = "Error as a fraction of the total count N, in (0, 1), e.g. 0.001.")
                    double epsilon,
            @Option(
                            names = "--delta",
                            paramLabel = "D",
                            required = true,
                            description =
                                    "Probability that an estimate is off by more than E x N, in (0, 1), e.g. 0.01.")
                    double delta,
            @Option(
                            names = "--counter-bits",
                            paramLabel = "BITS",
                            defaultValue = "32",
                            description = "32 (default) or 64; counters saturate at 2^32 - 1 or 2^64 - 1, never wrap.")
                    int counterBits,
            @Option(
                            names = "--conservative",
                            description = "Conservative update: smaller overcounts; merges and"
                                    + " concurrent adds are then bounded, not exact.")
                    boolean conservative,
            @Mixin CreateOptions options)
            throws IOException {
        options.create(
                file,
                CountMinSketch.builder()
                        .epsilon(epsilon)
                        .delta(delta)
                        .counterBits(counterBits)
                        .conservativeUpdate(conservative));
        return 0;
    }

    @Command(
            name = "incrby",
            description = {
                "Adds COUNT occurrences of each ITEM (CMS.INCRBY). Any number of"
                        + " processes may add to one file at once.",
                "With no arguments, adds one occurrence of each line of" + " standard input.",
                "An item whose count reaches the counters' largest value (2^32 - 1 for 32-bit"
                        + " counters) is saturated: a line on standard error names it and the option that counts further."
            },
            footer = {
                "%nExamples:%n  mapsketch cms incrby events.cms login 3 logout 1",
                "  cut -f2 access.log | mapsketch cms incrby events.cms"
            })
    int incrby(
            @Parameters(index = "0", paramLabel = "FILE", description = "A Count-Min file.") Path file,
            @Parameters(
                            index = "1..*",
                            paramLabel = "ITEM COUNT",
                            description = "Items, as UTF-8 strings, each followed by its count (at least 1).")
                    List<String> pairs)
            throws IOException {
        List<String> arguments = pairs == null ? List.of() : pairs;
        long[] counts = counts(arguments);
        try (CountMinSketch sketch = CountMinSketch.open(file, OpenMode.SHARED)) {
            Saturation saturation = new Saturation(file, sketch, "cms create");
            try {
                if (arguments.isEmpty()) {
                    Items.eachBatch(List.of(), root.io(), (data, offsets, lengths, count) -> {
                        sketch.addAll(data, offsets, lengths, count);
                        saturation.added(data, offsets, lengths, count);
                    });
                }
                for (int i = 0; i < counts.length; i++) {
                    String item = arguments.get(2 * i);
                    saturation.added(item, sketch.add(item, counts[i]));
                }
            } finally {
                saturation.report(root.io().err());
            }
        }
        return 0;
    }

    /** The COUNT of each ITEM COUNT pair, all checked before anything is added. */
    private static long[] counts(List<String> pairs) {
        if (pairs.size() % 2 != 0) {
            throw new IllegalArgumentException(
                    "expected ITEM COUNT pairs, but item '" + pairs.getLast() + "' has no count");
        }
        long[] counts = new long[pairs.size() / 2];
        for (int i = 0; i < counts.length; i++) {
            String count = pairs.get(2 * i + 1);
            try {
                counts[i] = Long.parseLong(count);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "the count of item '" + pairs.get(2 * i) + "' is '" + count + "', not a whole number");
            }
            if (counts[i] < 1) {
                throw new IllegalArgumentException(
                        "the count of item '" + pairs.get(2 * i) + "' is " + count + ", must be at least 1");
            }
        }
        return counts;
    }

    @Command(
            name = "query",
            description = {
                "Prints the estimated count of each item, one per line: never below" + " the true count (CMS.QUERY).",
                "With no ITEM, answers each line of standard input.",
                "A saturated"
                        + " estimate, at the counters' largest value, may be below the true count: it is printed with a mark,"
                        + " e.g. '4294967295 (saturated: 32-bit counters)'."
            },
            footer = {"%nExample:%n  mapsketch cms query events.cms login logout"})
    int query(@Mixin FileAndItems input) throws IOException {
        PrintWriter out = root.io().out();
        try (CountMinSketch sketch = CountMinSketch.open(input.file(), OpenMode.READ_ONLY)) {
            input.each(
                    root.io().forAnswers(),
                    (bytes, offset, length) ->
                            out.println(Saturation.text(sketch, sketch.estimate(bytes, offset, length))));
        }
        return 0;
    }

    @Override
    public boolean reads(SketchKind kind) {
        return kind == SketchKind.COUNT_MIN;
    }

    @Override
    public void describe(Path file, Map<String, Object> facts) throws IOException {
        try (CountMinSketch sketch = CountMinSketch.open(file, OpenMode.READ_ONLY)) {
            describeCounters(sketch, facts);
        }
    }

    /** The Count-Min figures, shared with Top-K files (a Count-Min sketch plus candidates). */
    static void describeCounters(FrequencySketch sketch, Map<String, Object> facts) {
        facts.put("epsilon", sketch.epsilon());
        facts.put("delta", sketch.delta());
        facts.put("width", sketch.width());
        facts.put("depth", sketch.depth());
        facts.put("counter bits", sketch.counterBits());
        facts.put("conservative update", sketch.isConservative());
        facts.put("memory bytes", sketch.memoryBytes());
        facts.put("error bound", sketch.errorBound());
    }

    @Override
    public Sketch open(Path file, OpenMode mode) throws IOException {
        return CountMinSketch.open(file, mode);
    }
}
