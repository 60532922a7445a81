package io.mapsketch.jmh.report;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Spark section: seconds per aggregation as keys per second per core, and the ratio to Spark's own. */
class SparkTableTest {

    private static String run(String method, String impl, String keys, String seconds) {
        return """
                {"benchmark": "io.mapsketch.spark.SparkAggregationBenchmark.%s", "mode": "ss", "forks": 1,
                 "jdkVersion": "25.0.3", "vmName": "OpenJDK 64-Bit Server VM", "vmVersion": "25.0.3+9-LTS",
                 "jvmArgs": ["-Xmx4g"], "warmupIterations": 2, "measurementIterations": 5,
                 "params": {"cores": "2", "impl": "%s", "items": "2000000", "keys": "%s"},
                 "primaryMetric": {"score": %s, "scoreError": 0.05, "scoreUnit": "s/op"}}
                """.formatted(method, impl, keys, seconds);
    }

    @Test
    void showsKeysPerSecondPerCoreAndTheRatioToSparksOwnMapsketchFirst(@TempDir Path folder) throws IOException {
        Files.writeString(
                folder.resolve("jmh-spark.json"),
                "[" + run("bloom", "spark", "long", "1.0") + "," + run("bloom", "mapsketch", "long", "0.5") + ","
                        + run("hyperLogLog", "mapsketch", "string", "2.0") + ","
                        + run("hyperLogLog", "spark", "string", "1.0") + "]");
        ResultSet results = ResultSet.read(folder);

        String table = SparkTable.render(results).orElseThrow();

        assertTrue(
                table.contains("| Bloom filter | long | 2,000,000 | mapsketch | 0.50 ± 0.05 | 2.00 M | 2.00x |"),
                table);
        assertTrue(table.contains("| Bloom filter | long | 2,000,000 | spark | 1.00 ± 0.05 | 1.00 M |  |"), table);
        assertTrue(
                table.contains("| HyperLogLog | string | 2,000,000 | mapsketch | 2.00 ± 0.05 | 500 k | 0.50x |"),
                table);
        assertTrue(table.indexOf("| mapsketch | 0.50") < table.indexOf("| spark | 1.00"), table);
    }

    @Test
    void aRunWithoutTheBenchmarkHasNoTable(@TempDir Path folder) throws IOException {
        Files.writeString(folder.resolve("jmh-open.json"), "[]");

        assertTrue(SparkTable.render(ResultSet.read(folder)).isEmpty());
    }

    @Test
    void aScoreWithoutItemsIsRefused() {
        Score score = new Score(
                SparkTable.BENCHMARK, "bloom", "spark", Map.of("cores", "2"), 1.0, Double.NaN, "s/op", false, Map.of());

        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> SparkTable.keysPerSecondPerCore(score));
        assertTrue(e.getMessage().contains("[items]"), e.getMessage());
    }
}
