package io.mapsketch.jmh.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;

/**
 * The report's section "Cost as the work grows": for Bloom filters and Count-Min sketches, a chart of
 * nanoseconds per key against bytes of state and the table behind it, with the memory's floors of
 * {@code MemoryFloorBenchmark} measured in the same run. Sizes a run did not measure (the quick
 * profile leaves some out) are named under each table.
 */
final class SizeSweep {

    /** The floor benchmark class. */
    static final String FLOOR = "MemoryFloorBenchmark";

    static final String DEPENDENT = "dependentLoad";
    static final String INDEPENDENT = "independentLoad";

    /** What the section measures, and how the figures are made. */
    static final String INTRODUCTION = """
            Nanoseconds per key of single-key lookups and adds as the structure grows from the L2 \
            cache to many times the L3 cache (1e9 over JMH's keys per second), each point one JMH \
            fork. The grey lines are the memory's own floors, measured in the same run at the same \
            sizes ([`MemoryFloorBenchmark`](../jmh/src/main/java/io/mapsketch/jmh/MemoryFloorBenchmark.java), \
            random 8-byte loads from an off-heap buffer of that size): a dependent pointer chase \
            along one random cycle through the buffer's lines (the latency of one access; at the \
            largest size, DRAM's, with its TLB miss on 4 KiB pages) and independent loads whose \
            addresses depend on no loaded data (the overlapped-miss floor: what a random access \
            costs when the core overlaps as many misses as it can).

            """;

    /**
     * One structure of the sweep.
     *
     * @param benchmark the class's simple name
     * @param title the subsection's heading
     * @param summary how the structures are sized and filled (Markdown)
     * @param lookup the lookup method, e.g. {@code mightContain}
     * @param lookups what the lookup table is called, e.g. "Lookups"
     * @param add the add method
     * @param sizes every size of the class's {@code size} parameter, for naming those not measured
     * @param profiles which sizes each profile of the benchmark script measures, and why
     * @param chartFile the chart's file name in the images folder
     */
    record Family(
            String benchmark,
            String title,
            String summary,
            String lookup,
            String lookups,
            String add,
            List<Long> sizes,
            String profiles,
            String chartFile) {}

    private SizeSweep() {}

    /** The structures of the section, in order. */
    static List<Family> families() {
        return List.of(
                new Family(
                        "BloomSweepBenchmark",
                        "Bloom filters, 64 KiB to 8 GiB",
                        "1% false-positive rate; each filter is sized for the keys that make its bit array the size "
                                + "of the row (keys = size x 2^20 / its bytes at 2^20 keys: 10.1 bits per key for "
                                + "mapsketch's blocked filter, 9.6 for the classic and Guava's, 11 for fastfilter's). "
                                + "Lookups: half present, half absent keys of a filter holding its design count; adds: "
                                + "fresh keys into a filter holding between half of it and all of it (put back to half "
                                + "once full, in the score). Up to 32 MiB the keys are added. Above, adding them would "
                                + "take minutes per fork (1.7 billion keys at 2 GiB), so each bit is drawn set with the "
                                + "probability that the same filter reaches with the same share of its keys (measured "
                                + "on a 2^20-key filter: about 0.55 for mapsketch's blocked filter, 0.52 for the "
                                + "classic ones, 0.30 for fastfilter's, which sets fewer bits per key), written straight into the bit array (Guava's `AtomicLongArray` and "
                                + "fastfilter's `long[]` by reflection, as neither has a bulk path), and the present "
                                + "probes are then added for real. The drawn bits are spread evenly where real keys "
                                + "clump, which changes no lookup's memory traffic (a blocked filter reads one line "
                                + "either way, a classic filter's absent key stops at its first clear bit) but leaves "
                                + "a blocked filter's false-positive rate a little under 1%. At 32 MiB, where both "
                                + "are possible, the two fills set the same fraction of bits to three decimals and "
                                + "their lookups differed by less than the runs' spread, except Guava's (176 bytes "
                                + "allocated per lookup), which varied between runs by up to 2.4x. fastfilter's "
                                + "`BlockedBloom` computes its bit count in an `int`, so it has no filter above "
                                + "256 MiB.",
                        "mightContain",
                        "Lookups",
                        "add",
                        List.of(1L << 16, 1L << 19, 1L << 22, 1L << 25, 1L << 28, 1L << 31, 1L << 33),
                        "The quick profile measures 64 KiB, 4 MiB, 256 MiB and 2 GiB and leaves 8 GiB out (filling "
                                + "a filter that large and linking the floor's cycle take tens of seconds per fork); the "
                                + "full profile measures every size.",
                        "bench-sizes-bloom.png"),
                new Family(
                        "CountMinSweepBenchmark",
                        "Count-Min sketches, 53 KiB to 1 GiB",
                        "Delta 0.01 (5 rows); the size is mapsketch's 32-bit counter matrix, rows as wide as "
                                + "fit in whole 64-byte lines. The peers get the same width and depth, so the same "
                                + "error bound, in 64-bit counters: twice the bytes at each point. The sketch holds the "
                                + "Zipf stream of 2^24 keys of the frequency tables before either method is timed; "
                                + "adds add the stream again, estimates ask half stream keys, half keys never added. "
                                + "No fill changes a Count-Min sketch's cost: each call touches one counter per row.",
                        "estimate",
                        "Estimates",
                        "add",
                        List.of(54_400L, 1L << 19, 1L << 22, 1L << 25, 1L << 28, 1L << 30),
                        "The quick profile measures 53 KiB, 32 MiB and 1 GiB (each fork draws and adds the "
                                + "2^24-key stream, seconds of setup); the full profile measures every size.",
                        "bench-sizes-countmin.png"));
    }

    /**
     * The section: the introduction, the DRAM figures, and per family its summary, tables and chart.
     *
     * @param results the run's scores
     * @param images the folder the charts are written to
     * @param imageLink a chart's link from the document, by file name
     * @param provenance appends a class's JMH settings (and an earlier run's name) to the text
     * @return the Markdown of the section, its heading included
     * @throws IOException if a chart cannot be written
     */
    static String render(
            ResultSet results,
            Path images,
            UnaryOperator<String> imageLink,
            BiConsumer<StringBuilder, String> provenance)
            throws IOException {
        StringBuilder out = new StringBuilder("## Cost as the work grows\n\n").append(INTRODUCTION);
        SweepSeries floor = SweepSeries.of(results, FLOOR);
        out.append(dramLine(floor));
        if (!floor.isEmpty()) {
            provenance.accept(out, FLOOR);
        }
        out.append('\n');
        for (Family family : families()) {
            SweepSeries series = SweepSeries.of(results, family.benchmark());
            out.append("### ")
                    .append(family.title())
                    .append(" ([`")
                    .append(family.benchmark())
                    .append("`](../jmh/src/main/java/io/mapsketch/jmh/")
                    .append(family.benchmark())
                    .append(".java))\n\n")
                    .append(family.summary())
                    .append('\n');
            if (series.isEmpty()) {
                out.append("\n_Not measured in this run._\n\n");
                continue;
            }
            provenance.accept(out, family.benchmark());
            out.append('\n')
                    .append(table(series, floor, family.lookup(), family.lookups()))
                    .append(table(series, floor, family.add(), "Adds"))
                    .append(notMeasured(family, series));
            SweepCharts.write(
                    List.of(panel(series, floor, family, family.lookup()), panel(series, floor, family, family.add())),
                    images.resolve(family.chartFile()));
            out.append("![")
                    .append(family.title())
                    .append("](")
                    .append(imageLink.apply(family.chartFile()))
                    .append(")\n\n");
        }
        return out.toString();
    }

    /** The dependent and the independent loads' cost at the largest size the floors were measured at. */
    static String dramLine(SweepSeries floor) {
        Optional<SweepSeries.Point> dependent = last(floor.points(DEPENDENT, ""));
        Optional<SweepSeries.Point> independent = last(floor.points(INDEPENDENT, ""));
        if (dependent.isEmpty() && independent.isEmpty()) {
            return "_The floors were not measured in this run._\n";
        }
        StringBuilder line = new StringBuilder("Measured in this run, in its largest buffer:");
        dependent.ifPresent(p -> line.append(" dependent loads **")
                .append(Format.nanos(p.nanos()))
                .append(" ns** each in ")
                .append(Format.bytes(p.bytes()))
                .append(" (the DRAM latency, where the buffer is far larger than the L3 cache)"));
        independent.ifPresent(p -> line.append(dependent.isPresent() ? ";" : "")
                .append(" the overlapped-miss floor **")
                .append(Format.nanos(p.nanos()))
                .append(" ns** per load in ")
                .append(Format.bytes(p.bytes())));
        return line.append(".\n").toString();
    }

    /**
     * A method's table: one row per size, one column per implementation (nanoseconds per key), the
     * best of mapsketch against the best peer, and the floors where they were measured at that size.
     */
    static String table(SweepSeries series, SweepSeries floor, String method, String what) {
        List<String> impls = new ArrayList<>(series.impls(method));
        if (impls.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder("**")
                .append(what)
                .append(" (`")
                .append(method)
                .append("`)**, nanoseconds per key, lower is better\n\n| size |");
        impls.forEach(impl -> out.append(' ').append(impl).append(" |"));
        out.append(" mapsketch vs best peer | dependent load | independent load |\n|---|")
                .append("--:|".repeat(impls.size() + 3))
                .append('\n');
        for (long bytes : series.sizes()) {
            out.append("| ").append(Format.bytes(bytes)).append(" |");
            for (String impl : impls) {
                out.append(' ')
                        .append(series.point(method, impl, bytes)
                                .map(SizeSweep::cell)
                                .orElse("–"))
                        .append(" |");
            }
            Optional<SweepSeries.Point> ours = series.best(method, bytes, true);
            Optional<SweepSeries.Point> peer = series.best(method, bytes, false);
            out.append(' ')
                    .append(
                            ours.isPresent() && peer.isPresent()
                                    ? Format.ratio(
                                            peer.get().nanos() / ours.get().nanos())
                                    : "–")
                    .append(" | ")
                    .append(floor.point(DEPENDENT, "", bytes)
                            .map(SizeSweep::cell)
                            .orElse("–"))
                    .append(" | ")
                    .append(floor.point(INDEPENDENT, "", bytes)
                            .map(SizeSweep::cell)
                            .orElse("–"))
                    .append(" |\n");
        }
        return out.append('\n').toString();
    }

    /** The sizes of the family that no method measured in this run, or nothing. */
    static String notMeasured(Family family, SweepSeries series) {
        List<Long> measured = series.sizes();
        List<String> missing = family.sizes().stream()
                .filter(size -> !measured.contains(size))
                .map(Format::bytes)
                .toList();
        if (missing.isEmpty()) {
            return "";
        }
        return "Not measured in this run: " + String.join(", ", missing) + ". " + family.profiles() + "\n\n";
    }

    private static SweepCharts.Panel panel(SweepSeries series, SweepSeries floor, Family family, String method) {
        List<SweepCharts.Named> lines = series.impls(method).stream()
                .map(impl -> new SweepCharts.Named(impl, series.points(method, impl)))
                .toList();
        String kind = method.equals(family.add()) ? "adds" : family.lookups().toLowerCase(Locale.ROOT);
        return new SweepCharts.Panel(
                family.title() + ": " + kind + " (" + method + ")",
                lines,
                List.of(
                        new SweepCharts.Named("dependent load (latency)", floor.points(DEPENDENT, "")),
                        new SweepCharts.Named("independent loads (overlapped misses)", floor.points(INDEPENDENT, ""))));
    }

    private static String cell(SweepSeries.Point point) {
        return Double.isNaN(point.error())
                ? Format.nanos(point.nanos())
                : Format.nanos(point.nanos()) + " ± " + Format.nanos(point.error());
    }

    private static <T> Optional<T> last(List<T> list) {
        return list.isEmpty() ? Optional.empty() : Optional.of(list.getLast());
    }
}
