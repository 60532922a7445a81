package io.mapsketch.jmh;

import static io.mapsketch.jmh.BenchmarkSettings.FREQUENCY_STREAM_KEYS;
import static io.mapsketch.jmh.BenchmarkSettings.frequencyStream;

import io.mapsketch.frequency.CountMinSizing;
import io.mapsketch.jmh.CountMinImplementations.Sketch;
import java.io.IOException;
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
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Count-Min sketches at delta 0.01 (5 rows), one in cache and one of 64 MiB: mapsketch's
 * {@code CountMinSketch} with 32-bit counters (in {@code EXCLUSIVE} and {@code SHARED} mode, and with
 * conservative update) against DataSketches', stream-lib's and Spark's {@code CountMinSketch}, with the
 * same width and depth. Scores are keys per second.
 *
 * <p><b>Sizes.</b> {@link #size} is the byte size of mapsketch's counter matrix (5 rows of 32-bit
 * counters, each row padded to 64 bytes), the header excluded: {@value #SMALL} bytes for epsilon
 * {@value #SMALL_EPSILON} (2,719 x 5 counters, in L1/L2) and {@value #LARGE} bytes (64.0 MiB) for
 * epsilon {@value #LARGE_EPSILON} (3,355,904 x 5 counters, twice the L3 cache).
 *
 * <p><b>Keys.</b> A stream of 2^24 keys (128 MiB) whose ranks follow Zipf's law with exponent
 * {@value BenchmarkSettings#ZIPF_EXPONENT} over 2^24 ranks ({@link BenchmarkSettings#frequencyStream}, fixed seed), the frequency question's
 * stream: the most frequent key is 5.8% of it, the 1,000 most frequent 43%, about 3.2 million distinct
 * keys occur, and 30% of the draws are keys expected fewer than 10 times. It is held in
 * {@value #BATCH}-key arrays walked with a cursor, one array per call, so the keys repeat only after
 * 2^24 adds and, in the 64 MiB sketch, the counters of the long tail are cold.
 *
 * <p><b>Adds.</b> {@link #add} adds the next {@value #BATCH} keys one at a time ({@code add(key)}, a
 * count of 1); {@link #addBatch} hands the array to mapsketch's {@code addAll(long[])} (SIMD hashing,
 * then the counter loop). The peers have no batch add, so their {@code addBatch} is the loop of
 * {@code add}. The sketch is created empty for the trial and lives across iterations (the heaviest
 * key, 5.8% of the adds, gains a few times 10^7 in a run, far below a 32-bit counter's 2^32 - 1).
 *
 * <p><b>Estimates.</b> The setup adds the whole stream, then builds 2^24 probes (128 MiB, shuffled,
 * walked as the adds are): half drawn at random positions of the stream (present keys, asked as
 * often as they occur), half keys never added. {@link #estimate} asks {@value #BATCH} probes per
 * call and stores the answers (no branch on an answer). The setup checks that every present probe
 * is estimated at least 1 and prints, per implementation, its shape, the bytes of its counters and the
 * mean estimate of the absent probes (their overestimate), as a line starting with {@code countmin}.
 * {@link #estimateBatch} hands the same probes to mapsketch's {@code estimateAll(long[], long[])}
 * (SIMD hashing, then the counter loads); for the peers it is the loop of {@link #estimate}.
 *
 * <p><b>mapsketch.</b> {@code CountMinSketch.builder().epsilon(e).delta(0.01).counterBits(32)}, created
 * in a file of a new temporary directory ({@code create(file, mode)}, as a user of the mapped product
 * would), deleted after the trial: {@code mapsketch} ({@code EXCLUSIVE}: plain loads and stores),
 * {@code mapsketch-shared} ({@code SHARED}: a compare-and-set per row) and
 * {@code mapsketch-conservative} ({@code EXCLUSIVE}, conservative update: the key's counters are read
 * first, then only those below the new estimate are raised). The keys are hashed with XXH3 inside
 * {@code add} and {@code estimate}; the rows' counters follow by double hashing. Outside the default
 * runs, {@code -p impl=mapsketch-conservative-shared} times conservative update in {@code SHARED} mode
 * (the optimistic read-then-compare-and-set pass of each row).
 *
 * <p><b>Peers, and where they differ.</b> No peer can be configured identically; all have the same
 * width and depth here, and all count in 64-bit counters on the heap, so their state is twice
 * mapsketch's bytes. DataSketches 9.1.0: width {@code suggestNumBuckets(epsilon)} and depth
 * {@code suggestNumHashes(1 - delta)} (the same formulas as mapsketch's, so the same shape), but its
 * only constructor that takes them, {@code (numHashes, numBuckets, seed)}, is package-private (its
 * public API only deserializes), so the benchmark calls it by reflection; {@code update(key, 1)} and
 * {@code getEstimate(key)} copy the key into a new 8-byte array and hash it with MurmurHash3 once per
 * row (d hashes). stream-lib 2.9.8: {@code CountMinSketch(depth, width, seed)} with mapsketch's width
 * and depth ({@link CountMinSizing}); its {@code (epsOfTotalCount, confidence, seed)} constructor would
 * size differently ({@code ceil(2 / eps)} x {@code ceil(log2(1 / (1 - confidence)))}, 2,000 x 7
 * here). It does not hash the key: row {@code i} takes {@code (a_i * key)} folded to 31 bits modulo
 * the width, a multiply per row; {@code add(key, 1)} also builds an overflow-check message string on
 * every call (its code, not the benchmark's), and {@code estimateCount(key)} reads the d counters. Spark
 * ({@code spark-sketch} 4.2.0): {@code CountMinSketch.create(depth, width, seed)} with mapsketch's width
 * and depth; its {@code create(eps, confidence, seed)} would size as stream-lib's constructor does
 * ({@code ceil(2 / eps)} x {@code ceil(-ln(1 - confidence) / ln 2)}). Its sketch is stream-lib's: the
 * same row function of the unhashed key and the same row multipliers (drawn by
 * {@code java.util.Random(seed)}), so with the same seed its counters equal stream-lib's, key for key.
 * {@code addLong(key)} adds 1 to the d counters (no message string, and no overflow check) and to a
 * total count. Its only estimate is {@code estimateCount(Object)}: the key is boxed to a {@code Long}
 * ({@code Long.valueOf}) and tested against {@code String} and {@code byte[]} before its d counters are
 * read (here the JIT removes the box: JMH's {@code gc} profiler sees no allocation per estimate).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx4g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class CountMinBenchmark {

    /** Keys per benchmark call. */
    static final int BATCH = 1024;
    /** The in-cache size: bytes of mapsketch's counters at epsilon {@value #SMALL_EPSILON}. */
    static final long SMALL = 54_400;
    /** The out-of-cache size: bytes of mapsketch's counters at epsilon {@value #LARGE_EPSILON}. */
    static final long LARGE = 67_118_080;
    /** Epsilon of the in-cache sketch. */
    static final double SMALL_EPSILON = 0.001;
    /** Epsilon of the 64 MiB sketch. */
    static final double LARGE_EPSILON = 8.1e-7;
    /** Keys in the stream, and its Zipf ranks. */
    private static final int STREAM_KEYS = FREQUENCY_STREAM_KEYS;
    /** Seed of the estimate probes' draws and shuffle. */
    static final long PROBE_SEED = 20_261_130L;

    private static final long ABSENT_FIRST_INDEX = 1L << 40;

    /**
     * Implementation: {@code mapsketch}, {@code mapsketch-shared}, {@code mapsketch-conservative},
     * {@code datasketches}, {@code streamlib} or {@code spark}.
     */
    @Param({"mapsketch", "mapsketch-shared", "mapsketch-conservative", "datasketches", "streamlib", "spark"})
    public String impl;

    /**
     * Bytes of mapsketch's 32-bit counter matrix, header excluded: {@value #SMALL} (epsilon
     * {@value #SMALL_EPSILON}) or {@value #LARGE} (epsilon {@value #LARGE_EPSILON}); delta is 0.01.
     */
    @Param({"54400", "67118080"})
    public long size;

    private Sketch sketch;
    private KeyChunks keys;
    private final long[] estimates = new long[BATCH];

    /** Creates the state; JMH calls this once per fork. */
    public CountMinBenchmark() {}

    /**
     * Creates the sketch and the key stream; for the estimates, adds the stream and builds the probes.
     *
     * @param params tells which benchmark method runs in this fork
     * @throws IOException if mapsketch's file cannot be created
     */
    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) throws IOException {
        double epsilon = epsilon(size);
        sketch = CountMinImplementations.create(impl, epsilon);
        long[] stream = frequencyStream(STREAM_KEYS);
        String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
        if (!method.startsWith("estimate")) {
            keys = new KeyChunks(stream, BATCH);
            return;
        }
        long[] batch = new long[BATCH];
        for (int from = 0; from < STREAM_KEYS; from += BATCH) {
            System.arraycopy(stream, from, batch, 0, BATCH);
            sketch.addAll(batch);
        }
        SplittableRandom random = new SplittableRandom(PROBE_SEED);
        long[] probes = probes(stream, random);
        double absentSum = 0;
        for (int i = 0; i < STREAM_KEYS / 2; i++) {
            if (sketch.estimate(probes[i]) < 1) {
                throw new IllegalStateException(impl + " estimates an added key " + probes[i] + " below 1");
            }
            absentSum += sketch.estimate(probes[STREAM_KEYS / 2 + i]);
        }
        System.out.printf(
                "%ncountmin impl=%s size=%d epsilon=%s shape=%s counter-bytes=%d absent-mean=%.2f%n",
                impl, size, epsilon, sketch.shape(), sketch.counterBytes(), absentSum / (STREAM_KEYS / 2));
        KeyStreams.shuffle(probes, random);
        keys = new KeyChunks(probes, BATCH);
    }

    /**
     * The estimate probes, before shuffling: the first half drawn at random positions of the stream
     * (present keys, as often as they occur), the second half keys never added.
     */
    static long[] probes(long[] stream, SplittableRandom random) {
        long[] probes = new long[stream.length];
        int half = stream.length / 2;
        for (int i = 0; i < half; i++) {
            probes[i] = stream[random.nextInt(stream.length)];
            probes[half + i] = KeyStreams.key(ABSENT_FIRST_INDEX + i);
        }
        return probes;
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
        long[] batch = keys.next();
        Sketch target = sketch;
        for (int i = 0; i < BATCH; i++) {
            target.add(batch[i]);
        }
        return target;
    }

    /**
     * Adds the next {@value #BATCH} keys of the stream as one batch (a loop for the peers).
     *
     * @return the sketch, so the work is not dead
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object addBatch() {
        sketch.addAll(keys.next());
        return sketch;
    }

    /**
     * Estimates the next {@value #BATCH} probes, half present and half absent keys.
     *
     * @return the estimates
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long[] estimate() {
        long[] batch = keys.next();
        long[] answers = estimates;
        Sketch source = sketch;
        for (int i = 0; i < BATCH; i++) {
            answers[i] = source.estimate(batch[i]);
        }
        return answers;
    }

    /**
     * Estimates the next {@value #BATCH} probes as one batch (a loop for the peers).
     *
     * @return the estimates
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long[] estimateBatch() {
        sketch.estimateAll(keys.next(), estimates);
        return estimates;
    }

    /** The epsilon whose sketch has {@code size} bytes of 32-bit counters: one of the two sizes. */
    static double epsilon(long size) {
        if (size == SMALL) {
            return SMALL_EPSILON;
        }
        if (size == LARGE) {
            return LARGE_EPSILON;
        }
        throw new IllegalArgumentException("size " + size + " is neither " + SMALL + " nor " + LARGE);
    }
}
