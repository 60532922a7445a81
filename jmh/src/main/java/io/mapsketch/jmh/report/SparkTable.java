package io.mapsketch.jmh.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Spark section: whole aggregations of a cached column in a local session, mapsketch's SQL aggregates
 * against Spark's own sketches, from the JMH results of the spark module's {@code SparkAggregationBenchmark}
 * ({@code jmh-spark.json}). Each score is the seconds of one aggregation ({@code SingleShotTime}); the table
 * shows keys per second per core, {@code items / seconds / cores}, and each mapsketch row's ratio to Spark's
 * own at the same key type and size, mapsketch's row first of each pair.
 */
final class SparkTable {

    /** The benchmark class's simple name. */
    static final String BENCHMARK = "SparkAggregationBenchmark";

    /** A Markdown link to the class's source, relative to a document in {@code docs/}. */
    static final String SOURCE_LINK =
            "[`" + BENCHMARK + "`](../spark/src/test/java/io/mapsketch/spark/" + BENCHMARK + ".java)";

    /** What the section measures. */
    static final String INTRODUCTION = """
            `mapsketch_bloom_agg` and `mapsketch_hll_agg` against Spark's own `df.stat().bloomFilter` and \
            `hll_sketch_agg`, each aggregation whole and brought to the driver as bytes, in a \
            `local[cores]` session of the spark module (its test class path, not the benchmarks' jar) over \
            the same cached column of `items` distinct keys, `bigint` or `string`. Equal parameters: Bloom \
            filters sized for `items` keys at 1% false positives (mapsketch's blocked layout, Spark's \
            classic one); HyperLogLogs at precision 12 (`hll_sketch_agg(k, 12)`, DataSketches' HLL_4). \
            Keys per second per core is `items / seconds / cores`; the ratio is mapsketch's over Spark's own \
            at the same key type (above 1: mapsketch is faster).

            """;

    private static final Map<String, String> SKETCHES = Map.of("bloom", "Bloom filter", "hyperLogLog", "HyperLogLog");
    private static final String PEER = "spark";

    private SparkTable() {}

    /**
     * The table, or empty if the results hold no run of the benchmark.
     *
     * @param scores the results
     * @return the Markdown table
     */
    static Optional<String> render(ResultSet scores) {
        List<Score> runs = scores.of(BENCHMARK).stream()
                .sorted(Comparator.comparing(Score::method)
                        .thenComparing(run -> run.setting().getOrDefault("keys", ""))
                        .thenComparing(run -> run.isMapsketch() ? 0 : 1))
                .toList();
        if (runs.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder out = new StringBuilder(
                "| sketch | keys | items | implementation | seconds per aggregation | keys/s per core | vs Spark's own |\n"
                        + "|---|---|--:|---|--:|--:|--:|\n");
        for (Score run : runs) {
            Map<String, String> setting = run.setting();
            Optional<Score> spark = scores.find(BENCHMARK, run.method(), PEER, setting);
            out.append("| ")
                    .append(SKETCHES.getOrDefault(run.method(), run.method()))
                    .append(" | ")
                    .append(setting.getOrDefault("keys", "?"))
                    .append(" | ")
                    .append(Format.count(Long.parseLong(setting.getOrDefault("items", "0"))))
                    .append(" | ")
                    .append(run.impl())
                    .append(" | ")
                    .append(Format.score(run))
                    .append(" | ")
                    .append(Format.rate(keysPerSecondPerCore(run)))
                    .append(" | ")
                    .append(
                            run.isMapsketch()
                                    ? spark.map(peer -> Format.ratio(run.advantageOver(peer)))
                                            .orElse("–")
                                    : "")
                    .append(" |\n");
        }
        return Optional.of(out.toString());
    }

    /**
     * Keys per second per core of one aggregation: its {@code items} over its seconds over its {@code cores}.
     *
     * @param run a score of the benchmark, in seconds per aggregation
     * @return the rate
     * @throws IllegalArgumentException if the score is not in seconds or lacks {@code items} or {@code cores}
     */
    static double keysPerSecondPerCore(Score run) {
        if (!run.unit().equals("s/op")) {
            throw new IllegalArgumentException(BENCHMARK + " score in " + run.unit() + ", must be s/op");
        }
        Map<String, String> setting = new LinkedHashMap<>(run.setting());
        List<String> missing = new ArrayList<>();
        for (String name : List.of("items", "cores")) {
            if (!setting.containsKey(name)) {
                missing.add(name);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException(BENCHMARK + " score without " + missing + ": " + setting);
        }
        return Long.parseLong(setting.get("items")) / run.value() / Integer.parseInt(setting.get("cores"));
    }
}
