package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.enginetesting.RedisServer;
import io.mapsketch.enginetesting.RespClient;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mapsketch import} and {@code export} with a real redis-server: the README's three lines of the
 * round trip run as printed there ({@code redis-cli} in and out, {@code mapsketch} a child process), the
 * same round trip on sparse and dense strings, and the one-line refusals.
 */
class ForeignFormatVerbsTest {

    private static final Path README =
            Path.of("..", "README.md").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    /** A file of the test's directory, by its absolute path (the child runs elsewhere). */
    private String at(String name) {
        return dir.resolve(name).toString();
    }

    private static byte[][] items(int from, int to) {
        return IntStream.range(from, to)
                .mapToObj(i -> ("user-" + i + "@example.com").getBytes(StandardCharsets.UTF_8))
                .toArray(byte[][]::new);
    }

    /**
     * Runs a line of the README through bash with {@code redis-cli} pointed at the test's server, and
     * {@code mapsketch} the command of this build when {@link #installLauncher} put one in {@code dir/bin}.
     */
    private static void shell(Path dir, int port, String line) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(
                        "bash", "-euo", "pipefail", "-c", line.replace("redis-cli", "redis-cli -p " + port))
                .directory(dir.toFile())
                .redirectErrorStream(true);
        builder.environment()
                .put(
                        "PATH",
                        dir.resolve("bin")
                                + File.pathSeparator
                                + builder.environment().get("PATH"));
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), line + "\n" + output);
    }

    /** Writes {@code dir/bin/mapsketch}, a script that runs this build's command as {@link ChildCommand} does. */
    private static void installLauncher(Path dir) throws Exception {
        Path launcher = Files.createDirectories(dir.resolve("bin")).resolve("mapsketch");
        String command =
                ChildCommand.launcher().stream().map(arg -> "'" + arg + "'").collect(Collectors.joining(" "));
        Files.writeString(launcher, "#!/usr/bin/env bash\nexec " + command + " \"$@\"\n");
        assertTrue(launcher.toFile().setExecutable(true), launcher.toString());
    }

    /** The lines of the README's code block under its Redis round trip's heading, as printed. */
    private static List<String> readmeRoundTrip() throws Exception {
        List<String> readme = Files.readAllLines(README);
        int heading = readme.indexOf("### A Redis HyperLogLog in and out");
        assertTrue(heading >= 0, "the README has the Redis round trip's heading");
        int open = heading + readme.subList(heading, readme.size()).indexOf("```");
        int close = open + 1 + readme.subList(open + 1, readme.size()).indexOf("```");
        return readme.subList(open + 1, close);
    }

    @Test
    void theReadmeRoundTripRunsAsPrinted() throws Exception {
        List<String> lines = readmeRoundTrip();
        assertEquals(3, lines.size(), String.join("\n", lines));
        installLauncher(dir);
        Path redisDir = Files.createDirectories(dir.resolve("redis"));
        try (RedisServer server = RedisServer.start(redisDir);
                RespClient redis = server.client()) {
            redis.pfadd("visitors", items(0, 40));
            redis.pfadd("expected", items(0, 40));
            for (String line : lines) {
                shell(dir, server.port(), line);
            }
            assertArrayEquals(
                    Files.readAllBytes(dir.resolve("visitors.redis")),
                    redis.get("visitors"),
                    "SET stored the exported bytes");
            redis.pfadd("expected", "carol@example.com".getBytes(StandardCharsets.UTF_8));
            shell(dir, server.port(), "redis-cli --raw GET expected | head -c -1 > expected.redis");
            assertEquals(
                    0,
                    ChildCommand.run(dir, "", "import", "redis-hll", at("expected.redis"), at("expected.hll"))
                            .status());
            assertEquals(
                    0,
                    ChildCommand.run(dir, "", "export", "redis-hll", at("expected.hll"), at("expected.dense"))
                            .status());
            assertArrayEquals(
                    Files.readAllBytes(dir.resolve("expected.dense")),
                    redis.get("visitors"),
                    "the registers are those PFADD of the same items gives");
            assertEquals(redis.pfcount("expected"), redis.pfcount("visitors"));
        }
    }

    @Test
    void sparseAndDenseStringsRoundTripWithRedissRegistersAndCount() throws Exception {
        Path redisDir = Files.createDirectories(dir.resolve("redis"));
        try (RedisServer server = RedisServer.start(redisDir);
                RespClient redis = server.client()) {
            for (int[] range : new int[][] {{0, 40}, {40, 5_000}}) {
                redis.pfadd("visitors", items(range[0], range[1]));
                shell(dir, server.port(), "redis-cli --raw GET visitors | head -c -1 > visitors.redis");
                assertEquals(
                        range[1] == 40 ? 1 : 0,
                        Files.readAllBytes(dir.resolve("visitors.redis"))[4],
                        "the encoding byte: sparse for 40 items, dense for 5,000");
                ChildCommand.Result imported = ChildCommand.run(
                        dir, "", "import", "redis-hll", at("visitors.redis"), at("visitors.hll"), "--force");
                assertEquals(0, imported.status(), imported.err());
                ChildCommand.Result count = ChildCommand.run(dir, "", "hll", "count", at("visitors.hll"));
                assertEquals(0, count.status(), count.err());
                assertEquals(
                        redis.pfcount("visitors"), Long.parseLong(count.out().strip()), "hll count = PFCOUNT");

                String more = String.join(
                        "\n",
                        Stream.of(items(range[1], range[1] + 500))
                                .map(b -> new String(b, StandardCharsets.UTF_8))
                                .toList());
                assertEquals(
                        0,
                        ChildCommand.run(dir, more, "hll", "add", at("visitors.hll"))
                                .status());
                redis.pfadd("visitors", items(range[1], range[1] + 500));
                ChildCommand.Result exported = ChildCommand.run(
                        dir, "", "export", "redis-hll", at("visitors.hll"), at("visitors.redis"), "--force");
                assertEquals(0, exported.status(), exported.err());
                shell(dir, server.port(), "redis-cli -x SET visitors:back < visitors.redis");

                assertEquals(redis.pfcount("visitors"), redis.pfcount("visitors:back"));
                assertEquals(redis.pfcount("visitors"), redis.pfcount("visitors", "visitors:back"));
                shell(dir, server.port(), "redis-cli --raw GET visitors | head -c -1 > theirs.redis");
                assertEquals(
                        0,
                        ChildCommand.run(
                                        dir, "", "import", "redis-hll", at("theirs.redis"), at("theirs.hll"), "--force")
                                .status());
                assertEquals(
                        0,
                        ChildCommand.run(
                                        dir, "", "export", "redis-hll", at("theirs.hll"), at("theirs.dense"), "--force")
                                .status());
                assertArrayEquals(
                        Files.readAllBytes(dir.resolve("theirs.dense")),
                        Files.readAllBytes(dir.resolve("visitors.redis")),
                        "the registers after more adds on both sides are Redis's");
                ChildCommand.Result after = ChildCommand.run(dir, "", "hll", "count", at("visitors.hll"));
                assertEquals(
                        redis.pfcount("visitors:back"),
                        Long.parseLong(after.out().strip()));
            }
            ChildCommand.Result info = ChildCommand.run(dir, "", "info", at("visitors.hll"));
            assertTrue(info.out().contains("REDIS_HLL") && info.out().contains("REDIS_PFCOUNT"), info.out());
        }
    }

    @Test
    void badBytesAndOtherSchemesAreOneLineRefusals() throws Exception {
        Path bad = Files.write(dir.resolve("bad.redis"), "HYLX".getBytes(StandardCharsets.US_ASCII));
        InProcess.Result truncated = InProcess.run(
                "import", "redis-hll", bad.toString(), dir.resolve("bad.hll").toString());
        assertEquals(1, truncated.status());
        assertEquals(1, truncated.err().lines().count(), truncated.err());
        assertTrue(truncated.err().contains(bad + ": not a redis-hll sketch: at byte 4"), truncated.err());
        assertTrue(Files.notExists(dir.resolve("bad.hll")));

        Path kept = dir.resolve("kept.hll");
        assertEquals(
                0,
                InProcess.run("hll", "create", kept.toString(), "--precision", "12")
                        .status());
        byte[] before = Files.readAllBytes(kept);
        InProcess.Result forced = InProcess.run("import", "redis-hll", bad.toString(), kept.toString(), "--force");
        assertEquals(1, forced.status(), forced.err());
        assertArrayEquals(before, Files.readAllBytes(kept), "a refused import leaves the file it would replace");

        Path nativeFile = dir.resolve("native.hll");
        assertEquals(
                0,
                InProcess.run("hll", "create", nativeFile.toString(), "--precision", "14")
                        .status());
        InProcess.Result refused = InProcess.run(
                "export",
                "redis-hll",
                nativeFile.toString(),
                dir.resolve("out.redis").toString());
        assertEquals(1, refused.status());
        assertEquals(1, refused.err().lines().count(), refused.err());
        assertTrue(refused.err().contains(nativeFile + ": ") && refused.err().contains("XXH3_64"), refused.err());
        assertTrue(Files.notExists(dir.resolve("out.redis")));

        InProcess.Result unknown = InProcess.run("import", "hyperminhash", bad.toString(), "x");
        assertEquals(2, unknown.status());
        assertTrue(
                unknown.err().contains("formats: redis-hll, guava-bloom, spark-bloom, spark-cms, datasketches-hll"),
                unknown.err());
    }
}
