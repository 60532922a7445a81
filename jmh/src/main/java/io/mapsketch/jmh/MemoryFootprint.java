package io.mapsketch.jmh;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Measures the bytes of state each implementation holds at the settings of the speed benchmarks, for
 * the memory table of the performance report. Not a JMH benchmark: a plain main in the benchmarks
 * jar, run as {@code java --add-modules jdk.incubator.vector -cp jmh/target/benchmarks.jar
 * io.mapsketch.jmh.MemoryFootprint OUTPUT.json}. It writes a JSON array of rows (question, setting,
 * impl, bytes, measure, note; see {@link Row}) and prints the same rows as a table. Every key stream is
 * seeded, so the numbers are the same on every run; a size of zero or less is an error.
 *
 * <p><b>What is measured.</b> mapsketch: the size of the sketch's file ({@code Files.size}), created
 * with {@code create(file, EXCLUSIVE)} in a new temporary directory, filled, closed and then measured:
 * the 4096-byte header plus the payload ({@code memoryBytes()}, shown in the measure). The
 * {@code SHARED} variants of the benchmarks map the same file layout, so they are not listed apart.
 * Peers: the library's own measure of its state, named per row: its serialized size (Guava's and
 * Spark's {@code writeTo} into a counting stream, DataSketches' serialized sizes, hash4j's
 * {@code getState()} or signature length, stream-lib's serializers), or fastfilter's
 * {@code getBitCount() / 8}, which has no serializer. A serialized size is not the heap footprint (object
 * headers, boxing, unused map slots); the notes say where that differs much.
 *
 * <p><b>Settings and keys</b> (those of the benchmarks; each sketch is filled with the benchmark's kind
 * of keys, as many as its setup adds, so that sparse or growing representations reach the state they
 * have there):
 * <ul>
 *   <li>membership, Bloom ({@link BloomBenchmark}): 1,000,000 keys at a 1% rate, filled with keys
 *       {@code 0 .. 999,999} of {@link KeyStreams#key}. Spark's {@code BloomFilter.create(items, 0.01)}
 *       and {@code putLong} are measured as well. The benchmark's 50,000,000-key setting is left out:
 *       every filter's state is a fixed array that scales with the items.</li>
 *   <li>membership, cuckoo ({@link CuckooBenchmark}): 943,718 keys (90% of 2^18 buckets of four) at
 *       0.1%, against fastfilter's {@code Cuckoo16} with the same slots.</li>
 *   <li>frequency, Count-Min ({@link CountMinBenchmark}): epsilon 0.001 and delta 0.01, 2,719 x 5,
 *       with the benchmark's stream of 2^24 Zipf keys (exponent 1 over 2^24 ranks); Spark's
 *       {@code CountMinSketch.create(depth, width, seed)} with the same shape as well.</li>
 *   <li>frequency, Top-K ({@link TopKBenchmark}): k = 100 on Count-Min at epsilon 0.001, delta 0.01,
 *       against maps of 1,024 counters, after the same 2^24-key stream.</li>
 *   <li>distinct count ({@link HyperLogLogBenchmark}): precision 12 and 14 (lgK = p for DataSketches),
 *       after 2^20 distinct keys, as the benchmark's estimate setup adds, which leaves every sparse
 *       mode.</li>
 *   <li>similarity ({@link MinHashBenchmark}, {@link SimHashBenchmark}): one MinHash signature of k =
 *       128 and 1,024 64-bit slots of a set of 1,024 keys (a one-row mapsketch table); the searched
 *       table of 4,096 sets of 64 keys; and a table of 1,000,000 SimHash fingerprints.</li>
 *   <li>tables ({@link TableBenchmark}): a HyperLogLog table of 1,000,000 keys with 100 distinct items each,
 *       against the same keys in a real {@code redis-server} ({@link TableFootprint}).</li>
 * </ul>
 */
public final class MemoryFootprint {

    private MemoryFootprint() {}

    /**
     * One measured size: a row of the memory table.
     *
     * @param question membership, frequency, distinct count or similarity
     * @param setting the benchmark setting, with how many keys were added
     * @param impl the implementation, named as in the benchmarks' {@code impl} param
     * @param bytes the bytes of its state
     * @param measure how {@code bytes} was measured
     * @param note empty, or where the implementation cannot be configured as mapsketch is
     */
    public record Row(String question, String setting, String impl, long bytes, String measure, String note) {

        /**
         * Checks that the size is positive.
         *
         * @throws IllegalStateException if {@code bytes} is zero or negative
         */
        public Row {
            if (bytes <= 0) {
                throw new IllegalStateException(impl + " at " + setting + " measured " + bytes + " bytes");
            }
        }
    }

    /**
     * Measures every row, writes them as JSON to the file named by the first argument and prints them.
     *
     * @param args the output file
     * @throws IOException if a sketch file or the output cannot be written
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: MemoryFootprint OUTPUT.json");
            System.exit(2);
        }
        List<Row> rows = measureAll();
        new ObjectMapper()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(Path.of(args[0]).toFile(), rows);
        print(rows);
    }

    /**
     * Builds, fills and measures every implementation at every setting; mapsketch's files live in a
     * temporary directory that is deleted afterwards.
     *
     * @return the rows, in table order
     * @throws IOException if a sketch file cannot be created, measured or deleted
     */
    public static List<Row> measureAll() throws IOException {
        Path directory = Files.createTempDirectory("mapsketch-memory");
        try {
            FootprintRecorder recorder = new FootprintRecorder(directory);
            MembershipFootprint.measure(recorder);
            FrequencyFootprint.measure(recorder);
            DistinctCountFootprint.measure(recorder);
            SimilarityFootprint.measure(recorder);
            TableFootprint.measure(recorder);
            return recorder.rows();
        } finally {
            try (var entries = Files.list(directory)) {
                for (Path entry : entries.toList()) {
                    Files.delete(entry);
                }
            }
            Files.delete(directory);
        }
    }

    private static void print(List<Row> rows) {
        int settingWidth =
                rows.stream().mapToInt(row -> row.setting().length()).max().orElse(0);
        int implWidth = rows.stream().mapToInt(row -> row.impl().length()).max().orElse(0);
        String format = "%-14s  %-" + settingWidth + "s  %-" + implWidth + "s  %,12d  %s%s%n";
        for (Row row : rows) {
            System.out.printf(
                    Locale.ROOT,
                    format,
                    row.question(),
                    row.setting(),
                    row.impl(),
                    row.bytes(),
                    row.measure(),
                    row.note().isEmpty() ? "" : "  [" + row.note() + "]");
        }
    }
}
