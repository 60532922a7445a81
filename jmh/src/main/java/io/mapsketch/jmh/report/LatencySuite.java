package io.mapsketch.jmh.report;

import java.util.List;
import java.util.Map;

/**
 * One latency benchmark class as the report presents it: a family's single-key calls, percentile by
 * percentile.
 *
 * @param benchmark the class's simple name, e.g. {@code BloomLatencyBenchmark}
 * @param title the heading, e.g. "Bloom filters"
 * @param summary what is measured and how the state is kept (Markdown)
 * @param inCache the setting at which the structure is in cache, where the p99.9 / p50 target applies
 */
record LatencySuite(String benchmark, String title, String summary, Map<String, String> inCache) {

    /** The benchmark class whose empty call is the floor under every percentile. */
    static final String TIMER_FLOOR = "TimerFloorBenchmark";

    /** The latency suites of the report, in order. */
    static List<LatencySuite> all() {
        return List.of(
                new LatencySuite(
                        "BloomLatencyBenchmark",
                        "Bloom filters",
                        "Filters at capacity that never change: lookups are half present, half absent keys; "
                                + "adds and the writer JVM add keys already present (a new key would saturate an "
                                + "in-cache filter within milliseconds), so no add sets a bit and a `SHARED` add "
                                + "skips its atomic OR.",
                        Map.of("items", "100000")),
                new LatencySuite(
                        "CountMinLatencyBenchmark",
                        "Count-Min sketches",
                        "The Zipf stream of the throughput table; the writer JVM adds the same stream, so both "
                                + "processes raise the same counters.",
                        Map.of("size", "54400")),
                new LatencySuite(
                        "HyperLogLogLatencyBenchmark",
                        "HyperLogLog",
                        "A dense sketch of 2^20 keys; adds repeat those keys, the writer JVM adds new ones (a "
                                + "rare raise, which also makes mapsketch's next estimate compute afresh).",
                        Map.of("precision", "14")));
    }

    /** This suite as {@link SuiteScores} arranges it. */
    Suite asSuite() {
        return new Suite(benchmark, title, summary, null, false, null);
    }
}
