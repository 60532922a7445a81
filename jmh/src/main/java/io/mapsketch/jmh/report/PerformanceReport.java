package io.mapsketch.jmh.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Renders the performance report from a results folder: the whole of {@code docs/performance.md} (one
 * section per question, mapsketch and the peers side by side, Spark's aggregations, the memory table, the run's machine and
 * settings, and a footer that points to the design notes), the charts in {@code docs/img/}, and the
 * headline ratios in the generated region of the README. Run by the benchmark script after the suites; can be run again on committed
 * results to re-render them.
 *
 * <p>Usage: {@code PerformanceReport RESULTS_FOLDER DOCUMENT README IMAGES_FOLDER}. The results
 * folder holds JMH's {@code jmh-*.json} files, {@code run.json} ({@link RunRecord}) and, optionally,
 * {@code memory.json}. The document is replaced as a whole: it holds the report and nothing else.
 * Cost: reading the JSON and drawing a dozen charts, a few seconds.
 */
public final class PerformanceReport {

    /** The name of the generated region in the README. */
    static final String REGION = "performance-report";

    /** The document's title and the paragraph on how the report is made. */
    static final String INTRODUCTION = """
            # Performance

            mapsketch and the libraries a user would otherwise pick, side by side, measured with the JMH \
            suites of the `jmh` module. This file is generated, all of it: `scripts/bench quick` \
            (minutes) or `scripts/bench full` (hours) builds the benchmarks, runs them, keeps JMH's JSON \
            in `docs/results/` and renders this report, its charts in `docs/img/` and the README's \
            headline ratios from it; `scripts/bench render` renders the committed results again without \
            running anything.

            """;

    /** The document's last section: where the measured reasons behind the figures are kept. */
    static final String FOOTER = """

            ## Why the figures are what they are

            The measurements behind each hot path (where the time goes, the variants tried and \
            rejected, the commands) are kept with each family's design notes in [`design/`](design/): \
            [membership](design/membership.md) (Bloom and cuckoo filters), \
            [frequency](design/frequency.md) (Count-Min and Top-K), \
            [cardinality](design/cardinality.md) (HyperLogLog), [similarity](design/similarity.md) \
            (MinHash and SimHash), [kernels](design/kernels.md) (the bulk kernels and batch hashing) \
            and [files](design/files.md) (opening a file, the command's standard input, the items \
            counter).
            """;

    /** What the latency section measures, and its targets. */
    static final String LATENCY_INTRODUCTION = """
            Percentiles of single calls in nanoseconds: JMH's `SampleTime` mode, one call per \
            invocation, so each figure includes the timer's own cost (the floor below). mapsketch's \
            sketches live in files, opened `EXCLUSIVE`, `SHARED`, and `SHARED` while a second JVM \
            adds to the same file flat out (`-shared-writer`). Targets: in cache, p99.9 at most 3x \
            p50; the writer JVM moves the reader's p99.9 by at most 1.5x; mapsketch's rows without a \
            writer at or below every peer's at every percentile. JMH keeps about 20 samples per \
            measured millisecond (some 100,000 per row in the quick profile), so p99.99 rests on about \
            ten samples there.

            """;

    /** What the many-processes section measures, and its target. */
    static final String WRITERS_INTRODUCTION = """
            `SHARED` adds from several JVMs to one file at once (`ManyWritersBenchmark`, not JMH: one \
            process per writer): a fresh file takes the keys split evenly among the writers, one `add` \
            per key; keys per second from the first writer's first add to the last writer's last, the \
            median of the rounds, and the file's counters checked exact afterwards. Counter layouts: \
            `mapsketch-slots`, each writer counts in a counter slot of its own (format version 5); \
            `mapsketch-shared-word`, every writer counts in the header's one shared word. CPU per key \
            is the writers' adding threads' CPU time over the keys, which other programs on the machine \
            do not change. Target: 2 writer JVMs on 2 cores at least %.1fx one.

            """.formatted(WritersTable.TARGET);

    private final Path results;
    private final Path document;
    private final Path images;
    private final ResultSet scores;
    private final RunRecord run;

    private PerformanceReport(Path results, Path document, Path images) {
        this.results = results;
        this.document = document;
        this.images = images;
        this.scores = ResultSet.read(results);
        this.run = RunRecord.read(results);
    }

    /**
     * Renders the report.
     *
     * @param args {@code RESULTS_FOLDER DOCUMENT README IMAGES_FOLDER}
     * @throws IOException if a result cannot be read or a document or chart cannot be written
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            throw new IllegalArgumentException(
                    "usage: PerformanceReport RESULTS_FOLDER DOCUMENT README IMAGES_FOLDER; got " + List.of(args));
        }
        System.setProperty("java.awt.headless", "true");
        PerformanceReport report = new PerformanceReport(Path.of(args[0]), Path.of(args[1]), Path.of(args[3]));
        Files.createDirectories(report.images);
        Files.writeString(report.document, report.document(), StandardCharsets.UTF_8);
        MarkedRegion.replace(Path.of(args[2]), REGION, report.headlines(true));
    }

    private String document() throws IOException {
        StringBuilder out = new StringBuilder();
        Path docs = document.toAbsolutePath().getParent();
        String resultsLink =
                docs.relativize(results.toAbsolutePath()).toString().replace('\\', '/') + "/";
        out.append(INTRODUCTION);
        out.append("_Generated by `")
                .append(run.command())
                .append("` from the JMH results in [`")
                .append(resultsLink)
                .append("`](")
                .append(resultsLink)
                .append("); run it again to refresh " + "this file._\n\n");
        runTable(out);
        out.append("\n### Headline ratios\n\n").append(headlines(false)).append('\n');
        out.append("""
                Scores are operations per second (keys per second for batch methods, which is what their \
                `@OperationsPerInvocation` makes JMH count) unless a table says otherwise; ± is JMH's \
                99.9% confidence half-width. Each ratio compares a row with the best peer at the same \
                setting (above 1: faster than every peer), or with the scalar kernel in the kernel \
                table. The machine is shared with other work: compare ratios within one table, \
                measured in the same run, rather than absolute figures across runs.

                """);
        List<SuiteScores> all = new ArrayList<>();
        for (Question question : Question.all()) {
            out.append("## ").append(question.title()).append("\n\n");
            for (Suite suite : question.suites()) {
                SuiteScores suiteScores = new SuiteScores(suite, scores.of(suite.benchmark()));
                all.add(suiteScores);
                suiteSection(out, suiteScores);
            }
        }
        latencySections(out);
        out.append("## Many processes\n\n")
                .append(WRITERS_INTRODUCTION)
                .append(WritersTable.render(results).orElse("_Not measured in this run._\n"))
                .append('\n');
        out.append("## Spark aggregations (")
                .append(SparkTable.SOURCE_LINK)
                .append(")\n\n")
                .append(SparkTable.INTRODUCTION);
        Optional<String> spark = SparkTable.render(scores);
        if (spark.isPresent()) {
            provenance(out, SparkTable.BENCHMARK);
            out.append('\n');
        }
        out.append(spark.orElse("_Not measured in this run._\n")).append('\n');
        Charts.cache(all, images.resolve("bench-cache.png"));
        out.append("## In cache and out of cache\n\n")
                .append("The same lookups or estimates against a structure that fits in the caches and "
                        + "one far larger than them, where every probe is a cache miss.\n\n")
                .append("![In cache and out of cache](")
                .append(imageLink("bench-cache.png"))
                .append(")\n\n");
        out.append(SizeSweep.render(scores, images, this::imageLink, this::provenance));
        out.append("## Memory\n\n");
        Optional<String> memory = MemoryTable.render(results);
        out.append(memory.map(table -> "Bytes of each sketch's state at the settings of the speed tables "
                        + "(mapsketch: the whole file, header included).\n\n" + table)
                .orElse("_Not measured in this run._\n"));
        out.append(FOOTER);
        return out.toString();
    }

    private void runTable(StringBuilder out) {
        Duration elapsed = run.elapsed();
        out.append("| run | |\n|---|---|\n")
                .append("| started | ")
                .append(run.started().replace('T', ' ').replaceAll("\\.\\d+Z$", " UTC"))
                .append(
                        elapsed == null
                                ? " (did not finish)"
                                : " (%d min %d s)".formatted(elapsed.toMinutes(), elapsed.toSecondsPart()))
                .append(" |\n")
                .append("| command | `")
                .append(run.command())
                .append("` (profile `")
                .append(run.profile())
                .append("`: JMH `")
                .append(run.jmhOptions())
                .append("`) |\n")
                .append("| suites | ")
                .append(String.join(", ", run.suites()))
                .append(" |\n")
                .append("| commit | `")
                .append(run.commit())
                .append("` |\n")
                .append("| machine | ")
                .append(run.cpuModel())
                .append(", ")
                .append(run.cores())
                .append(" cores, ")
                .append(Format.bytes(run.memoryBytes()))
                .append(" memory, ")
                .append(run.os())
                .append(" |\n");
        scores.jvms().stream()
                .map(jvm -> jvm.vm() + " (JDK " + jvm.jdk() + ")")
                .distinct()
                .forEach(jvm -> out.append("| JVM | ").append(jvm).append(" |\n"));
    }

    private String headlines(boolean forReadme) {
        StringBuilder out = new StringBuilder();
        for (Headline headline : Headline.all()) {
            out.append("- ")
                    .append(headline.claim())
                    .append(": ")
                    .append(headline.measure(scores)
                            .map(m -> "**" + m.replaceFirst(" ", "** "))
                            .orElse("not measured in this run"))
                    .append('\n');
        }
        if (forReadme) {
            out.append('\n').append(measuredBy(run, scores.suiteNames()));
        }
        return out.toString();
    }

    /**
     * The README's line under the headline ratios: the last run's command and machine, and which suites
     * of the results folder that run did not measure (their tables come from earlier runs).
     */
    static String measuredBy(RunRecord run, Collection<String> suitesInResults) {
        List<String> earlier = suitesInResults.stream()
                .filter(name -> !run.suites().contains(name))
                .toList();
        return "Measured by `" + run.command() + "`"
                + (earlier.isEmpty()
                        ? ""
                        : " (suites " + String.join(", ", earlier) + ": by earlier runs of "
                                + "`scripts/bench`, as their tables say)")
                + " on " + run.cpuModel() + " (" + run.cores() + " cores); every table, chart and peer is in "
                + "[docs/performance.md](docs/performance.md).\n";
    }

    private void suiteSection(StringBuilder out, SuiteScores suiteScores) throws IOException {
        Suite suite = suiteScores.suite();
        out.append("### ")
                .append(suite.title())
                .append(" (")
                .append(suite.sourceLink())
                .append(")\n\n")
                .append(suite.summary())
                .append('\n');
        if (suiteScores.isEmpty()) {
            out.append("\n_Not measured in this run._\n\n");
            return;
        }
        provenance(out, suite.benchmark());
        out.append('\n').append(SuiteTables.render(suiteScores));
        Charts.suite(suiteScores, images.resolve(suite.chartFile()));
        out.append("![")
                .append(suite.title())
                .append("](")
                .append(imageLink(suite.chartFile()))
                .append(")\n\n");
    }

    /** Which earlier run measured a class, if not the last one, and its JMH settings and JVM flags. */
    private void provenance(StringBuilder out, String benchmark) {
        scores.suite(benchmark)
                .filter(name -> !run.suites().contains(name))
                .ifPresent(name -> out.append("_From an earlier run than the one described above (suite `")
                        .append(name)
                        .append("`)._\n"));
        scores.jvm(benchmark)
                .ifPresent(jvm -> out.append("JMH: ")
                        .append(jvm.settings())
                        .append("; JVM flags `")
                        .append(String.join(" ", jvm.jvmArgs()))
                        .append("`.\n"));
    }

    private void latencySections(StringBuilder out) {
        out.append("## Latency tails\n\n")
                .append(LATENCY_INTRODUCTION)
                .append(LatencyTables.floorLine(
                        scores.of(LatencySuite.TIMER_FLOOR).stream().findFirst()));
        for (LatencySuite suite : LatencySuite.all()) {
            out.append("### ")
                    .append(suite.title())
                    .append(" (")
                    .append(suite.asSuite().sourceLink())
                    .append(")\n\n")
                    .append(suite.summary())
                    .append('\n');
            SuiteScores suiteScores = new SuiteScores(suite.asSuite(), scores.of(suite.benchmark()));
            if (suiteScores.isEmpty()) {
                out.append("\n_Not measured in this run._\n\n");
                continue;
            }
            provenance(out, suite.benchmark());
            out.append('\n').append(LatencyTables.render(suite, suiteScores));
        }
    }

    private String imageLink(String file) {
        Path docs = document.toAbsolutePath().getParent();
        return docs.relativize(images.toAbsolutePath().resolve(file)).toString().replace('\\', '/');
    }
}
