package io.mapsketch.spark;

import org.apache.spark.sql.SparkSession;

/** The local session a test class starts: two cores, no UI, few shuffle partitions, the loopback address. */
final class LocalSpark {

    /** The cores of the session {@link #start(String)} starts. */
    static final int CORES = 2;

    private LocalSpark() {}

    /** A {@code local[2]} session named {@code name}, with the mapsketch functions registered. */
    static SparkSession start(String name) {
        return start(name, CORES);
    }

    /** A {@code local[cores]} session named {@code name}, with the mapsketch functions registered. */
    static SparkSession start(String name, int cores) {
        SparkSession spark = SparkSession.builder()
                .master("local[" + cores + "]")
                .appName(name)
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "4")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .getOrCreate();
        MapsketchFunctions.register(spark);
        return spark;
    }
}
