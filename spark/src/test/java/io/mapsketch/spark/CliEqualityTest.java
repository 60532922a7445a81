package io.mapsketch.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchImage;
import io.mapsketch.cli.Main;
import io.mapsketch.kernels.Kernels;
import io.mapsketch.memory.SketchRegion;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A file built in Spark and one built by the {@code mapsketch} command from the same items are the same file:
 * the command runs as its launcher runs it (a child JVM, the CLI and its dependencies on the module path), its
 * files created with its defaults and fed the items as lines of standard input (or as ITEM COUNT pairs), and
 * each file's image, created at the epoch, equals the Spark aggregate's bytes. String items (some not ASCII)
 * are hashed as the command hashes a line; a binary column of their UTF-8 bytes builds the same file.
 */
class CliEqualityTest {

    private static final int ROWS = 6_000;
    /** The rows the weighted build takes, few enough to pass as the command's arguments. */
    private static final int WEIGHTED_ROWS = 400;

    @TempDir
    static Path dir;

    private static SparkSession spark;
    /** The non-null items in row order, one a line, as the command reads them. */
    private static String lines;
    /** ITEM COUNT pairs of the first rows of positive weight. */
    private static final List<String> pairs = new ArrayList<>();

    @BeforeAll
    static void start() {
        spark = LocalSpark.start("mapsketch-spark-cli-test");
        Random random = new Random(2205);
        StructType schema = new StructType()
                .add("seq", DataTypes.IntegerType)
                .add("item", DataTypes.StringType)
                .add("raw", DataTypes.BinaryType)
                .add("weight", DataTypes.LongType);
        List<Row> rows = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < ROWS; i++) {
            int id = random.nextInt(3_000);
            String item = i % 101 == 0 ? null : id % 5 == 0 ? "ünïcødé-" + id + "-✓" : "user-" + id;
            long weight = random.nextInt(4);
            rows.add(RowFactory.create(i, item, item == null ? null : item.getBytes(StandardCharsets.UTF_8), weight));
            if (item != null) {
                text.append(item).append('\n');
                if (i < WEIGHTED_ROWS && weight > 0) {
                    pairs.add(item);
                    pairs.add(Long.toString(weight));
                }
            }
        }
        lines = text.toString();
        spark.createDataFrame(rows, schema).write().parquet(dir.resolve("items").toString());
        spark.read().parquet(dir.resolve("items").toString()).repartition(3).createOrReplaceTempView("items");
    }

    @AfterAll
    static void stop() {
        if (spark != null) {
            spark.stop();
        }
    }

    @Test
    void aBloomFilterOfTheCommandIsTheAggregatesFile() throws Exception {
        Path file = dir.resolve("users.bf");
        mapsketch(lines, "bf", "insert", file.toString(), "--capacity", "10000", "--error-rate", "0.01");
        assertSameFile(file, "mapsketch_bloom_agg(item, 10000, 0.01)");
        assertSameFile(file, "mapsketch_bloom_agg(raw, 10000, 0.01)");
    }

    @Test
    void aHyperLogLogOfTheCommandIsTheAggregatesFile() throws Exception {
        Path file = dir.resolve("users.hll");
        mapsketch("", "hll", "create", file.toString(), "--precision", "12");
        mapsketch(lines, "hll", "add", file.toString());
        assertSameFile(file, "mapsketch_hll_agg(item, 12)");
        assertSameFile(file, "mapsketch_hll_agg(raw, 12)");
    }

    @Test
    void aCountMinSketchOfTheCommandIsTheAggregatesFile() throws Exception {
        Path file = dir.resolve("users.cms");
        mapsketch("", "cms", "create", file.toString(), "--epsilon", "0.001", "--delta", "0.01");
        mapsketch(lines, "cms", "incrby", file.toString());
        assertSameFile(file, "mapsketch_cms_agg(item, 0.001, 0.01)");
        Path weighted = dir.resolve("weighted.cms");
        mapsketch("", "cms", "create", weighted.toString(), "--epsilon", "0.001", "--delta", "0.01");
        List<String> incrby = new ArrayList<>(List.of("cms", "incrby", weighted.toString()));
        incrby.addAll(pairs);
        mapsketch("", incrby.toArray(String[]::new));
        assertSameFile(weighted, "mapsketch_cms_agg(item, weight, 0.001, 0.01)", "seq < " + WEIGHTED_ROWS);
    }

    private static void assertSameFile(Path file, String aggregate) throws IOException {
        assertSameFile(file, aggregate, "true");
    }

    /** The command's file, as its image created at the epoch, is the aggregate's bytes over the rows. */
    private static void assertSameFile(Path file, String aggregate, String where) throws IOException {
        byte[] built = (byte[]) spark.sql("SELECT " + aggregate + " FROM items WHERE " + where)
                .first()
                .get(0);
        try (Sketch command = Sketch.open(file, OpenMode.READ_ONLY)) {
            assertArrayEquals(SketchImage.toBytes(command, Instant.EPOCH), built, aggregate);
        }
    }

    /** Runs {@code mapsketch ARGS} with {@code stdin} as standard input and requires exit status 0. */
    private static void mapsketch(String stdin, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElseThrow(),
                "-Xshare:auto",
                "--add-modules",
                "jdk.incubator.vector",
                "--enable-native-access=io.mapsketch.memory",
                "--module-path",
                Stream.of(Main.class, Sketch.class, SketchRegion.class, Kernels.class, CommandLine.class)
                        .map(CliEqualityTest::location)
                        .distinct()
                        .collect(Collectors.joining(File.pathSeparator)),
                "--module",
                "io.mapsketch.cli/" + Main.class.getName()));
        command.addAll(List.of(args));
        Path in = Files.writeString(dir.resolve("stdin"), stdin, StandardCharsets.UTF_8);
        Path out = dir.resolve("stdout");
        Path err = dir.resolve("stderr");
        Process process = new ProcessBuilder(command)
                .redirectInput(in.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("mapsketch " + args[0] + " " + args[1] + " did not finish in 90 s");
        }
        assertEquals(
                0,
                process.exitValue(),
                "mapsketch " + String.join(" ", List.of(args).subList(0, 3)) + ": " + Files.readString(err));
    }

    private static String location(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
