package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchKind;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.memory.LiveCounters;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code mapsketch cms}: Count-Min sketches, "how often does X occur?" with overcounts only. */
@Command(
        name = "cms",
        description = "Count-Min sketches: how often does X occur? (overcounts only, by at most"
                + " epsilon x N with probability 1 - delta)",
        subcommands = FamilyInfo.class)
final class CountMinCommands implements SketchFamily {

    @ParentCommand
    private MapsketchCommand root;

    @Command(
            name = "create",
            description = {
                "Creates an empty Count-Min sketch of ceil(e / E) x ceil(ln(1 / D)) counters (CMS.INITBYPROB),"
                        + " or of W x D counters (CMS.INITBYDIM): give --epsilon and --delta, or --width and --depth."
            },
            footer = {
                "%nExamples:%n  mapsketch cms create events.cms --epsilon 0.001 --delta 0.01",
                "  mapsketch cms create events.cms --width 2000 --depth 5"
            })
    int create(
            @Parameters(paramLabel = "FILE", description = "The file to create.") Path file,
            @Mixin CountMinShape shape,
            @Option(
                            names = "--conservative",
                            description = "Conservative update: smaller overcounts; merges and"
                                    + " concurrent adds are then bounded, not exact.")
                    boolean conservative,
            @Mixin CreateOptions options)
            throws IOException {
        CountMinSketch.Builder builder =
                CountMinSketch.builder().counterBits(shape.counterBits()).conservativeUpdate(conservative);
        shape.apply(builder::dimensions, (e, d) -> builder.epsilon(e).delta(d));
        options.create(file, builder);
        return 0;
    }

    @Command(
            name = "incrby",
            description = {
                "Adds COUNT occurrences of each ITEM and prints each item's new estimate, one per line"
                        + " (CMS.INCRBY). Any number of processes may add to one file at once. Every pair is checked"
                        + " before anything is added.",
                "With no arguments, adds one occurrence of each line of standard input, printing its estimate;"
                        + " a line refused stops the verb there, the lines before it added.",
                "An item whose count reaches the counters' largest value (2^32 - 1 for 32-bit"
                        + " counters) is saturated: a line on standard error names it and the option that counts further."
            },
            footer = {
                "%nExamples:%n  mapsketch cms incrby events.cms login 3 logout 1",
                "  cut -f2 access.log | mapsketch cms incrby events.cms > /dev/null"
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
            incrby(sketch, file, arguments, counts, root.io());
        }
        return 0;
    }

    /**
     * CMS.INCRBY on an open sketch: adds each pair's count ({@link #counts}, checked before) and prints
     * each item's new estimate, or, with no pairs, one occurrence of each line of standard input. Counts
     * that would take N past its limit are refused before anything is added.
     */
    static void incrby(CountMinSketch sketch, Path file, List<String> pairs, long[] counts, CommandIo io) {
        PrintWriter out = io.out();
        requireRoom(file, sketch.totalWeight(), counts);
        Saturation saturation = new Saturation(file, sketch, "cms create");
        try {
            if (pairs.isEmpty()) {
                Items.each(file, List.of(), io.forAnswers(), (bytes, offset, length) -> {
                    long estimate = sketch.add(bytes, offset, length);
                    saturation.added(bytes, offset, length, estimate);
                    out.println(Saturation.text(sketch, estimate));
                });
            }
            for (int i = 0; i < counts.length; i++) {
                String item = pairs.get(2 * i);
                long estimate;
                try {
                    estimate = sketch.add(item, counts[i]);
                } catch (IllegalArgumentException refused) {
                    throw Items.stopped(file, "pair " + (i + 1), refused.getMessage(), i, "pair");
                }
                saturation.added(item, estimate);
                out.println(Saturation.text(sketch, estimate));
            }
        } finally {
            saturation.report(io.err());
        }
    }

    /** The COUNT of each ITEM COUNT pair, all checked before anything is added. */
    static long[] counts(List<String> pairs) {
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

    /**
     * Refuses counts whose sum would take the sketch's total N past its limit, before any is added (a
     * concurrent writer may still take the room first; the engine then refuses the pair that does not fit).
     */
    static void requireRoom(Path file, long totalWeight, long[] counts) {
        long sum = 0;
        for (long count : counts) {
            sum = count > LiveCounters.LIMIT - sum ? Long.MAX_VALUE : sum + count;
        }
        long room = LiveCounters.LIMIT - totalWeight;
        if (sum > room) {
            throw new IllegalArgumentException(file + ": the counts add up to "
                    + (sum == Long.MAX_VALUE ? "more than " + LiveCounters.LIMIT : Long.toString(sum))
                    + ", which would take the total N = " + totalWeight + " past " + LiveCounters.LIMIT
                    + " (2^63 - 2^55 - 1); nothing was added");
        }
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
        query(input, root.io());
        return 0;
    }

    /** CMS.QUERY: opens the sketch read-only and prints each item's estimate. */
    static void query(FileAndItems input, CommandIo io) throws IOException {
        try (CountMinSketch sketch = CountMinSketch.open(input.file(), OpenMode.READ_ONLY)) {
            Saturation.printEstimates(sketch, input, io);
        }
    }

    @Command(
            name = "merge",
            description = {
                "Adds the SRC sketches into DEST, each W times with --weights (CMS.MERGE): DEST's counts grow by"
                        + " the sum of W x SRC. A missing DEST is created empty in the first source's shape; DEST"
                        + " among the sources is refused (its counts would be added again). The sources stay unchanged.",
                "Unlike CMS.MERGE, an existing DEST keeps its own counts: merge into a new DEST for the weighted sum alone."
            },
            footer = {"%nExample:%n  mapsketch cms merge week.cms mon.cms tue.cms --weights 1 2"})
    int mergeVerb(
            @Parameters(index = "0", paramLabel = "DEST", description = "The Count-Min sketch to add into.")
                    Path destination,
            @Parameters(index = "1..*", arity = "1..*", paramLabel = "SRC", description = "Count-Min files.")
                    List<Path> sources,
            @Option(
                            names = "--weights",
                            arity = "1..*",
                            paramLabel = "W",
                            description = "One weight per SRC, each at least 1 (default: 1 each).")
                    List<Long> weights)
            throws IOException {
        long[] times = weights(weights, sources);
        Merging.merge(
                destination, sources, CountMinSketch::open, (into, from, source) -> into.merge(from, times[source]));
        return 0;
    }

    /**
     * The weight of each SRC from {@code --weights} (1 each if not given), checked before anything is
     * merged: one per SRC, each at least 1.
     */
    static long[] weights(List<Long> weights, List<Path> sources) {
        long[] times = new long[sources.size()];
        Arrays.fill(times, 1);
        if (weights == null) {
            return times;
        }
        if (weights.size() != sources.size()) {
            throw new IllegalArgumentException("--weights gives " + weights.size() + " weights for " + sources.size()
                    + " sources; give one per SRC");
        }
        for (int i = 0; i < times.length; i++) {
            times[i] = weights.get(i);
            if (times[i] < 1) {
                throw new IllegalArgumentException(
                        "--weights: the weight of " + sources.get(i) + " is " + times[i] + ", must be at least 1");
            }
        }
        return times;
    }

    @Override
    public boolean reads(SketchKind kind) {
        return kind == SketchKind.COUNT_MIN;
    }

    @Override
    public Sketch open(Path file, OpenMode mode) throws IOException {
        return CountMinSketch.open(file, mode);
    }
}
