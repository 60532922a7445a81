package io.mapsketch.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.SketchImage;
import io.mapsketch.frequency.TopK;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mapsketch_topk_agg} and {@code mapsketch_top} over a skewed stream: ten heavy ids, 50 occurrences apart,
 * above a uniform tail of a few occurrences each, so that the top ten is clear whatever the order of the rows.
 */
class TopKFunctionsTest {

    private static final int HEAVY = 10;
    private static final int TAIL_ROWS = 20_000;
    private static final double EPSILON = 0.001;

    @TempDir
    static Path dir;

    private static SparkSession spark;
    /** The true count of each non-null id. */
    private static final Map<Long, Long> counts = new HashMap<>();

    private static long rows;

    @BeforeAll
    static void start() {
        spark = LocalSpark.start("mapsketch-spark-topk-test");
        Random random = new Random(2203);
        List<Long> ids = new ArrayList<>();
        for (long id = 0; id < HEAVY; id++) {
            for (int i = 0; i < 1_000 - 50 * id; i++) {
                ids.add(id);
            }
        }
        for (int i = 0; i < TAIL_ROWS; i++) {
            ids.add(100L + random.nextInt(5_000));
        }
        Collections.shuffle(ids, random);
        StructType schema = new StructType()
                .add("id", DataTypes.LongType)
                .add("user", DataTypes.StringType)
                .add("n", DataTypes.IntegerType)
                .add("raw", DataTypes.BinaryType)
                .add("page", DataTypes.StringType)
                .add("long_name", DataTypes.StringType);
        List<Row> data = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            long id = ids.get(i);
            boolean nulls = i % 89 == 0;
            if (!nulls) {
                counts.merge(id, 1L, Long::sum);
            }
            data.add(RowFactory.create(
                    nulls ? null : id,
                    nulls ? null : "user-" + id,
                    nulls ? null : (int) id,
                    nulls ? null : ("raw-" + id).getBytes(StandardCharsets.UTF_8),
                    "page-" + (i % 3),
                    "x".repeat(70) + id));
        }
        rows = counts.values().stream().mapToLong(Long::longValue).sum();
        spark.createDataFrame(data, schema).write().parquet(dir.resolve("hits").toString());
    }

    @AfterAll
    static void stop() {
        if (spark != null) {
            spark.stop();
        }
    }

    private static void view(int partitions) {
        spark.read()
                .parquet(dir.resolve("hits").toString())
                .repartition(partitions)
                .createOrReplaceTempView("hits");
    }

    /** The listed (key bytes, count) pairs of {@code mapsketch_top(sketch, n)} over an aggregate of the view. */
    private static List<Map.Entry<ByteBuffer, Long>> top(String aggregate, int n) {
        Row row = spark.sql("SELECT mapsketch_top(s, " + n + ") FROM (SELECT " + aggregate + " AS s FROM hits)")
                .first();
        List<Map.Entry<ByteBuffer, Long>> listed = new ArrayList<>();
        for (Row entry : row.<Row>getList(0)) {
            listed.add(Map.entry(ByteBuffer.wrap((byte[]) entry.get(0)), entry.getLong(1)));
        }
        return listed;
    }

    private static ByteBuffer longKey(long id) {
        return ByteBuffer.wrap(ByteBuffer.allocate(Long.BYTES)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putLong(id)
                .array());
    }

    private static ByteBuffer utf8(String key) {
        return ByteBuffer.wrap(key.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void everyKeyTypeListsTheHeavyIdsHeaviestFirstNeverUndercounted() {
        view(3);
        Map<String, java.util.function.LongFunction<ByteBuffer>> columns = Map.of(
                "user",
                id -> utf8("user-" + id),
                "id",
                TopKFunctionsTest::longKey,
                "n",
                TopKFunctionsTest::longKey,
                "raw",
                id -> utf8("raw-" + id));
        for (Map.Entry<String, java.util.function.LongFunction<ByteBuffer>> column : columns.entrySet()) {
            List<Map.Entry<ByteBuffer, Long>> listed = top("mapsketch_topk_agg(" + column.getKey() + ", 10)", 10);
            assertEquals(HEAVY, listed.size(), column.getKey());
            for (int id = 0; id < HEAVY; id++) {
                Map.Entry<ByteBuffer, Long> entry = listed.get(id);
                assertEquals(column.getValue().apply(id), entry.getKey(), column.getKey() + " rank " + id);
                long count = counts.get((long) id);
                assertTrue(entry.getValue() >= count, column.getKey() + " " + id + " undercounted");
                assertTrue(entry.getValue() <= count + (long) Math.ceil(EPSILON * rows), column.getKey() + " " + id);
            }
        }
        assertEquals(3, top("mapsketch_topk_agg(user, 10)", 3).size(), "n below k lists n");
        assertEquals(HEAVY, top("mapsketch_topk_agg(user, 10)", 50).size(), "n above k lists k");
    }

    @Test
    void oneThreeAndEightPartitionsAndAMergeListTheSameTopAndCounts() {
        String aggregate = "mapsketch_topk_agg(user, 10)";
        view(1);
        List<Map.Entry<ByteBuffer, Long>> one = top(aggregate, 10);
        Row counted = spark.sql("SELECT mapsketch_count(s, 'user-3'), mapsketch_count(s, 'user-150') FROM" + " (SELECT "
                        + aggregate + " AS s FROM hits)")
                .first();
        assertTrue(counted.getLong(0) >= counts.get(3L));
        assertTrue(counted.getLong(1) >= counts.getOrDefault(150L, 0L));
        for (int partitions : new int[] {3, 8}) {
            view(partitions);
            assertEquals(one, top(aggregate, 10), partitions + " partitions");
            Row again = spark.sql("SELECT mapsketch_count(s, 'user-3'), mapsketch_count(s, 'user-150') FROM"
                            + " (SELECT " + aggregate + " AS s FROM hits)")
                    .first();
            assertEquals(counted, again, "the Count-Min counters do not depend on the partitioning");
        }
        Row merged = spark.sql("SELECT mapsketch_top(mapsketch_merge_agg(s), 10) FROM" + " (SELECT page, " + aggregate
                        + " AS s FROM hits GROUP BY page)")
                .first();
        List<Map.Entry<ByteBuffer, Long>> rolled = new ArrayList<>();
        for (Row entry : merged.<Row>getList(0)) {
            rolled.add(Map.entry(ByteBuffer.wrap((byte[]) entry.get(0)), entry.getLong(1)));
        }
        assertEquals(one, rolled, "the merge of the pages' sketches");
    }

    @Test
    void nullKeysAreSkippedAndAnEmptyGroupGivesTheEmptySketch() throws Exception {
        view(2);
        byte[] ofNulls = (byte[]) spark.sql("SELECT mapsketch_topk_agg(user, 10) FROM hits WHERE id IS NULL")
                .first()
                .get(0);
        byte[] ofNothing = (byte[]) spark.sql("SELECT mapsketch_topk_agg(user, 10) FROM hits WHERE page = 'none'")
                .first()
                .get(0);
        try (TopK empty = TopK.builder().k(10).epsilon(0.001).delta(0.01).createAnonymous(OpenMode.EXCLUSIVE)) {
            assertArrayEquals(SketchImage.toBytes(empty, Instant.EPOCH), ofNulls);
        }
        assertArrayEquals(ofNulls, ofNothing);
        Row answers = spark.sql("SELECT size(mapsketch_top(s, 5)), mapsketch_top(s, CAST(NULL AS INT)),"
                        + " mapsketch_top(CAST(NULL AS BINARY), 5) FROM (SELECT mapsketch_topk_agg(user, 10) AS s"
                        + " FROM hits WHERE id IS NULL)")
                .first();
        assertEquals(0, answers.getInt(0));
        assertNull(answers.get(1));
        assertNull(answers.get(2));
        Row named = spark.sql("SELECT CAST(t.item AS STRING), t.count FROM (SELECT explode(mapsketch_top(s, 1)) AS t"
                        + " FROM (SELECT mapsketch_topk_agg(user, 10, 0.0005, 0.001) AS s FROM hits))")
                .first();
        assertEquals("user-0", named.getString(0));
        assertTrue(named.getLong(1) >= counts.get(0L));
    }

    @Test
    void badParametersAndLongKeysAreRefusedWithTheEngineMessages() {
        view(1);
        Exception k = assertThrows(
                Exception.class,
                () -> spark.sql("SELECT mapsketch_topk_agg(user, 0) FROM hits").collect());
        assertTrue(k.getMessage().contains("k = 0, must be in [1, "), k.getMessage());
        Exception pair = assertThrows(
                Exception.class,
                () -> spark.sql("SELECT mapsketch_topk_agg(user, 5, 0.01) FROM hits")
                        .collect());
        assertTrue(pair.getMessage().contains("epsilon and delta go together"), pair.getMessage());
        Exception longKey = assertThrows(
                Exception.class,
                () -> spark.sql("SELECT mapsketch_topk_agg(long_name, 5) FROM hits")
                        .collect());
        String messages = causes(longKey);
        assertTrue(messages.contains("bytes, must be in [0, 64]"), messages);
        Exception notTopK = assertThrows(
                Exception.class,
                () -> spark.sql("SELECT mapsketch_top(mapsketch_cms_agg(user, 0.01, 0.01), 3) FROM hits")
                        .collect());
        assertTrue(causes(notTopK).contains("mapsketch_top: sketch kind = "), causes(notTopK));
    }

    private static String causes(Throwable failure) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            all.append(t).append('\n');
        }
        return all.toString();
    }
}
