package io.mapsketch.jmh.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report's reading of JMH's JSON, its ratios and tables, and the regions it rewrites. */
class ReportRenderingTest {

    /** JMH's JSON shape, trimmed to the fields the report reads: three Bloom lookups and one open. */
    private static final String BLOOM_RESULTS = """
            [
            %s,
            %s,
            %s
            ]
            """.formatted(
                    run(
                            "io.mapsketch.jmh.BloomBenchmark.mightContain",
                            "thrpt",
                            "mapsketch-blocked",
                            "50000000",
                            "3.0E7",
                            "1.5E6",
                            "ops/s"),
                    run(
                            "io.mapsketch.jmh.BloomBenchmark.mightContain",
                            "thrpt",
                            "guava",
                            "50000000",
                            "1.0E7",
                            "\"NaN\"",
                            "ops/s"),
                    run(
                            "io.mapsketch.jmh.BloomBenchmark.mightContain",
                            "thrpt",
                            "datasketches",
                            "50000000",
                            "1.5E7",
                            "2.0E5",
                            "ops/s"));

    private static final String OPEN_RESULTS = "["
            + run(
                    "io.mapsketch.jmh.OpenBenchmark.openAndLookUp",
                    "ss",
                    "mapsketch-blocked",
                    "1073741824",
                    "0.5",
                    "0.1",
                    "ms/op")
            + ","
            + run("io.mapsketch.jmh.OpenBenchmark.openAndLookUp", "ss", "guava", "1073741824", "400", "20", "ms/op")
            + "]";

    private static String run(
            String benchmark, String mode, String impl, String size, String score, String error, String unit) {
        String sizeParam = benchmark.contains("Bloom") ? "items" : "size";
        return """
                {"benchmark": "%s", "mode": "%s", "forks": 1, "jdkVersion": "25.0.3",
                 "vmName": "OpenJDK 64-Bit Server VM", "vmVersion": "25.0.3+9-LTS",
                 "jvmArgs": ["--add-modules=jdk.incubator.vector"], "warmupIterations": 1, "warmupTime": "1 s",
                 "measurementIterations": 3, "measurementTime": "1 s",
                 "params": {"impl": "%s", "%s": "%s"},
                 "primaryMetric": {"score": %s, "scoreError": %s, "scoreUnit": "%s"}}
                """.formatted(benchmark, mode, impl, sizeParam, size, score, error, unit);
    }

    @Test
    void readsScoresErrorsAndSettingsFromJmhJson(@TempDir Path folder) throws IOException {
        Files.writeString(folder.resolve("jmh-membership.json"), BLOOM_RESULTS);
        Files.writeString(folder.resolve("memory.json"), "[]");
        ResultSet results = ResultSet.read(folder);

        List<Score> bloom = results.of("BloomBenchmark");
        assertEquals(3, bloom.size());
        Score guava = results.find("BloomBenchmark", "mightContain", "guava", Map.of("items", "50000000"))
                .orElseThrow();
        assertEquals(1.0e7, guava.value());
        assertTrue(Double.isNaN(guava.error()), "a \"NaN\" error stays unknown");
        assertTrue(guava.higherIsBetter());
        assertEquals("membership", results.suite("BloomBenchmark").orElseThrow());
        assertEquals(
                "1 fork(s), 1 x 1 s warm-up, 3 x 1 s measured",
                results.jvm("BloomBenchmark").orElseThrow().settings());
    }

    @Test
    void comparesEachRowWithTheBestPeer(@TempDir Path folder) throws IOException {
        Files.writeString(folder.resolve("jmh-membership.json"), BLOOM_RESULTS);
        Suite suite = new Suite("BloomBenchmark", "Bloom filters", "", null, false, "mightContain");
        String table =
                SuiteTables.render(new SuiteScores(suite, ResultSet.read(folder).of("BloomBenchmark")));

        assertTrue(table.contains("| mapsketch-blocked | 30.0 M ± 1.50 M | 2.00x |"), table);
        assertTrue(table.contains("| guava | 10.0 M | 0.67x |"), table);
        assertTrue(table.contains("| datasketches | 15.0 M ± 200 k | 1.00x |"), table);
    }

    @Test
    void aShorterTimeIsTheBetterScore(@TempDir Path folder) throws IOException {
        Files.writeString(folder.resolve("jmh-open.json"), OPEN_RESULTS);
        ResultSet results = ResultSet.read(folder);
        Score ours = results.find("OpenBenchmark", "openAndLookUp", "mapsketch-blocked", Map.of("size", "1073741824"))
                .orElseThrow();
        Score guava = results.find("OpenBenchmark", "openAndLookUp", "guava", Map.of("size", "1073741824"))
                .orElseThrow();

        assertEquals(800.0, ours.advantageOver(guava), 1e-9);
        assertEquals(ours, ResultSet.best(List.of(guava, ours)).orElseThrow());
    }

    @Test
    void rewritesOnlyTheMarkedRegion(@TempDir Path folder) throws IOException {
        Path document = folder.resolve("doc.md");
        Files.writeString(document, "# Title\n<!-- r:begin -->\nold\n<!-- r:end -->\n# Kept\ntext\n");

        MarkedRegion.replace(document, "r", "new 1\nnew 2");
        MarkedRegion.replace(document, "r", "new 3");

        assertEquals("# Title\n<!-- r:begin -->\nnew 3\n<!-- r:end -->\n# Kept\ntext\n", Files.readString(document));
    }

    @Test
    void theReadmeLineNamesTheSuitesThatEarlierRunsMeasured(@TempDir Path folder) throws IOException {
        Files.writeString(folder.resolve("jmh-membership-bloom.json"), BLOOM_RESULTS);
        Files.writeString(folder.resolve("jmh-open.json"), OPEN_RESULTS);
        RunRecord partial = new RunRecord(
                "quick",
                "scripts/bench quick open",
                "-f 1",
                "abc1234",
                List.of("open"),
                "AMD EPYC",
                2,
                1L << 30,
                "Linux",
                "2026-11-30T00:00:00Z",
                "2026-11-30T00:05:00Z");
        RunRecord whole = new RunRecord(
                "quick",
                "scripts/bench quick",
                "-f 1",
                "abc1234",
                List.of("membership", "open"),
                "AMD EPYC",
                2,
                1L << 30,
                "Linux",
                "2026-11-30T00:00:00Z",
                "2026-11-30T00:05:00Z");
        ResultSet results = ResultSet.read(folder);

        assertEquals(
                "Measured by `scripts/bench quick open` (suites membership: by earlier runs of `scripts/bench`, "
                        + "as their tables say) on AMD EPYC (2 cores); every table, chart and peer is in "
                        + "[docs/performance.md](docs/performance.md).\n",
                PerformanceReport.measuredBy(partial, results.suiteNames()));
        assertEquals(
                "Measured by `scripts/bench quick` on AMD EPYC (2 cores); every table, chart and peer is in "
                        + "[docs/performance.md](docs/performance.md).\n",
                PerformanceReport.measuredBy(whole, results.suiteNames()));
    }

    @Test
    void theDocumentHoldsTheReportAloneAndEndsWithTheLinksToTheDesignNotes(@TempDir Path folder) throws IOException {
        Path results = Files.createDirectories(folder.resolve("docs/results/quick"));
        Files.writeString(results.resolve("jmh-membership-bloom.json"), BLOOM_RESULTS);
        Files.writeString(results.resolve(RunRecord.FILE_NAME), """
                {"profile": "quick", "command": "scripts/bench quick membership", "jmhOptions": "-f 1",
                 "commit": "abc1234", "suites": ["membership"], "cpuModel": "AMD EPYC", "cores": 2,
                 "memoryBytes": 1073741824, "os": "Linux", "started": "2026-11-30T00:00:00Z",
                 "finished": "2026-11-30T00:05:00Z"}
                """);
        Path document = folder.resolve("docs/performance.md");
        Files.writeString(
                document,
                "# Performance\n<!-- performance-report:begin -->\nold\n"
                        + "<!-- performance-report:end -->\n\n# Tuning log\n\nhand-kept text\n");
        Path readme = folder.resolve("README.md");
        Files.writeString(readme, "# R\n<!-- performance-report:begin -->\n<!-- performance-report:end -->\n# Kept\n");

        PerformanceReport.main(new String[] {
            results.toString(),
            document.toString(),
            readme.toString(),
            folder.resolve("docs/img").toString()
        });

        String text = Files.readString(document);
        assertTrue(text.startsWith(PerformanceReport.INTRODUCTION), text);
        assertTrue(text.endsWith(PerformanceReport.FOOTER), text);
        assertTrue(text.contains("| mapsketch-blocked | 30.0 M ± 1.50 M |"), text);
        assertTrue(
                text.contains("## Cost as the work grows\n\n" + SizeSweep.INTRODUCTION
                        + "_The floors were not measured in this run._\n"),
                text);
        assertTrue(!text.contains("hand-kept text") && !text.contains("performance-report:"), text);
        assertTrue(PerformanceReport.FOOTER.contains("](design/membership.md)"), PerformanceReport.FOOTER);
        assertTrue(Files.readString(readme).endsWith("<!-- performance-report:end -->\n# Kept\n"));
    }

    @Test
    void aDocumentWithoutTheRegionIsRefusedByName(@TempDir Path folder) throws IOException {
        Path document = folder.resolve("doc.md");
        Files.writeString(document, "# Title\n");

        IOException refused = assertThrows(IOException.class, () -> MarkedRegion.replace(document, "r", "x"));
        assertTrue(refused.getMessage().contains(document.toString()), refused.getMessage());
    }

    @Test
    void writesNumbersAsTheTablesShowThem() {
        assertEquals("45.1 M", Format.rate(45_123_456));
        assertEquals("2.10x", Format.ratio(2.1));
        assertEquals("0.043x", Format.ratio(0.0432));
        assertEquals("39.2x", Format.ratio(39.23));
        assertEquals("4,221x", Format.ratio(4220.88));
        assertEquals("53.1 KiB", Format.bytes(54_400));
        assertEquals("1 GiB", Format.bytes(1L << 30));
        Map<String, String> setting = new LinkedHashMap<>();
        setting.put("items", "50000000");
        setting.put("precision", "14");
        assertEquals("50,000,000 items, p = 14", Format.setting(setting));
    }

    @Test
    void judgesTwoWriterJvmsAgainstOneOfTheSameLayout(@TempDir Path folder) throws IOException {
        String record = """
                {"benchmark" : "io.mapsketch.jmh.ManyWritersBenchmark.add", "mode" : "thrpt",
                 "params" : {"sketch" : "count-min", "impl" : "%s", "writers" : "%d", "keys" : "20000000"},
                 "primaryMetric" : {"score" : %s, "scoreUnit" : "ops/s", "rawData" : [[%s]]},
                 "secondaryMetrics" : {"cpu" : {"score" : 61.5, "scoreUnit" : "ns/op"}}}""";
        Files.writeString(
                folder.resolve(WritersTable.FILE_NAME),
                "["
                        + String.join(
                                ",",
                                record.formatted("mapsketch-slots", 1, "1.0E7", "1.0E7"),
                                record.formatted("mapsketch-slots", 2, "1.8E7", "1.8E7"),
                                record.formatted("mapsketch-shared-word", 1, "1.0E7", "1.0E7"),
                                record.formatted("mapsketch-shared-word", 2, "1.2E7", "1.2E7"))
                        + "]");

        String table = WritersTable.render(folder).orElseThrow();

        assertTrue(
                table.contains("| count-min | mapsketch-slots | 1 | 20,000,000 | 10.0 M | 1.00x | 62 ns |  |"), table);
        assertTrue(
                table.contains("| mapsketch-slots | 2 | 20,000,000 | 18.0 M | 1.80x | 62 ns | met (>= 1.7x) |"), table);
        assertTrue(
                table.contains(
                        "| mapsketch-shared-word | 2 | 20,000,000 | 12.0 M | 1.20x | 62 ns | missed (>= 1.7x) |"),
                table);
        assertTrue(WritersTable.render(folder.resolve("absent")).isEmpty());
    }
}
