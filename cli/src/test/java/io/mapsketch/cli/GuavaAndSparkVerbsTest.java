package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.util.sketch.CountMinSketch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mapsketch import} and {@code export} of Guava's and Spark's formats, the command run as a child
 * process: the bytes the real libraries write come in, {@code bf add}, {@code bf exists}, {@code cms incrby}
 * and {@code cms query} on the file answer and update as the library does after the same items (UTF-8
 * lines; decimal {@code long}s for Guava's long funnel), and the export is the library's own bytes.
 */
class GuavaAndSparkVerbsTest {

    @TempDir
    Path dir;

    private String at(String name) {
        return dir.resolve(name).toString();
    }

    private interface Writer {
        void writeTo(ByteArrayOutputStream out) throws IOException;
    }

    private static byte[] written(Writer writer) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writer.writeTo(out);
        return out.toByteArray();
    }

    private static List<String> lines(String... items) {
        return List.of(items);
    }

    private static ChildCommand.Result ok(ChildCommand.Result result) {
        assertEquals(0, result.status(), result.err());
        return result;
    }

    @Test
    void aGuavaFilterOfTheUtf8FunnelTakesLinesAsStrings() throws Exception {
        BloomFilter<CharSequence> guava = BloomFilter.create(Funnels.stringFunnel(StandardCharsets.UTF_8), 1_000, 0.01);
        IntStream.range(0, 500).forEach(i -> guava.put("user-" + i));
        Files.write(dir.resolve("users.guava"), written(guava::writeTo));
        ok(ChildCommand.run(dir, "", "import", "guava-bloom", "--funnel", "utf8", at("users.guava"), at("users.bf")));

        String probes = IntStream.range(450, 550).mapToObj(i -> "user-" + i).collect(Collectors.joining("\n"));
        ChildCommand.Result exists = ok(ChildCommand.run(dir, probes, "bf", "exists", at("users.bf")));
        assertEquals(
                probes.lines().map(p -> guava.mightContain(p) ? "1" : "0").toList(),
                exists.out().lines().toList());

        ok(ChildCommand.run(dir, "", "bf", "add", at("users.bf"), "ünïcode", "user-9000"));
        guava.put("ünïcode");
        guava.put("user-9000");
        ok(ChildCommand.run(dir, "", "export", "guava-bloom", at("users.bf"), at("users.out")));
        assertArrayEquals(written(guava::writeTo), Files.readAllBytes(dir.resolve("users.out")));
    }

    @Test
    void aGuavaFilterOfTheLongFunnelTakesLinesAsDecimalLongs() throws Exception {
        BloomFilter<Long> guava = BloomFilter.create(Funnels.longFunnel(), 1_000, 0.01);
        IntStream.range(0, 500).forEach(i -> guava.put(i * 31L));
        Files.write(dir.resolve("ids.guava"), written(guava::writeTo));
        ok(ChildCommand.run(dir, "", "import", "guava-bloom", "--funnel", "long", at("ids.guava"), at("ids.bf")));

        ChildCommand.Result added =
                ok(ChildCommand.run(dir, "-7\n310\n9223372036854775807\n", "bf", "add", at("ids.bf")));
        assertEquals(lines("1", "0", "1"), added.out().lines().toList());
        guava.put(-7L);
        guava.put(Long.MAX_VALUE);
        String probes = IntStream.range(0, 200)
                .mapToObj(i -> Long.toString(i * 31L + i % 2))
                .collect(Collectors.joining("\n"));
        ChildCommand.Result exists = ok(ChildCommand.run(dir, probes, "bf", "exists", at("ids.bf")));
        assertEquals(
                probes.lines()
                        .map(p -> guava.mightContain(Long.parseLong(p)) ? "1" : "0")
                        .toList(),
                exists.out().lines().toList());

        ChildCommand.Result refused = ChildCommand.run(dir, "", "bf", "add", at("ids.bf"), "12", "twelve");
        assertEquals(1, refused.status());
        assertEquals(
                1,
                refused.err()
                        .lines()
                        .filter(line -> line.startsWith("mapsketch: "))
                        .count(),
                refused.err());
        assertTrue(refused.err().contains(at("ids.bf") + ": item 2: 'twelve' is not a decimal long"), refused.err());
        guava.put(12L);

        ok(ChildCommand.run(dir, "", "export", "guava-bloom", at("ids.bf"), at("ids.out")));
        assertArrayEquals(written(guava::writeTo), Files.readAllBytes(dir.resolve("ids.out")));
    }

    @Test
    void aSparkFilterOfEitherVersionTakesLinesAsStrings() throws Exception {
        for (var version : org.apache.spark.util.sketch.BloomFilter.Version.values()) {
            var spark = org.apache.spark.util.sketch.BloomFilter.create(version, 800, 10_000, 17);
            IntStream.range(0, 400).forEach(i -> spark.putString("page/" + i));
            String name = "pages-" + version;
            Files.write(dir.resolve(name + ".spark"), written(spark::writeTo));
            ok(ChildCommand.run(dir, "", "import", "spark-bloom", at(name + ".spark"), at(name + ".bf")));
            ok(ChildCommand.run(dir, "page/new\npage/1\n", "bf", "add", at(name + ".bf")));
            spark.putString("page/new");
            ChildCommand.Result exists =
                    ok(ChildCommand.run(dir, "", "bf", "exists", at(name + ".bf"), "page/new", "page/x"));
            assertEquals(
                    lines(
                            spark.mightContainString("page/new") ? "1" : "0",
                            spark.mightContainString("page/x") ? "1" : "0"),
                    exists.out().lines().toList());
            ok(ChildCommand.run(dir, "", "export", "spark-bloom", at(name + ".bf"), at(name + ".out")));
            assertArrayEquals(written(spark::writeTo), Files.readAllBytes(dir.resolve(name + ".out")), name);
        }
    }

    @Test
    void aSparkCountMinSketchTakesIncrbyAndAnswersQuery() throws Exception {
        CountMinSketch spark = CountMinSketch.create(0.01, 0.99, 123);
        for (int i = 0; i < 2_000; i++) {
            spark.add("event-" + (i % 50), 1 + i % 4);
        }
        Files.write(dir.resolve("events.spark"), written(spark::writeTo));
        ok(ChildCommand.run(dir, "", "import", "spark-cms", at("events.spark"), at("events.cms")));
        ok(ChildCommand.run(dir, "", "cms", "incrby", at("events.cms"), "login", "3", "event-7", "2"));
        spark.add("login", 3);
        spark.add("event-7", 2);
        ChildCommand.Result query =
                ok(ChildCommand.run(dir, "", "cms", "query", at("events.cms"), "login", "event-7", "event-8", "never"));
        assertEquals(
                List.of("login", "event-7", "event-8", "never").stream()
                        .map(item -> Long.toString(spark.estimateCount(item)))
                        .toList(),
                query.out().lines().toList());
        ok(ChildCommand.run(dir, "", "export", "spark-cms", at("events.cms"), at("events.out")));
        assertArrayEquals(written(spark::writeTo), Files.readAllBytes(dir.resolve("events.out")));
    }

    @Test
    void aMissingOrMisplacedFunnelIsAUsageError() throws Exception {
        BloomFilter<Long> guava = BloomFilter.create(Funnels.longFunnel(), 10, 0.01);
        Path source = Files.write(dir.resolve("small.guava"), written(guava::writeTo));
        InProcess.Result missing = InProcess.run("import", "guava-bloom", source.toString(), at("small.bf"));
        assertEquals(2, missing.status());
        assertTrue(missing.err().lines().findFirst().orElseThrow().contains("--funnel"), missing.err());
        InProcess.Result misplaced =
                InProcess.run("import", "spark-bloom", "--funnel", "long", source.toString(), at("small.bf"));
        assertEquals(2, misplaced.status());
        assertTrue(misplaced.err().contains("--funnel is for guava-bloom only"), misplaced.err());
        InProcess.Result unknown =
                InProcess.run("import", "guava-bloom", "--funnel", "ascii", source.toString(), at("small.bf"));
        assertEquals(2, unknown.status());
        assertTrue(Files.notExists(dir.resolve("small.bf")));
    }
}
