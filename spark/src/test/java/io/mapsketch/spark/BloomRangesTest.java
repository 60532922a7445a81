package io.mapsketch.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.membership.BlockedBloomFilter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
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

class BloomRangesTest {

    private static final int ROWS = 30_000;
    private static final long EXPECTED = 200_000;

    @TempDir
    static Path dir;

    private static SparkSession spark;
    private static final List<Object[]> generated = new ArrayList<>();

    @BeforeAll
    static void start() {
        spark = LocalSpark.start("mapsketch-spark-ranges-test");
        Random random = new Random(2222);
        StructType schema = new StructType()
                .add("id", DataTypes.LongType)
                .add("user", DataTypes.StringType)
                .add("raw", DataTypes.BinaryType);
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            long id = random.nextInt(20_000);
            boolean nulls = i % 101 == 0;
            Object[] values = {
                nulls ? null : id,
                nulls ? null : "user-" + id,
                nulls ? null : ("raw-" + id).getBytes(StandardCharsets.UTF_8)
            };
            generated.add(values);
            rows.add(RowFactory.create(values));
        }
        spark.createDataFrame(rows, schema)
                .repartition(3)
                .write()
                .parquet(dir.resolve("keys").toString());
        spark.read().parquet(dir.resolve("keys").toString()).createOrReplaceTempView("keys");
    }

    @AfterAll
    static void stop() {
        if (spark != null) {
            spark.stop();
        }
    }

    private static Dataset<Row> keys() {
        return spark.read().parquet(dir.resolve("keys").toString());
    }

    private static byte[] aggregate(String column) {
        return (byte[]) spark.sql("SELECT mapsketch_bloom_agg(" + column + ", " + EXPECTED + ", 0.01) FROM keys")
                .collectAsList()
                .get(0)
                .get(0);
    }

    @Test
    void oneTwoFiveAndEightRangesGiveTheBytesOfTheAggregate() throws Exception {
        byte[] whole = aggregate("user");
        for (int ranges : new int[] {1, 2, 5, 8}) {
            Path file = dir.resolve("user-" + ranges + ".sketch");
            MapsketchFiles.writeBloomByRanges(keys(), "user", EXPECTED, 0.01, ranges, file);
            assertArrayEquals(whole, Files.readAllBytes(file), ranges + " ranges");
        }
    }

    @Test
    void theFileOpensAndHoldsEveryKeyOfEachColumnType() throws Exception {
        for (String column : List.of("id", "raw")) {
            Path file = dir.resolve(column + ".sketch");
            MapsketchFiles.writeBloomByRanges(keys(), column, EXPECTED, 0.01, 5, file);
            assertArrayEquals(aggregate(column), Files.readAllBytes(file), column);
            try (BlockedBloomFilter filter = BlockedBloomFilter.open(file, OpenMode.READ_ONLY)) {
                long keys = 0;
                for (Object[] row : generated) {
                    if (row[0] == null) {
                        continue;
                    }
                    keys++;
                    assertTrue(
                            column.equals("id")
                                    ? filter.mightContain((long) row[0])
                                    : filter.mightContain((byte[]) row[2], 0, ((byte[]) row[2]).length),
                            column + " " + row[0]);
                }
                assertEquals(keys, filter.itemsAdded(), "null keys are skipped");
            }
        }
    }

    @Test
    void badRangeCountsAndColumnsAreRefusedBeforeAnyJob() {
        Path file = dir.resolve("refused.sketch");
        IllegalArgumentException none = assertThrows(
                IllegalArgumentException.class,
                () -> MapsketchFiles.writeBloomByRanges(keys(), "user", EXPECTED, 0.01, 0, file));
        assertTrue(none.getMessage().startsWith("ranges = 0, must be in [1, "), none.getMessage());
        spark.sql("SELECT CAST(1.5 AS DOUBLE) AS price").createOrReplaceTempView("prices");
        IllegalArgumentException type = assertThrows(
                IllegalArgumentException.class,
                () -> MapsketchFiles.writeBloomByRanges(spark.table("prices"), "price", EXPECTED, 0.01, 2, file));
        assertTrue(type.getMessage().contains("key column type = double"), type.getMessage());
        assertFalse(Files.exists(file));
    }
}
