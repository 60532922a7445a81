package io.mapsketch.jmh;

import io.mapsketch.OpenMode;
import io.mapsketch.cardinality.HyperLogLogTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Adds of (key, item) pairs to a HyperLogLog table of {@value #KEYS} keys at precision 14, in batches of
 * {@value #BATCH} pairs ({@link HyperLogLogTable#addAll(byte[], int[], int[], int[], int[], int)}); the
 * score is pairs per second. No peer holds a keyspace of sketches in a library (Redis serves it from a
 * server; its bytes per key are in the memory table), so the target is absolute: 5 M pairs per second.
 *
 * <p>The table is a file in a temporary directory (open {@code EXCLUSIVE}, or {@code SHARED} for
 * {@code mapsketch-shared}), filled in the setup with {@value #ITEMS} distinct items of every key, as the
 * memory table's table is ({@link TablePairs}: 16-byte keys, 8-byte items). Each measured batch then draws
 * its keys uniformly from all {@value #KEYS} and each pair one of its key's {@value #ITEMS} items: the
 * steady state of a table whose keys have reached their day's visitors, where most adds find their
 * register already set. A pair costs its key's lookup in the index (a cache miss: the index is 16 MiB and
 * the keys' records 512 MB), the item's hash and a walk of the key's sparse entries. Batches are
 * precomputed ({@value #BATCHES} of them, walked with a cursor), so no key is built in the timed code.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
public class TableBenchmark {

    /** Pairs per {@link #addAll} call. */
    static final int BATCH = 1024;
    /** Keys of the table. */
    static final int KEYS = 1_000_000;
    /** Distinct items of every key. */
    static final int ITEMS = 100;
    /** Precision of every key's HyperLogLog. */
    static final int PRECISION = 14;

    private static final int BATCHES = 256;
    private static final int FILL_KEYS_PER_CALL = 1_000;

    /** Implementation: {@code mapsketch} ({@code EXCLUSIVE}) or {@code mapsketch-shared}. */
    @Param({"mapsketch", "mapsketch-shared"})
    public String impl;

    private Path directory;
    private HyperLogLogTable table;
    private TablePairs[] batches;
    private int cursor;

    /** Creates the state; JMH calls this once per fork. */
    public TableBenchmark() {}

    /**
     * Creates and fills the table, and draws the batches.
     *
     * @throws IOException if the table's file cannot be created
     */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        directory = Files.createTempDirectory("mapsketch-table-benchmark");
        table = filledTable(
                directory.resolve("pages.hllt"), impl.endsWith("-shared") ? OpenMode.SHARED : OpenMode.EXCLUSIVE);
        SplittableRandom random = new SplittableRandom(BenchmarkSettings.SKETCH_SEED);
        batches = new TablePairs[BATCHES];
        for (int b = 0; b < BATCHES; b++) {
            batches[b] = TablePairs.uniform(BATCH, KEYS, ITEMS, random);
        }
    }

    /**
     * The table of the memory table and of this benchmark: {@value #KEYS} keys of {@value #ITEMS} items each,
     * at precision {@value #PRECISION}, with the default bytes per key.
     */
    static HyperLogLogTable filledTable(Path file, OpenMode mode) throws IOException {
        HyperLogLogTable table = HyperLogLogTable.builder()
                .precision(PRECISION)
                .capacity(KEYS)
                .seed(BenchmarkSettings.SKETCH_SEED)
                .create(file, mode);
        for (long first = 0; first < KEYS; first += FILL_KEYS_PER_CALL) {
            TablePairs.items(first, FILL_KEYS_PER_CALL, 0, ITEMS, ITEMS).addTo(table);
        }
        return table;
    }

    /**
     * Closes the table and deletes its file.
     *
     * @throws IOException if the file cannot be deleted
     */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        table.close();
        try (var files = Files.list(directory)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(directory);
    }

    /**
     * Adds one batch of pairs.
     *
     * @return whether a register grew
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public boolean addAll() {
        boolean grew = batches[cursor].addTo(table);
        cursor = (cursor + 1) & (BATCHES - 1);
        return grew;
    }
}
