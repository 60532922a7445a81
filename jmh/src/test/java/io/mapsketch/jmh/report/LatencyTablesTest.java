package io.mapsketch.jmh.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The latency section's reading of JMH's {@code scorePercentiles} and its verdicts on the targets. */
class LatencyTablesTest {

    private static String sample(String impl, double p50, double p99, double p999, double p9999) {
        return """
                {"benchmark": "io.mapsketch.jmh.BloomLatencyBenchmark.mightContain", "mode": "sample",
                 "forks": 1, "jdkVersion": "25.0.3", "vmName": "OpenJDK 64-Bit Server VM",
                 "vmVersion": "25.0.3+9-LTS", "jvmArgs": [], "warmupIterations": 2, "warmupTime": "300 ms",
                 "measurementIterations": 5, "measurementTime": "1 s",
                 "params": {"impl": "%s", "items": "100000"},
                 "primaryMetric": {"score": 99.0, "scoreError": 1.0, "scoreUnit": "ns/op",
                   "scorePercentiles": {"0.0": 10.0, "50.0": %s, "90.0": 1.0, "99.0": %s, "99.9": %s,
                     "99.99": %s, "100.0": 9.0E6}}}
                """.formatted(impl, p50, p99, p999, p9999);
    }

    private static final String THROUGHPUT = """
            {"benchmark": "io.mapsketch.jmh.BloomBenchmark.mightContain", "mode": "thrpt", "forks": 1,
             "jdkVersion": "25.0.3", "vmName": "OpenJDK 64-Bit Server VM", "vmVersion": "25.0.3+9-LTS",
             "jvmArgs": [], "warmupIterations": 1, "warmupTime": "1 s", "measurementIterations": 3,
             "measurementTime": "1 s", "params": {"impl": "guava", "items": "100000"},
             "primaryMetric": {"score": 1.0E7, "scoreError": 1.0E5, "scoreUnit": "ops/s",
               "scorePercentiles": {"50.0": 1.0E7}}}
            """;

    private static SuiteScores read(Path folder, String... runs) throws IOException {
        Files.writeString(folder.resolve("jmh-tails-bloom.json"), "[" + String.join(",", runs) + "]");
        LatencySuite bloom = LatencySuite.all().getFirst();
        return new SuiteScores(bloom.asSuite(), ResultSet.read(folder).of(bloom.benchmark()));
    }

    @Test
    void readsThePercentilesOfSampleRunsOnly(@TempDir Path folder) throws IOException {
        Files.writeString(
                folder.resolve("jmh-tails.json"), "[" + sample("guava", 40, 60, 100, 300) + "," + THROUGHPUT + "]");
        ResultSet results = ResultSet.read(folder);

        Score guava = results.find("BloomLatencyBenchmark", "mightContain", "guava", Map.of("items", "100000"))
                .orElseThrow();
        assertEquals(100.0, guava.percentile("99.9"));
        assertTrue(results.find("BloomBenchmark", "mightContain", "guava", Map.of("items", "100000"))
                .orElseThrow()
                .percentiles()
                .isEmpty());
    }

    @Test
    void judgesEachTargetWithItsFigure(@TempDir Path folder) throws IOException {
        SuiteScores scores = read(
                folder,
                sample("mapsketch-blocked", 20, 30, 50, 200),
                sample("mapsketch-blocked-shared", 20, 30, 40, 200),
                sample("mapsketch-blocked-shared-writer", 20, 40, 80, 400),
                sample("guava", 40, 60, 100, 300),
                sample("fastfilter-blocked", 15, 30, 60, 250));

        String tables = LatencyTables.render(LatencySuite.all().getFirst(), scores);

        assertTrue(
                tables.contains("| mapsketch-blocked | 20 | 30 | 50 | 200 | met (2.50x) | – | "
                        + "**missed** (p50 20 vs 15 fastfilter-blocked) |"),
                tables);
        assertTrue(
                tables.contains("| mapsketch-blocked-shared-writer | 20 | 40 | 80 | 400 | **missed** (4.00x) | "
                        + "**missed** (2.00x) | – |"),
                tables);
        assertTrue(tables.contains("| guava | 40 | 60 | 100 | 300 | 2.50x | – | – |"), tables);
        assertTrue(
                tables.contains("- p99.9 ≤ 3x p50 in cache: **missed** by 1 of 3 rows: "
                        + "mightContain mapsketch-blocked-shared-writer 4.00x\n"),
                tables);
        assertTrue(
                tables.contains("- a writer JVM moves p99.9 by ≤ 1.5x: **missed** by 1 of 1 rows: "
                        + "mightContain mapsketch-blocked-shared-writer 2.00x\n"),
                tables);
        assertTrue(
                tables.contains("- at or below every peer at every percentile: **missed** by 2 of 2 rows: "
                        + "mightContain mapsketch-blocked (behind at 1 of 4 percentiles, by up to 1.33x); "
                        + "mightContain mapsketch-blocked-shared (behind at 1 of 4 percentiles, by up to 1.33x)\n"),
                tables);
    }

    @Test
    void aRowAheadOfEveryPeerMeetsThePeerTarget(@TempDir Path folder) throws IOException {
        SuiteScores scores =
                read(folder, sample("mapsketch-blocked", 10, 20, 30, 40), sample("guava", 40, 60, 100, 300));

        String tables = LatencyTables.render(LatencySuite.all().getFirst(), scores);

        assertTrue(tables.contains("| met (at most 0.33x the best peer) |"), tables);
        assertTrue(tables.contains("- at or below every peer at every percentile: **met** by all 1 rows\n"), tables);
    }

    @Test
    void theFloorLineGivesTheEmptyCallsOwnSpread(@TempDir Path folder) throws IOException {
        Files.writeString(
                folder.resolve("jmh-tails-timer.json"),
                "["
                        + sample("none", 20, 30, 100, 1000)
                                .replace("BloomLatencyBenchmark.mightContain", "TimerFloorBenchmark.emptyCall")
                        + "]");
        String line = LatencyTables.floorLine(
                ResultSet.read(folder).of(LatencySuite.TIMER_FLOOR).stream().findFirst());

        assertTrue(
                line.contains(": p50 20 ns, p99 30 ns, p99.9 100 ns, p99.99 1,000 ns. Its own p99.9 is 5.00x"), line);
    }
}
