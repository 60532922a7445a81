package io.mapsketch.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchImage;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BloomFilter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MapsketchFunctionsTest {

    private static final int ROWS = 20_000;
    private static final String[] PAGES = {"home", "search", "cart"};

    @TempDir
    static Path dir;

    private static SparkSession spark;
    /** The generated rows, as the library tests rebuild them. */
    private static final List<Object[]> generated = new ArrayList<>();

    @BeforeAll
    static void start() {
        spark = LocalSpark.start("mapsketch-spark-test");
        Random random = new Random(22);
        StructType schema = new StructType()
                .add("id", DataTypes.LongType)
                .add("user", DataTypes.StringType)
                .add("n", DataTypes.IntegerType)
                .add("raw", DataTypes.BinaryType)
                .add("page", DataTypes.StringType)
                .add("day", DataTypes.IntegerType)
                .add("weight", DataTypes.LongType)
                .add("price", DataTypes.DoubleType);
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            long id = random.nextInt(5_000);
            boolean nulls = i % 97 == 0;
            Object[] values = {
                nulls ? null : id,
                nulls ? null : "user-" + id,
                nulls ? null : (int) id,
                nulls ? null : ("raw-" + id).getBytes(StandardCharsets.UTF_8),
                PAGES[random.nextInt(PAGES.length)],
                1 + random.nextInt(30),
                (long) random.nextInt(4),
                random.nextDouble()
            };
            generated.add(values);
            rows.add(RowFactory.create(values));
        }
        spark.createDataFrame(rows, schema)
                .write()
                .parquet(dir.resolve("events").toString());
    }

    @AfterAll
    static void stop() {
        if (spark != null) {
            spark.stop();
        }
    }

    private static Dataset<Row> events(int partitions) {
        Dataset<Row> events = spark.read().parquet(dir.resolve("events").toString());
        events.createOrReplaceTempView("events");
        return events.repartition(partitions);
    }

    private static byte[] one(String sql) {
        List<Row> rows = spark.sql(sql).collectAsList();
        assertEquals(1, rows.size());
        return (byte[]) rows.get(0).get(0);
    }

    private static byte[] aggregate(int partitions, String select) {
        events(partitions).createOrReplaceTempView("shuffled");
        return one("SELECT " + select + " FROM shuffled");
    }

    @Test
    void oneThreeAndEightPartitionsGiveIdenticalBytes() {
        for (String select : List.of(
                "mapsketch_bloom_agg(user, 10000, 0.01)",
                "mapsketch_bloom_agg(id, 10000, 0.01, 'classic')",
                "mapsketch_hll_agg(raw, 12)",
                "mapsketch_cms_agg(n, 0.001, 0.01)",
                "mapsketch_cms_agg(user, weight, 0.001, 0.01)")) {
            byte[] one = aggregate(1, select);
            assertArrayEquals(one, aggregate(3, select), select);
            assertArrayEquals(one, aggregate(8, select), select);
        }
    }

    @Test
    void bytesEqualTheLibraryBuildOfTheSameItems() throws Exception {
        events(3);
        try (BlockedBloomFilter bloom = BlockedBloomFilter.builder()
                        .expectedItems(10_000)
                        .falsePositiveRate(0.01)
                        .createAnonymous(OpenMode.EXCLUSIVE);
                BloomFilter classic = BloomFilter.builder()
                        .expectedItems(10_000)
                        .falsePositiveRate(0.01)
                        .createAnonymous(OpenMode.EXCLUSIVE);
                HyperLogLog hll = HyperLogLog.builder().precision(12).createAnonymous(OpenMode.EXCLUSIVE);
                CountMinSketch cms =
                        CountMinSketch.builder().epsilon(0.001).delta(0.01).createAnonymous(OpenMode.EXCLUSIVE)) {
            for (Object[] row : generated) {
                if (row[1] == null) {
                    continue;
                }
                bloom.add((String) row[1]);
                classic.add((long) row[0]);
                byte[] raw = (byte[]) row[3];
                hll.add(raw, 0, raw.length);
                cms.add((long) (int) row[2], 1);
            }
            assertArrayEquals(
                    SketchImage.toBytes(bloom, Instant.EPOCH),
                    one("SELECT mapsketch_bloom_agg(user, 10000, 0.01) FROM events"));
            assertArrayEquals(
                    SketchImage.toBytes(classic, Instant.EPOCH),
                    one("SELECT mapsketch_bloom_agg(id, 10000, 0.01, 'classic') FROM events"));
            assertArrayEquals(
                    SketchImage.toBytes(hll, Instant.EPOCH), one("SELECT mapsketch_hll_agg(raw, 12) FROM events"));
            assertArrayEquals(
                    SketchImage.toBytes(cms, Instant.EPOCH),
                    one("SELECT mapsketch_cms_agg(n, 0.001, 0.01) FROM events"));
        }
    }

    @Test
    void nullKeysAreSkippedAndAnEmptyGroupGivesTheEmptySketch() throws Exception {
        events(2);
        byte[] ofNulls = one("SELECT mapsketch_hll_agg(user, 12) FROM events WHERE id IS NULL");
        byte[] ofNothing = one("SELECT mapsketch_hll_agg(user, 12) FROM events WHERE day > 100");
        try (HyperLogLog empty = HyperLogLog.builder().precision(12).createAnonymous(OpenMode.EXCLUSIVE)) {
            assertArrayEquals(SketchImage.toBytes(empty, Instant.EPOCH), ofNulls);
            assertArrayEquals(ofNulls, ofNothing);
        }
        assertNull(one("SELECT mapsketch_merge_agg(s) FROM (SELECT mapsketch_hll_agg(user, 12) AS s FROM events"
                + " GROUP BY page) WHERE s IS NULL"));
        Row answers = spark.sql("SELECT mapsketch_contains(f, 'user-1'), mapsketch_contains(f, CAST(NULL AS STRING)),"
                        + " mapsketch_estimate(CAST(NULL AS BINARY)) FROM (SELECT mapsketch_bloom_agg(user, 10000, 0.01) AS f"
                        + " FROM events)")
                .first();
        assertNull(answers.get(1));
        assertNull(answers.get(2));
    }

    @Test
    void everyKeyTypeIsHashedAsTheEngineHashesIt() throws Exception {
        events(3);
        Row row = spark.sql("SELECT mapsketch_contains(s, 'user-17'), mapsketch_contains(l, 17L),"
                        + " mapsketch_contains(i, 17), mapsketch_contains(b, CAST('raw-17' AS BINARY)),"
                        + " mapsketch_contains(l, 17), mapsketch_count(c, 'user-17'), mapsketch_estimate(h)"
                        + " FROM (SELECT mapsketch_bloom_agg(user, 10000, 0.001) AS s,"
                        + " mapsketch_bloom_agg(id, 10000, 0.001) AS l, mapsketch_bloom_agg(n, 10000, 0.001) AS i,"
                        + " mapsketch_bloom_agg(raw, 10000, 0.001) AS b, mapsketch_cms_agg(user, 0.001, 0.01) AS c,"
                        + " mapsketch_hll_agg(user, 14) AS h FROM events)")
                .first();
        long occurrences =
                generated.stream().filter(r -> "user-17".equals(r[1])).count();
        boolean present = occurrences > 0;
        for (int i = 0; i < 5; i++) {
            assertEquals(present, row.getBoolean(i), "column " + i);
        }
        assertTrue(row.getLong(5) >= occurrences);
        long distinct = generated.stream()
                .filter(r -> r[1] != null)
                .map(r -> r[1])
                .distinct()
                .count();
        assertEquals(distinct, row.getDouble(6), distinct * 0.05);
        byte[] longs = one("SELECT mapsketch_bloom_agg(id, 10000, 0.01) FROM events");
        byte[] ints = one("SELECT mapsketch_bloom_agg(n, 10000, 0.01) FROM events");
        assertArrayEquals(longs, ints, "an int key hashes as the same long key");
        Exception refused = assertThrows(
                Exception.class,
                () -> spark.sql("SELECT mapsketch_hll_agg(price, 12) FROM events")
                        .collect());
        assertTrue(
                refused.getMessage().contains("key column type = double, must be string, bigint, int or binary"),
                refused.getMessage());
    }

    @Test
    void parametersAreCheckedWithTheEngineMessages() {
        events(1);
        Exception precision = assertThrows(
                Exception.class,
                () -> spark.sql("SELECT mapsketch_hll_agg(user, 40) FROM events")
                        .collect());
        assertTrue(precision.getMessage().contains("precision = 40"), precision.getMessage());
        Exception rate = assertThrows(
                Exception.class,
                () -> spark.sql("SELECT mapsketch_bloom_agg(user, 1000, 1.5) FROM events")
                        .collect());
        assertTrue(rate.getMessage().contains("falsePositiveRate = 1.5"), rate.getMessage());
        Exception layout = assertThrows(
                Exception.class,
                () -> spark.sql("SELECT mapsketch_bloom_agg(user, 1000, 0.01, 'fancy') FROM events")
                        .collect());
        assertTrue(layout.getMessage().contains("must be 'blocked' or 'classic'"), layout.getMessage());
    }

    @Test
    void aMismatchedMergeFailsTheJobWithTheEngineMessage() {
        events(2);
        Exception failed = assertThrows(
                Exception.class,
                () -> spark.sql(
                                "SELECT mapsketch_merge_agg(s) FROM (SELECT mapsketch_hll_agg(user, 12) AS s FROM events"
                                        + " UNION ALL SELECT mapsketch_hll_agg(user, 13) AS s FROM events)")
                        .collect());
        String messages = causes(failed);
        assertTrue(messages.contains("IncompatibleSketchException"), messages);
        assertTrue(messages.contains("precision"), messages);
    }

    @Test
    void dailySketchesMergeIntoTheMonthBuiltDirectly() throws Exception {
        events(3).createOrReplaceTempView("shuffled");
        Dataset<Row> daily =
                spark.sql("SELECT page, day, mapsketch_hll_agg(user, 14) AS users FROM shuffled GROUP BY page, day");
        List<Path> files = MapsketchFiles.write(daily, "users", dir.resolve("daily"), List.of("page", "day"));
        assertEquals(PAGES.length * 30, files.size());
        try (HyperLogLog opened =
                HyperLogLog.open(dir.resolve("daily").resolve("page=home,day=7.sketch"), OpenMode.READ_ONLY)) {
            assertTrue(opened.estimate() > 0);
        }
        daily.createOrReplaceTempView("daily");
        Map<String, byte[]> merged = new TreeMap<>();
        for (Row row : spark.sql("SELECT page, mapsketch_merge_agg(users) FROM daily GROUP BY page")
                .collectAsList()) {
            merged.put(row.getString(0), (byte[]) row.get(1));
        }
        for (Row row : spark.sql("SELECT page, mapsketch_hll_agg(user, 14) FROM shuffled GROUP BY page")
                .collectAsList()) {
            byte[] direct = (byte[]) row.get(1);
            byte[] rolled = merged.get(row.getString(0));
            assertArrayEquals(
                    java.util.Arrays.copyOfRange(direct, 320, 384),
                    java.util.Arrays.copyOfRange(rolled, 320, 384),
                    java.util.HexFormat.of().formatHex(direct, 256, 384) + "\n"
                            + java.util.HexFormat.of().formatHex(rolled, 256, 384));
            assertArrayEquals(direct, rolled, row.getString(0));
            try (Sketch month = SketchImage.open((byte[]) row.get(1), OpenMode.READ_ONLY)) {
                assertFalse(month.file().isPresent());
            }
        }
    }

    private static String causes(Throwable failure) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            all.append(t).append('\n');
        }
        return all.toString();
    }
}
