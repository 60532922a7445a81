package io.mapsketch.jmh;

import static io.mapsketch.jmh.BenchmarkSettings.COUNT_MIN_DELTA;
import static io.mapsketch.jmh.BenchmarkSettings.SKETCH_SEED;
import static io.mapsketch.jmh.BenchmarkSettings.frequencyStream;

import com.clearspring.analytics.stream.Counter;
import com.clearspring.analytics.stream.StreamSummary;
import io.mapsketch.OpenMode;
import io.mapsketch.frequency.HeavyHitter;
import io.mapsketch.frequency.TopK;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.datasketches.frequencies.ErrorType;
import org.apache.datasketches.frequencies.FrequentLongsSketch;
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
 * Heavy hitters, k = {@value #K}: mapsketch's {@code TopK} (a Count-Min sketch of epsilon 0.001 and
 * delta 0.01, 2,719 x 5 32-bit counters, plus 100 candidate slots, in a file) against DataSketches'
 * {@code FrequentLongsSketch} and stream-lib's {@code StreamSummary}. Scores are keys per second of
 * {@link #add}, one key at a time.
 *
 * <p><b>Keys.</b> The {@code items} param is the length of the stream: 2^24 keys whose ranks follow
 * Zipf's law with exponent 1 over 2^24 ranks ({@link BenchmarkSettings#frequencyStream}, the Count-Min benchmark's
 * stream), walked with a cursor in {@value #BATCH}-key chunks. The setup adds the whole stream once,
 * so the benchmark measures the steady state of a long-running stream (candidates settled, the
 * admission threshold high), and prints, per implementation, how many of the exact 100 most frequent
 * keys its top 100 holds (a line starting with {@code topk}).
 *
 * <p><b>Peers, and where they differ.</b> Neither peer is a Count-Min sketch: both are counter-based
 * summaries with their own error guarantees, and both are sized here by a map of 1,024 counters (about
 * ten times k, their documented advice for a reliable top k): DataSketches' {@code FrequentLongsSketch(1024)}
 * (Misra-Gries with a purge, {@code update(key)}) and stream-lib's {@code StreamSummary(1024)}
 * (Space-Saving over boxed {@code Long}s, {@code offer(key)}, which allocates). mapsketch hashes every key
 * (XXH3), updates five counters and compares the estimate with the smallest candidate's; its state
 * lives in a mapped file and can be shared by processes, which the peers' heap objects cannot.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx4g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class TopKBenchmark {

    /** Keys per benchmark call. */
    static final int BATCH = 1024;
    /** Heavy hitters kept. */
    static final int K = 100;
    /** Counters of the peers' maps. */
    static final int PEER_COUNTERS = 1024;

    /** Implementation: {@code mapsketch}, {@code mapsketch-shared}, {@code datasketches} or {@code streamlib}. */
    @Param({"mapsketch", "mapsketch-shared", "datasketches", "streamlib"})
    public String impl;

    /** Keys in the stream, a power of two. */
    @Param({"16777216"})
    public int items;

    private HeavyHitters sketch;
    private KeyChunks chunks;

    /** Creates the state; JMH calls this once per fork. */
    public TopKBenchmark() {}

    /**
     * Creates the sketch and the stream, adds the stream once and reports the top 100's recall.
     *
     * @throws IOException if mapsketch's file cannot be created
     */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        long[] stream = frequencyStream(items);
        sketch = switch (impl) {
            case "mapsketch" -> Mapsketch.create(OpenMode.EXCLUSIVE);
            case "mapsketch-shared" -> Mapsketch.create(OpenMode.SHARED);
            case "datasketches" -> new DataSketches();
            case "streamlib" -> new StreamLib();
            default -> throw new IllegalArgumentException("unknown impl " + impl);
        };
        for (long key : stream) {
            sketch.add(key);
        }
        long[] exact = exactTop(stream);
        long[] listed = sketch.top();
        long found = Arrays.stream(exact)
                .filter(key -> Arrays.stream(listed).anyMatch(l -> l == key))
                .count();
        System.out.printf(
                "%ntopk impl=%s items=%d recall-of-exact-top-%d=%d state=%s%n", impl, items, K, found, sketch.state());
        chunks = new KeyChunks(stream, BATCH);
    }

    /**
     * Frees the sketch (and deletes mapsketch's file).
     *
     * @throws IOException if the file cannot be deleted
     */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        sketch.close();
    }

    /**
     * Adds the next {@value #BATCH} keys of the stream one at a time.
     *
     * @return the sketch, so the work is not dead
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object add() {
        long[] batch = chunks.next();
        HeavyHitters target = sketch;
        for (int i = 0; i < BATCH; i++) {
            target.add(batch[i]);
        }
        return target;
    }

    private static long[] exactTop(long[] stream) {
        Map<Long, Long> counts = new HashMap<>();
        for (long key : stream) {
            counts.merge(key, 1L, Long::sum);
        }
        return counts.entrySet().stream()
                .sorted(Map.Entry.<Long, Long>comparingByValue(Comparator.reverseOrder())
                        .thenComparing(Map.Entry.comparingByKey()))
                .limit(K)
                .mapToLong(Map.Entry::getKey)
                .toArray();
    }

    /** The operations the benchmark needs, over each library's own API. */
    private interface HeavyHitters {

        void add(long key);

        /** The keys of the top {@value #K}, largest first. */
        long[] top();

        /** The size of the state, as far as the library tells it. */
        String state();

        default void close() throws IOException {}
    }

    private static final class Mapsketch implements HeavyHitters {

        private final TopK sketch;
        private final Path directory;

        private Mapsketch(TopK sketch, Path directory) {
            this.sketch = sketch;
            this.directory = directory;
        }

        static Mapsketch create(OpenMode mode) throws IOException {
            Path directory = Files.createTempDirectory("topk-benchmark");
            TopK sketch = TopK.builder()
                    .k(K)
                    .epsilon(0.001)
                    .delta(COUNT_MIN_DELTA)
                    .seed(SKETCH_SEED)
                    .create(directory.resolve("sketch.topk"), mode);
            return new Mapsketch(sketch, directory);
        }

        @Override
        public void add(long key) {
            sketch.add(key);
        }

        @Override
        public long[] top() {
            return sketch.top(K).stream().mapToLong(HeavyHitter::keyAsLong).toArray();
        }

        @Override
        public String state() {
            return sketch.memoryBytes() + "-mapped-bytes";
        }

        @Override
        public void close() throws IOException {
            Path file = sketch.file().orElseThrow();
            try {
                sketch.close();
            } finally {
                Files.deleteIfExists(file);
                Files.deleteIfExists(directory);
            }
        }
    }

    private static final class DataSketches implements HeavyHitters {

        private final FrequentLongsSketch sketch = new FrequentLongsSketch(PEER_COUNTERS);

        @Override
        public void add(long key) {
            sketch.update(key);
        }

        @Override
        public long[] top() {
            FrequentLongsSketch.Row[] rows = sketch.getFrequentItems(ErrorType.NO_FALSE_NEGATIVES);
            return Arrays.stream(rows)
                    .limit(K)
                    .mapToLong(FrequentLongsSketch.Row::getItem)
                    .toArray();
        }

        @Override
        public String state() {
            return sketch.getStorageBytes() + "-serialized-bytes";
        }
    }

    private static final class StreamLib implements HeavyHitters {

        private final StreamSummary<Long> summary = new StreamSummary<>(PEER_COUNTERS);

        @Override
        public void add(long key) {
            summary.offer(key);
        }

        @Override
        public long[] top() {
            List<Counter<Long>> top = summary.topK(K);
            return top.stream().mapToLong(Counter::getItem).toArray();
        }

        @Override
        public String state() {
            return PEER_COUNTERS + "-counters-of-heap-objects";
        }
    }
}
