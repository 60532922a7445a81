package io.mapsketch.jmh.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The size-sweep section: nanoseconds from keys per second, its tables, the floors and its charts. */
class SizeSweepTest {

    private static final long KIB_64 = 1L << 16;
    private static final long GIB_2 = 1L << 31;

    /** One JMH result of a sweep class, trimmed to the fields the report reads. */
    private static String run(String benchmark, String impl, long size, String fill, double opsPerSecond) {
        String params = (impl == null ? "" : "\"impl\": \"" + impl + "\", ") + "\"size\": \"" + size + "\""
                + (fill == null ? "" : ", \"fill\": \"" + fill + "\"");
        return """
                {"benchmark": "io.mapsketch.jmh.%s", "mode": "thrpt", "forks": 1, "jdkVersion": "25.0.3",
                 "vmName": "OpenJDK 64-Bit Server VM", "vmVersion": "25.0.3+9-LTS",
                 "jvmArgs": ["-Xmx10g"], "warmupIterations": 1, "warmupTime": "300 ms",
                 "measurementIterations": 3, "measurementTime": "300 ms",
                 "params": {%s},
                 "primaryMetric": {"score": %s, "scoreError": %s, "scoreUnit": "ops/s"}}
                """.formatted(benchmark, params, opsPerSecond, opsPerSecond / 10);
    }

    /**
     * Bloom lookups and adds at 64 KiB and 2 GiB (fastfilter at 64 KiB only, read first), and the two
     * floors.
     */
    private static void writeResults(Path folder) throws IOException {
        List<String> bloom = new ArrayList<>();
        for (String method : List.of("mightContain", "add")) {
            String benchmark = "BloomSweepBenchmark." + method;
            bloom.add(run(benchmark, "fastfilter-blocked", KIB_64, "auto", 1.0e8));
            bloom.add(run(benchmark, "mapsketch-blocked", KIB_64, "auto", 2.0e8));
            bloom.add(run(benchmark, "mapsketch-blocked", GIB_2, "auto", 2.5e7));
            bloom.add(run(benchmark, "guava", KIB_64, "auto", 5.0e7));
            bloom.add(run(benchmark, "guava", GIB_2, "auto", 5.0e6));
            // A comparison of the fills, run by hand: never part of the section.
            bloom.add(run(benchmark, "guava", GIB_2, "adds", 1.0));
        }
        Files.writeString(folder.resolve("jmh-sizes-bloom.json"), "[" + String.join(",", bloom) + "]");
        Files.writeString(
                folder.resolve("jmh-sizes-floor.json"),
                "["
                        + String.join(
                                ",",
                                run("MemoryFloorBenchmark.dependentLoad", null, KIB_64, null, 1.0e9),
                                run("MemoryFloorBenchmark.dependentLoad", null, GIB_2, null, 1.0e7),
                                run("MemoryFloorBenchmark.independentLoad", null, KIB_64, null, 2.5e8),
                                run("MemoryFloorBenchmark.independentLoad", null, GIB_2, null, 2.0e8))
                        + "]");
    }

    @Test
    void tablesGiveNanosecondsPerKeyBesideTheFloorsAtTheSameSize(@TempDir Path folder) throws IOException {
        writeResults(folder);
        ResultSet results = ResultSet.read(folder);
        SweepSeries bloom = SweepSeries.of(results, "BloomSweepBenchmark");
        SweepSeries floor = SweepSeries.of(results, SizeSweep.FLOOR);

        String lookups = SizeSweep.table(bloom, floor, "mightContain", "Lookups");

        assertTrue(
                lookups.contains("| size | mapsketch-blocked | fastfilter-blocked | guava | mapsketch vs best peer"
                        + " | dependent load | independent load |"),
                lookups);
        assertTrue(
                lookups.contains("| 64 KiB | 5.0 ± 0.5 | 10 ± 1.0 | 20 ± 2.0 | 2.00x | 1.0 ± 0.1 | 4.0 ± 0.4 |"),
                lookups);
        assertTrue(lookups.contains("| 2 GiB | 40 ± 4.0 | – | 200 ± 20 | 5.00x | 100 ± 10 | 5.0 ± 0.5 |"), lookups);
        assertFalse(lookups.contains("1,000,000,000"), "the fill=adds run is left out: " + lookups);
        assertEquals(
                "Measured in this run, in its largest buffer: dependent loads **100 ns** each in 2 GiB (the DRAM "
                        + "latency, where the buffer is far larger than the L3 cache); the overlapped-miss floor "
                        + "**5.0 ns** per load in 2 GiB.\n",
                SizeSweep.dramLine(floor));
    }

    @Test
    void namesTheSizesThatTheRunLeftOut(@TempDir Path folder) throws IOException {
        writeResults(folder);
        SweepSeries bloom = SweepSeries.of(ResultSet.read(folder), "BloomSweepBenchmark");
        SizeSweep.Family family = SizeSweep.families().getFirst();

        assertEquals(
                "Not measured in this run: 512 KiB, 4 MiB, 32 MiB, 256 MiB, 8 GiB. " + family.profiles() + "\n\n",
                SizeSweep.notMeasured(family, bloom));
        assertTrue(family.profiles().contains("leaves 8 GiB out"), family.profiles());
    }

    @Test
    void drawsOneChartPerFamilyMeasuredAndSaysWhichWereNot(@TempDir Path folder) throws IOException {
        writeResults(folder);
        Path images = folder.resolve("img");
        Files.createDirectories(images);

        String section = SizeSweep.render(
                ResultSet.read(folder), images, file -> "img/" + file, (out, benchmark) -> out.append("JMH: x.\n"));

        assertTrue(section.startsWith("## Cost as the work grows\n\n" + SizeSweep.INTRODUCTION), section);
        assertTrue(section.contains("![Bloom filters, 64 KiB to 8 GiB](img/bench-sizes-bloom.png)"), section);
        assertTrue(section.contains("**Adds (`add`)**, nanoseconds per key"), section);
        assertTrue(section.contains("### Count-Min sketches, 53 KiB to 1 GiB"), section);
        assertTrue(section.endsWith("_Not measured in this run._\n\n"), section);
        BufferedImage chart =
                ImageIO.read(images.resolve("bench-sizes-bloom.png").toFile());
        assertEquals(Charts.WIDTH, chart.getWidth());
        assertEquals(2 * 420, chart.getHeight(), "one panel for lookups, one for adds");
        assertFalse(Files.exists(images.resolve("bench-sizes-countmin.png")));
    }
}
