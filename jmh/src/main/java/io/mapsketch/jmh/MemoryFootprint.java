package io.mapsketch.jmh;

import static io.mapsketch.jmh.BenchmarkSettings.BLOOM_FALSE_POSITIVE_RATE;
import static io.mapsketch.jmh.BenchmarkSettings.COUNT_MIN_DELTA;
import static io.mapsketch.jmh.BenchmarkSettings.CUCKOO_FALSE_POSITIVE_RATE;
import static io.mapsketch.jmh.BenchmarkSettings.FASTFILTER_BITS_PER_KEY;
import static io.mapsketch.jmh.BenchmarkSettings.FREQUENCY_STREAM_KEYS;
import static io.mapsketch.jmh.BenchmarkSettings.SKETCH_SEED;
import static io.mapsketch.jmh.BenchmarkSettings.frequencyStream;

import com.clearspring.analytics.stream.StreamSummary;
import com.dynatrace.hash4j.distinctcount.UltraLogLog;
import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import com.dynatrace.hash4j.similarity.ElementHashProvider;
import com.dynatrace.hash4j.similarity.SimilarityHashPolicy;
import com.dynatrace.hash4j.similarity.SimilarityHashing;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.google.common.hash.Funnels;
import com.google.common.io.ByteStreams;
import com.google.common.io.CountingOutputStream;
import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.frequency.CountMinSizing;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.frequency.TopK;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.CuckooFilter;
import io.mapsketch.membership.CuckooSizing;
import io.mapsketch.memory.SketchFileLayout;
import io.mapsketch.similarity.MinHash;
import io.mapsketch.similarity.SimHash;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.datasketches.filters.bloomfilter.BloomFilterBuilder;
import org.apache.datasketches.frequencies.FrequentLongsSketch;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;
import org.fastfilter.bloom.BlockedBloom;
import org.fastfilter.cuckoo.Cuckoo16;

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
 * </ul>
 */
public final class MemoryFootprint {

    private static final String MEMBERSHIP = "membership";
    private static final String FREQUENCY = "frequency";
    private static final String DISTINCT = "distinct count";
    private static final String SIMILARITY = "similarity";

    private static final int BLOOM_ITEMS = 1_000_000;
    private static final int CUCKOO_ITEMS = 943_718;
    private static final int STREAM_KEYS = FREQUENCY_STREAM_KEYS;
    private static final int HLL_KEYS = 1 << 20;
    private static final int SIMHASH_ITEMS = 1_000_000;
    private static final Hasher64 XXH3 = Hashing.xxh3_64();
    private static final Hasher64 SEEDED_XXH3 = Hashing.xxh3_64(SKETCH_SEED);
    private static final int CHUNK = 1 << 16;

    private final Path directory;
    private final List<Row> rows = new ArrayList<>();
    private int files;

    private MemoryFootprint(Path directory) {
        this.directory = directory;
    }

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
            MemoryFootprint footprint = new MemoryFootprint(directory);
            footprint.membership();
            footprint.frequency();
            footprint.distinctCount();
            footprint.similarity();
            return List.copyOf(footprint.rows);
        } finally {
            try (var entries = Files.list(directory)) {
                for (Path entry : entries.toList()) {
                    Files.delete(entry);
                }
            }
            Files.delete(directory);
        }
    }

    // ---- membership -------------------------------------------------------------------------------

    private void membership() throws IOException {
        String setting = "1,000,000 keys at 1% FPR";
        long[] keys = keys(0, BLOOM_ITEMS);
        mapsketch(
                MEMBERSHIP,
                setting,
                "mapsketch-blocked",
                file -> BlockedBloomFilter.builder()
                        .expectedItems(BLOOM_ITEMS)
                        .falsePositiveRate(BLOOM_FALSE_POSITIVE_RATE)
                        .seed(SKETCH_SEED)
                        .create(file, OpenMode.EXCLUSIVE),
                filter -> filter.addAll(keys));
        mapsketch(
                MEMBERSHIP,
                setting,
                "mapsketch-classic",
                file -> BloomFilter.builder()
                        .expectedItems(BLOOM_ITEMS)
                        .falsePositiveRate(BLOOM_FALSE_POSITIVE_RATE)
                        .seed(SKETCH_SEED)
                        .create(file, OpenMode.EXCLUSIVE),
                filter -> filter.addAll(keys));

        com.google.common.hash.BloomFilter<Long> guava =
                com.google.common.hash.BloomFilter.create(Funnels.longFunnel(), BLOOM_ITEMS, BLOOM_FALSE_POSITIVE_RATE);
        for (long key : keys) {
            guava.put(key);
        }
        add(MEMBERSHIP, setting, "guava", written(guava::writeTo), "writeTo: serialized bytes", "");

        org.apache.datasketches.filters.bloomfilter.BloomFilter datasketches =
                BloomFilterBuilder.createByAccuracy(BLOOM_ITEMS, BLOOM_FALSE_POSITIVE_RATE, SKETCH_SEED);
        for (long key : keys) {
            datasketches.update(key);
        }
        add(MEMBERSHIP, setting, "datasketches", datasketches.getSerializedSizeBytes(), "getSerializedSizeBytes()", "");

        BlockedBloom fastfilter = blockedBloom(BLOOM_ITEMS);
        for (long key : keys) {
            fastfilter.add(key);
        }
        add(
                MEMBERSHIP,
                setting,
                "fastfilter-blocked",
                fastfilter.getBitCount() / Byte.SIZE,
                "getBitCount() / 8 (no serializer)",
                FASTFILTER_BITS_PER_KEY + " bits per key, the fewest that keep it at or below 1%");

        org.apache.spark.util.sketch.BloomFilter spark =
                org.apache.spark.util.sketch.BloomFilter.create(BLOOM_ITEMS, BLOOM_FALSE_POSITIVE_RATE);
        for (long key : keys) {
            spark.putLong(key);
        }
        add(MEMBERSHIP, setting, "spark", written(spark::writeTo), "writeTo: serialized bytes", "");

        String cuckoo = "cuckoo: 943,718 keys at 0.1% FPR (90% of 2^18 buckets of four)";
        long[] cuckooKeys = keys(0, CUCKOO_ITEMS);
        mapsketch(
                MEMBERSHIP,
                cuckoo,
                "mapsketch",
                file -> CuckooFilter.builder()
                        .expectedItems(CUCKOO_ITEMS)
                        .falsePositiveRate(CUCKOO_FALSE_POSITIVE_RATE)
                        .seed(SKETCH_SEED)
                        .create(file, OpenMode.EXCLUSIVE),
                filter -> filter.addAll(cuckooKeys));
        Cuckoo16 cuckoo16 =
                new Cuckoo16(Math.toIntExact(CuckooSizing.buckets(CUCKOO_ITEMS) * CuckooSizing.BUCKET_SIZE));
        for (long key : cuckooKeys) {
            cuckoo16.insert(key);
        }
        add(
                MEMBERSHIP,
                cuckoo,
                "fastfilter-cuckoo16",
                cuckoo16.getBitCount() / Byte.SIZE,
                "getBitCount() / 8 (no serializer)",
                "new Cuckoo16(slots): the same buckets as mapsketch's");
    }

    /** fastfilter's {@code BlockedBloom(entryCount, bitsPerKey)}, package-private, as the benchmark calls it. */
    private static BlockedBloom blockedBloom(int items) {
        try {
            Constructor<BlockedBloom> constructor = BlockedBloom.class.getDeclaredConstructor(int.class, int.class);
            constructor.setAccessible(true);
            return constructor.newInstance(items, FASTFILTER_BITS_PER_KEY);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create fastfilter's BlockedBloom", e);
        }
    }

    // ---- frequency --------------------------------------------------------------------------------

    private void frequency() throws IOException {
        long[] stream = frequencyStream(STREAM_KEYS);
        double epsilon = CountMinBenchmark.SMALL_EPSILON;
        int width = CountMinSizing.width(epsilon);
        int depth = CountMinSizing.depth(COUNT_MIN_DELTA);
        String setting = String.format(
                Locale.ROOT, "Count-Min eps 0.001, delta 0.01 (%,d x %d), %,d Zipf keys", width, depth, STREAM_KEYS);
        mapsketch(
                FREQUENCY,
                setting,
                "mapsketch",
                file -> CountMinSketch.builder()
                        .epsilon(epsilon)
                        .delta(COUNT_MIN_DELTA)
                        .counterBits(32)
                        .seed(SKETCH_SEED)
                        .create(file, OpenMode.EXCLUSIVE),
                sketch -> sketch.addAll(stream));

        org.apache.datasketches.count.CountMinSketch datasketches = dataSketchesCountMin(
                org.apache.datasketches.count.CountMinSketch.suggestNumHashes(1 - COUNT_MIN_DELTA),
                org.apache.datasketches.count.CountMinSketch.suggestNumBuckets(epsilon));
        for (long key : stream) {
            datasketches.update(key, 1);
        }
        add(
                FREQUENCY,
                setting,
                "datasketches",
                datasketches.toByteArray().length,
                "toByteArray().length",
                "64-bit counters");

        com.clearspring.analytics.stream.frequency.CountMinSketch streamlib =
                new com.clearspring.analytics.stream.frequency.CountMinSketch(depth, width, (int) SKETCH_SEED);
        for (long key : stream) {
            streamlib.add(key, 1);
        }
        add(
                FREQUENCY,
                setting,
                "streamlib",
                com.clearspring.analytics.stream.frequency.CountMinSketch.serialize(streamlib).length,
                "CountMinSketch.serialize(sketch).length",
                "(depth, width, seed) constructor; 64-bit counters");

        org.apache.spark.util.sketch.CountMinSketch spark =
                org.apache.spark.util.sketch.CountMinSketch.create(depth, width, (int) SKETCH_SEED);
        for (long key : stream) {
            spark.addLong(key);
        }
        add(
                FREQUENCY,
                setting,
                "spark",
                written(spark::writeTo),
                "writeTo: serialized bytes",
                "create(depth, width, seed); 64-bit counters");

        String topK = String.format(
                Locale.ROOT,
                "Top-K k = %d (Count-Min %,d x %d; peers %,d counters), %,d Zipf keys",
                TopKBenchmark.K,
                width,
                depth,
                TopKBenchmark.PEER_COUNTERS,
                STREAM_KEYS);
        mapsketch(
                FREQUENCY,
                topK,
                "mapsketch",
                file -> TopK.builder()
                        .k(TopKBenchmark.K)
                        .epsilon(epsilon)
                        .delta(COUNT_MIN_DELTA)
                        .seed(SKETCH_SEED)
                        .create(file, OpenMode.EXCLUSIVE),
                sketch -> sketch.addAll(stream));

        FrequentLongsSketch frequent = new FrequentLongsSketch(TopKBenchmark.PEER_COUNTERS);
        for (long key : stream) {
            frequent.update(key);
        }
        add(
                FREQUENCY,
                topK,
                "datasketches",
                frequent.toByteArray().length,
                "toByteArray().length",
                String.format(
                        Locale.ROOT,
                        "Misra-Gries, not Count-Min; serializes the %,d counters held (of up to %,d)",
                        frequent.getNumActiveItems(),
                        frequent.getCurrentMapCapacity()));

        StreamSummary<Long> summary = new StreamSummary<>(TopKBenchmark.PEER_COUNTERS);
        for (long key : stream) {
            summary.offer(key);
        }
        add(
                FREQUENCY,
                topK,
                "streamlib",
                summary.toBytes().length,
                "toBytes().length (Java serialization)",
                "Space-Saving, not Count-Min; boxed Long counters");
    }

    /** DataSketches' {@code CountMinSketch(numHashes, numBuckets, seed)}, package-private (as the benchmark). */
    private static org.apache.datasketches.count.CountMinSketch dataSketchesCountMin(byte depth, int width) {
        try {
            Constructor<org.apache.datasketches.count.CountMinSketch> constructor =
                    org.apache.datasketches.count.CountMinSketch.class.getDeclaredConstructor(
                            byte.class, int.class, long.class);
            constructor.setAccessible(true);
            return constructor.newInstance(depth, width, SKETCH_SEED);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create DataSketches' CountMinSketch", e);
        }
    }

    // ---- distinct count ---------------------------------------------------------------------------

    private void distinctCount() throws IOException {
        long[] keys = keys(0, HLL_KEYS);
        for (int precision : new int[] {12, 14}) {
            String setting = String.format(
                    Locale.ROOT,
                    "HyperLogLog p = %d (%,d registers), %,d distinct keys",
                    precision,
                    1 << precision,
                    HLL_KEYS);
            mapsketch(
                    DISTINCT,
                    setting,
                    "mapsketch",
                    file -> HyperLogLog.builder()
                            .precision(precision)
                            .seed(SKETCH_SEED)
                            .create(file, OpenMode.EXCLUSIVE),
                    sketch -> sketch.addAll(keys));
            for (TgtHllType type : new TgtHllType[] {TgtHllType.HLL_8, TgtHllType.HLL_4}) {
                HllSketch sketch = new HllSketch(precision, type);
                for (long key : keys) {
                    sketch.update(key);
                }
                add(
                        DISTINCT,
                        setting,
                        type == TgtHllType.HLL_8 ? "datasketches-hll8" : "datasketches-hll4",
                        sketch.getUpdatableSerializationBytes(),
                        "getUpdatableSerializationBytes()",
                        String.format(
                                Locale.ROOT,
                                "lgK = %d; compact form %,d bytes",
                                precision,
                                sketch.getCompactSerializationBytes()));
            }
            com.dynatrace.hash4j.distinctcount.HyperLogLog hll =
                    com.dynatrace.hash4j.distinctcount.HyperLogLog.create(precision);
            UltraLogLog ull = UltraLogLog.create(precision);
            for (long key : keys) {
                long hash = XXH3.hashLongToLong(key);
                hll.add(hash);
                ull.add(hash);
            }
            add(DISTINCT, setting, "hash4j-hll", hll.getState().length, "getState().length", "6-bit registers");
            add(DISTINCT, setting, "hash4j-ull", ull.getState().length, "getState().length", "");
        }
    }

    // ---- similarity -------------------------------------------------------------------------------

    private void similarity() throws IOException {
        long[] set = keys(0, MinHashBenchmark.SET_KEYS);
        long[][] sets = new long[MinHashBenchmark.ROWS][];
        for (int row = 0; row < MinHashBenchmark.ROWS; row++) {
            sets[row] = keys(1_000_000L + (long) row * MinHashBenchmark.ROW_KEYS / 2, MinHashBenchmark.ROW_KEYS);
        }
        for (int k : new int[] {128, 1024}) {
            String one = String.format(
                    Locale.ROOT, "MinHash k = %,d: one signature of a set of %,d keys", k, MinHashBenchmark.SET_KEYS);
            mapsketch(
                    SIMILARITY,
                    one,
                    "mapsketch",
                    file -> MinHash.builder()
                            .rows(1)
                            .signatureLength(k)
                            .seed(SKETCH_SEED)
                            .create(file, OpenMode.EXCLUSIVE),
                    sketch -> sketch.addAll(0, set));
            for (String impl : new String[] {"hash4j-minhash", "hash4j-superminhash"}) {
                SimilarityHashPolicy policy = impl.endsWith("superminhash")
                        ? SimilarityHashing.superMinHash(k, 64)
                        : SimilarityHashing.minHash(k, 64);
                add(SIMILARITY, one, impl, signature(policy, set).length, "signature byte[] length", "");
            }
            String table = String.format(
                    Locale.ROOT,
                    "MinHash k = %,d: %,d signatures of sets of %,d keys",
                    k,
                    MinHashBenchmark.ROWS,
                    MinHashBenchmark.ROW_KEYS);
            mapsketch(
                    SIMILARITY,
                    table,
                    "mapsketch",
                    file -> MinHash.builder()
                            .rows(MinHashBenchmark.ROWS)
                            .signatureLength(k)
                            .seed(SKETCH_SEED)
                            .create(file, OpenMode.EXCLUSIVE),
                    sketch -> {
                        for (int row = 0; row < MinHashBenchmark.ROWS; row++) {
                            sketch.addAll(row, sets[row]);
                        }
                    });
            for (String impl : new String[] {"hash4j-minhash", "hash4j-superminhash"}) {
                SimilarityHashPolicy policy = impl.endsWith("superminhash")
                        ? SimilarityHashing.superMinHash(k, 64)
                        : SimilarityHashing.minHash(k, 64);
                long bytes = 0;
                for (long[] row : sets) {
                    bytes += signature(policy, row).length;
                }
                add(
                        SIMILARITY,
                        table,
                        impl,
                        bytes,
                        "sum of the signatures' byte[] lengths",
                        "no table: separate byte arrays");
            }
        }

        String fingerprints = String.format(Locale.ROOT, "SimHash: %,d 64-bit fingerprints", SIMHASH_ITEMS);
        SplittableRandom random = new SplittableRandom(20_261_130L);
        mapsketch(
                SIMILARITY,
                fingerprints,
                "mapsketch",
                file -> SimHash.builder()
                        .capacity(SIMHASH_ITEMS)
                        .seed(SKETCH_SEED)
                        .create(file, OpenMode.EXCLUSIVE),
                table -> {
                    for (int i = 0; i < SIMHASH_ITEMS; i++) {
                        table.append(random.nextLong());
                    }
                });
        long[] document = keys(0, SimHashBenchmark.FEATURES);
        for (String impl : new String[] {"hash4j-simhash", "hash4j-fastsimhash"}) {
            SimilarityHashPolicy policy =
                    impl.equals("hash4j-simhash") ? SimilarityHashing.simHash(64) : SimilarityHashing.fastSimHash(64);
            add(
                    SIMILARITY,
                    fingerprints,
                    impl,
                    (long) signature(policy, document).length * SIMHASH_ITEMS,
                    "fingerprint byte[] length x 1,000,000",
                    "no table: the benchmark holds them in a long[]");
        }
    }

    private static byte[] signature(SimilarityHashPolicy policy, long[] keys) {
        return policy.createHasher()
                .compute(ElementHashProvider.ofFunction(i -> SEEDED_XXH3.hashLongToLong(keys[i]), keys.length));
    }

    // ---- measuring --------------------------------------------------------------------------------

    /** Creates a mapsketch sketch in a new file, fills it, closes it and records the file's size. */
    private <S extends Sketch> void mapsketch(
            String question, String setting, String impl, SketchFactory<S> factory, SketchFiller<S> filler)
            throws IOException {
        Path file = directory.resolve("sketch-" + files++);
        long payload;
        try (S sketch = factory.create(file)) {
            filler.fill(sketch);
            sketch.force();
            payload = sketch.memoryBytes();
        }
        long size = Files.size(file);
        Files.delete(file);
        if (size != SketchFileLayout.HEADER_LENGTH + payload) {
            throw new IllegalStateException(impl + " at " + setting + ": file of " + size + " bytes, but header "
                    + SketchFileLayout.HEADER_LENGTH + " + payload " + payload);
        }
        add(
                question,
                setting,
                impl,
                size,
                String.format(
                        Locale.ROOT, "file size: header %,d + payload %,d", SketchFileLayout.HEADER_LENGTH, payload),
                "");
    }

    private void add(String question, String setting, String impl, long bytes, String measure, String note) {
        rows.add(new Row(question, setting, impl, bytes, measure, note));
    }

    /** Bytes a {@code writeTo(OutputStream)} writes. */
    private static long written(Writer writer) {
        CountingOutputStream counter = new CountingOutputStream(ByteStreams.nullOutputStream());
        try {
            writer.writeTo(counter);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return counter.getCount();
    }

    /** Keys {@code first .. first + count - 1} of {@link KeyStreams#key}. */
    private static long[] keys(long first, int count) {
        long[] keys = new long[count];
        for (int i = 0; i < count; i++) {
            keys[i] = KeyStreams.key(first + i);
        }
        return keys;
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

    /** Creates a mapsketch sketch in a file. */
    @FunctionalInterface
    private interface SketchFactory<S extends Sketch> {

        S create(Path file) throws IOException;
    }

    /** Adds the setting's keys to a sketch. */
    @FunctionalInterface
    private interface SketchFiller<S extends Sketch> {

        void fill(S sketch) throws IOException;
    }

    /** A peer's {@code writeTo(OutputStream)}. */
    @FunctionalInterface
    private interface Writer {

        void writeTo(OutputStream out) throws IOException;
    }
}
