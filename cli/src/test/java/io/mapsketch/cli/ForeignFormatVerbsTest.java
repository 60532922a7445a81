package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.enginetesting.RedisServer;
import io.mapsketch.enginetesting.RespClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mapsketch import} and {@code export} with a real redis-server: the README's round trip run as
 * written ({@code redis-cli} in and out, the command as a child process), and the one-line refusals.
 */
class ForeignFormatVerbsTest {

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

    /** Runs a line of the README through bash with {@code redis-cli} pointed at the test's server. */
    private static void shell(Path dir, int port, String line) throws Exception {
        Process process = new ProcessBuilder(
                        "bash", "-euo", "pipefail", "-c", line.replace("redis-cli", "redis-cli -p " + port))
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), line + "\n" + output);
    }

    @Test
    void theReadmeRoundTripKeepsRedissRegistersAndCount() throws Exception {
        Path redisDir = Files.createDirectories(dir.resolve("redis"));
        try (RedisServer server = RedisServer.start(redisDir);
                RespClient redis = server.client()) {
            for (int[] range : new int[][] {{0, 40}, {40, 5_000}}) {
                redis.pfadd("visitors", items(range[0], range[1]));
                shell(dir, server.port(), "redis-cli --raw GET visitors | head -c -1 > visitors.redis");
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
