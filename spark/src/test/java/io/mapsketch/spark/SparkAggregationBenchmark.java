package io.mapsketch.spark;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.sketch.BloomFilter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Whole aggregations in a {@code local[cores]} Spark session: mapsketch's {@code mapsketch_bloom_agg} and
 * {@code mapsketch_hll_agg} against Spark's own {@code df.stat().bloomFilter} and {@code hll_sketch_agg}, over the
 * same cached column of {@link #items} distinct keys, {@code bigint} or {@code string}. One invocation is one
 * aggregation brought to completion: the sketch's bytes collected on the driver (Spark's Bloom filter comes back as
 * an object and is serialized with {@code writeTo}; the others are BINARY values). Parameters are equal: the Bloom
 * filters are sized for {@code items} keys at 1% false positives (mapsketch's blocked layout, Spark's classic
 * one), the HyperLogLogs have precision 12 ({@code hll_sketch_agg(k, 12)}, DataSketches' HLL_4).
 *
 * <p>The keys are {@code xxhash64(id)} of {@code spark.range(items)} in {@code cores} partitions, and for strings
 * {@code 'user-'} and the hex form of that hash (about 21 characters); the column is cached in memory and counted
 * before the first invocation, so every implementation reads the same rows from the same cache. Mode
 * {@code SingleShotTime}: each iteration is one aggregation, in seconds; keys per second per core is
 * {@code items / seconds / cores}, as the report computes it. Not a unit test: run by {@code scripts/bench spark}
 * (suite {@code spark}) on the spark module's test class path.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(
        value = 1,
        jvmArgsAppend = {
            "--add-modules=jdk.incubator.vector",
            "--enable-native-access=ALL-UNNAMED",
            "-Xmx4g",
            // What Spark 4.2 opens on JDK 25: the spark module's mapsketch.spark.opens, which its tests use.
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
            "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
            "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED"
        })
@Warmup(iterations = 2)
@Measurement(iterations = 5)
public class SparkAggregationBenchmark {

    private static final double FALSE_POSITIVE_RATE = 0.01;
    private static final int PRECISION = 12;

    /** Implementation: {@code mapsketch} (its SQL aggregates) or {@code spark} (Spark's own sketches). */
    @Param({"mapsketch", "spark"})
    public String impl;

    /** The key column's type: {@code long} (bigint) or {@code string}. */
    @Param({"long", "string"})
    public String keys;

    /** Distinct keys in the column, and the Bloom filters' expected items. */
    @Param({"2000000"})
    public long items;

    /** The session's cores and the column's partitions: {@code local[cores]}. */
    @Param({"2"})
    public int cores;

    private SparkSession spark;
    private Dataset<Row> column;
    private Column bloomAggregate;
    private Column hyperLogLogAggregate;

    /** Creates the state; JMH calls this once per fork. */
    public SparkAggregationBenchmark() {}

    /** Starts the session and caches the key column. */
    @Setup(Level.Trial)
    public void start() {
        spark = LocalSpark.start("mapsketch-spark-benchmark", cores);
        spark.sparkContext().setLogLevel("WARN");
        String key = switch (keys) {
            case "long" -> "xxhash64(id)";
            case "string" -> "concat('user-', hex(xxhash64(id)))";
            default -> throw new IllegalArgumentException("keys = " + keys + ", must be long or string");
        };
        column = spark.range(0, items, 1, cores).selectExpr(key + " AS k").persist(StorageLevel.MEMORY_ONLY());
        column.count();
        bloomAggregate = functions.expr("mapsketch_bloom_agg(k, " + items + ", " + FALSE_POSITIVE_RATE + ")");
        hyperLogLogAggregate = functions.expr(
                (impl.equals("mapsketch") ? "mapsketch_hll_agg(k, " : "hll_sketch_agg(k, ") + PRECISION + ")");
    }

    /** Drops the cached column and stops the session. */
    @TearDown(Level.Trial)
    public void stop() {
        column.unpersist(true);
        spark.stop();
    }

    /**
     * A Bloom filter of the column, 1% false positives at {@code items} keys.
     *
     * @return the filter's bytes
     * @throws IOException if Spark's filter cannot be serialized
     */
    @Benchmark
    public byte[] bloom() throws IOException {
        if (impl.equals("mapsketch")) {
            return column.agg(bloomAggregate).head().getAs(0);
        }
        BloomFilter filter = column.stat().bloomFilter("k", items, FALSE_POSITIVE_RATE);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        filter.writeTo(bytes);
        return bytes.toByteArray();
    }

    /**
     * A HyperLogLog of the column at precision 12.
     *
     * @return the sketch's bytes
     */
    @Benchmark
    public byte[] hyperLogLog() {
        return column.agg(hyperLogLogAggregate).head().getAs(0);
    }
}
