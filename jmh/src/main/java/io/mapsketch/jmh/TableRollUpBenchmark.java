package io.mapsketch.jmh;

import io.mapsketch.OpenMode;
import io.mapsketch.cardinality.HyperLogLogTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * Rolls {@value #DAYS} day tables of {@value #KEYS} keys into a month table: {@link HyperLogLogTable#mergeAll}
 * of the days into an empty month, key by key, each month key written once. One operation is one day table merged, so the score times
 * {@code size}, the bytes of a day table's file, is the rate at which the tables are read (the report shows
 * both); the memory-speed reference is {@code KernelBenchmark.readSumReference}.
 *
 * <p>Each day table is a file in a temporary directory, opened read-only, with {@value #DAY_ITEMS} items of
 * every key, other items every day ({@link TablePairs}), at precision {@value #PRECISION} and
 * {@value #DAY_BYTES_PER_KEY} bytes per key: a record, whose chunk 0 holds the day's entries. The month (each key
 * with {@value #DAYS} x {@value #DAY_ITEMS} items, still sparse) is an anonymous table made empty before each
 * roll-up, outside the timed code, its pages zeroed when it is made. The setup checks once that
 * the month is, for the first {@value #CHECKED_KEYS} keys, register for register, the table built from all
 * their items, and that a day table's file has {@code size} bytes.
 *
 * <p>{@link #recordReads} is the floor under {@link #rollUp} in this layout: the slot word and the record
 * lines of every key in every day table, read in the roll-up's order and nothing else
 * ({@link TableRecordReads}).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
public class TableRollUpBenchmark {

    /** Day tables per month. */
    static final int DAYS = 30;
    /** Keys of every table. */
    static final int KEYS = 100_000;
    /** Items of every key on every day. */
    static final int DAY_ITEMS = 10;

    private static final int PRECISION = 14;
    private static final long DAY_BYTES_PER_KEY = 128;
    private static final long MONTH_BYTES_PER_KEY = 2_560;
    private static final int CHECKED_KEYS = 1_000;
    private static final int FILL_KEYS_PER_CALL = 1_000;

    /** Implementation: {@code mapsketch}. */
    @Param({"mapsketch"})
    public String impl;

    /** Bytes of one day table's file: header, index of 2^18 slots and heap; the setup checks it. */
    @Param({"14901312"})
    public long size;

    private Path directory;
    private HyperLogLogTable[] days;
    private HyperLogLogTable month;
    private TableRecordReads reads;

    /** Creates the state; JMH calls this once per fork. */
    public TableRollUpBenchmark() {}

    /**
     * Writes the day tables, opens them read-only and checks one roll-up against the month of all items.
     *
     * @throws IOException if a table's file cannot be written or opened
     */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        directory = Files.createTempDirectory("mapsketch-rollup-benchmark");
        days = new HyperLogLogTable[DAYS];
        List<Path> files = new ArrayList<>();
        for (int day = 0; day < DAYS; day++) {
            Path file = directory.resolve("day-" + day + ".hllt");
            try (HyperLogLogTable table = table(KEYS, DAY_BYTES_PER_KEY, file)) {
                for (long first = 0; first < KEYS; first += FILL_KEYS_PER_CALL) {
                    TablePairs.items(first, FILL_KEYS_PER_CALL, day * DAY_ITEMS, DAY_ITEMS, DAYS * DAY_ITEMS)
                            .addTo(table);
                }
            }
            if (Files.size(file) != size) {
                throw new IllegalStateException(file + " has " + Files.size(file) + " bytes, size = " + size);
            }
            days[day] = HyperLogLogTable.open(file, OpenMode.READ_ONLY);
            files.add(file);
        }
        checkRollUp();
        reads = new TableRecordReads(files, KEYS);
    }

    private void checkRollUp() throws IOException {
        newMonth();
        rollUp();
        try (HyperLogLogTable expected = table(CHECKED_KEYS, MONTH_BYTES_PER_KEY, null)) {
            TablePairs.items(0, CHECKED_KEYS, 0, DAYS * DAY_ITEMS, DAYS * DAY_ITEMS)
                    .addTo(expected);
            for (long k = 0; k < CHECKED_KEYS; k++) {
                String key = new String(TablePairs.key(k), StandardCharsets.US_ASCII);
                if (!Arrays.equals(expected.registers(key), month.registers(key))) {
                    throw new IllegalStateException(
                            "the rolled-up month differs from the month of all items at " + key);
                }
            }
        }
        month.close();
    }

    /** A table of the benchmark's precision and seed, in {@code file}, or anonymous if it is null. */
    private static HyperLogLogTable table(long keys, long bytesPerKey, Path file) throws IOException {
        var builder = HyperLogLogTable.builder()
                .precision(PRECISION)
                .capacity(keys)
                .bytesPerKey(bytesPerKey)
                .seed(BenchmarkSettings.SKETCH_SEED);
        return file == null ? builder.createAnonymous(OpenMode.EXCLUSIVE) : builder.create(file, OpenMode.EXCLUSIVE);
    }

    /**
     * Makes the empty month the next roll-up merges into.
     *
     * @throws IOException never in practice: the month is anonymous
     */
    @Setup(Level.Invocation)
    public void newMonth() throws IOException {
        month = table(KEYS, MONTH_BYTES_PER_KEY, null);
    }

    /**
     * Frees the month of the last roll-up.
     *
     * @throws IOException never in practice: the month is anonymous
     */
    @TearDown(Level.Invocation)
    public void closeMonth() throws IOException {
        month.close();
    }

    /**
     * Closes the day tables and deletes their files.
     *
     * @throws IOException if a file cannot be deleted
     */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        reads.close();
        for (HyperLogLogTable day : days) {
            day.close();
        }
        try (var files = Files.list(directory)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(directory);
    }

    /**
     * Merges the day tables into the month together ({@link HyperLogLogTable#mergeAll}).
     *
     * @return the month's items
     */
    @Benchmark
    @OperationsPerInvocation(DAYS)
    public long rollUp() {
        month.mergeAll(List.of(days));
        return month.itemsAdded();
    }

    /**
     * Reads what the roll-up reads of the day tables and nothing more ({@link TableRecordReads#readAll}).
     *
     * @return the sum of the words read
     */
    @Benchmark
    @OperationsPerInvocation(DAYS)
    public long recordReads() {
        return reads.readAll();
    }
}
