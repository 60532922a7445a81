package io.mapsketch.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.SketchImage;
import io.mapsketch.cardinality.HyperLogLog;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.datasketches.hll.HllSketch;
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
 * {@code mapsketch_from_datasketches_hll} over Spark's own {@code hll_sketch_agg} at lgK 12: groups of 1 to
 * 12,000 distinct keys (LIST, SET and HLL mode), each key twice, built in one partition (in order) and in three
 * (Spark's union, out of order), for string, bigint, int and binary keys.
 */
class DataSketchesHllFunctionTest {

    private static final int[] DISTINCT = {1, 7, 100, 700, 5_000, 12_000};
    private static final String[] COLUMNS = {"s", "l", "i", "b"};

    @TempDir
    static Path dir;

    private static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = LocalSpark.start("mapsketch-spark-datasketches-test");
        Random random = new Random(2204);
        StructType schema = new StructType()
                .add("g", DataTypes.IntegerType)
                .add("s", DataTypes.StringType)
                .add("l", DataTypes.LongType)
                .add("i", DataTypes.IntegerType)
                .add("b", DataTypes.BinaryType);
        List<Row> rows = new ArrayList<>();
        for (int g = 0; g < DISTINCT.length; g++) {
            for (int key = 0; key < DISTINCT[g]; key++) {
                long value = random.nextLong();
                for (int copy = 0; copy < 2; copy++) {
                    rows.add(RowFactory.create(
                            g, "key-" + value, value, (int) value, ("raw-" + value).getBytes(StandardCharsets.UTF_8)));
                }
            }
            rows.add(RowFactory.create(g, null, null, null, null));
        }
        Collections.shuffle(rows, random);
        spark.createDataFrame(rows, schema).write().parquet(dir.resolve("keys").toString());
    }

    @AfterAll
    static void stop() {
        if (spark != null) {
            spark.stop();
        }
    }

    private static void view(int partitions) {
        spark.read()
                .parquet(dir.resolve("keys").toString())
                .repartition(partitions)
                .createOrReplaceTempView("keys");
    }

    @Test
    void theEstimateOfTheImportIsDataSketchesEstimateOfSparksSketch() throws Exception {
        StringBuilder select = new StringBuilder("SELECT g");
        for (String column : COLUMNS) {
            select.append(", hll_sketch_agg(").append(column).append(", 12)");
            select.append(", hll_sketch_estimate(hll_sketch_agg(")
                    .append(column)
                    .append(", 12))");
            select.append(", mapsketch_estimate(mapsketch_from_datasketches_hll(hll_sketch_agg(")
                    .append(column)
                    .append(", 12)))");
            select.append(", mapsketch_from_datasketches_hll(hll_sketch_agg(")
                    .append(column)
                    .append(", 12))");
        }
        select.append(" FROM keys GROUP BY g");
        for (int partitions : new int[] {1, 3}) {
            view(partitions);
            List<Row> groups = spark.sql(select.toString()).collectAsList();
            assertEquals(DISTINCT.length, groups.size());
            for (Row group : groups) {
                for (int c = 0; c < COLUMNS.length; c++) {
                    String what = partitions + " partitions, group " + group.getInt(0) + ", column " + COLUMNS[c];
                    byte[] image = (byte[]) group.get(1 + 4 * c);
                    double theirs = HllSketch.heapify(image).getEstimate();
                    double ours = group.getDouble(3 + 4 * c);
                    assertEquals(theirs, ours, 1e-9 * theirs, what);
                    assertEquals(group.getLong(2 + 4 * c), Math.round(ours), what + ": hll_sketch_estimate");
                    assertEquals(DISTINCT[group.getInt(0)], ours, 0.05 * DISTINCT[group.getInt(0)], what);
                    try (HyperLogLog imported =
                            (HyperLogLog) SketchImage.open((byte[]) group.get(4 + 4 * c), OpenMode.READ_ONLY)) {
                        assertEquals(12, imported.precision(), what);
                        assertTrue(
                                imported.estimator().name().startsWith("DATASKETCHES_"),
                                what + ": " + imported.estimator());
                    }
                }
            }
        }
    }

    @Test
    void nullsEmptyGroupsAndForeignBytes() {
        view(2);
        Row empty = spark.sql("SELECT mapsketch_estimate(mapsketch_from_datasketches_hll(hll_sketch_agg(s, 12))),"
                        + " hll_sketch_estimate(hll_sketch_agg(s, 12)),"
                        + " mapsketch_from_datasketches_hll(CAST(NULL AS BINARY)) FROM keys WHERE g < 0")
                .first();
        assertEquals(0.0, empty.getDouble(0));
        assertEquals(0L, empty.getLong(1));
        assertNull(empty.get(2));
        Exception refused = assertThrows(
                Exception.class,
                () -> spark.sql("SELECT mapsketch_from_datasketches_hll(mapsketch_hll_agg(s, 12)) FROM keys")
                        .collect());
        String messages = causes(refused);
        assertTrue(messages.contains("ForeignSketchException"), messages);
        assertTrue(messages.contains("not a datasketches-hll sketch"), messages);
    }

    @Test
    void theMergeOfImportsEstimatesAsSparksUnion() {
        view(3);
        Row row = spark.sql("SELECT mapsketch_estimate(mapsketch_merge_agg(mapsketch_from_datasketches_hll(h))),"
                        + " hll_union_agg(h) FROM (SELECT g, hll_sketch_agg(s, 12) AS h FROM keys GROUP BY g)")
                .first();
        double theirs = HllSketch.heapify((byte[]) row.get(1)).getEstimate();
        assertEquals(theirs, row.getDouble(0), 1e-9 * theirs);
    }

    private static String causes(Throwable failure) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            all.append(t).append('\n');
        }
        return all.toString();
    }
}
