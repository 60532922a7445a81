package io.mapsketch.jmh;

import io.mapsketch.jmh.HyperLogLogImplementations.Sketch;
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
 * HyperLogLog at precision 12 and 14: mapsketch's {@code HyperLogLog} (in {@code EXCLUSIVE} and
 * {@code SHARED} mode) against DataSketches' {@code HllSketch} ({@code HLL_8} and {@code HLL_4}, merged
 * through {@code HllUnion}) and hash4j's {@code HyperLogLog} and {@code UltraLogLog}. Scores are
 * operations per second: keys for the adds, estimates for {@link #estimate}, merges of a whole sketch
 * for {@link #merge}.
 *
 * <p><b>Keys.</b> Key {@code i} is the {@code i}-th output of a SplitMix64 generator with a fixed
 * seed ({@link KeyStreams#key}): a bijection of {@code i}, so different indices give different
 * keys. Every implementation is handed the raw {@code long} key and the score includes hashing it:
 * mapsketch and DataSketches hash inside {@code add} / {@code update(long)} (XXH3 and MurmurHash3);
 * hash4j's sketches take a 64-bit hash, so the benchmark hashes each key with
 * {@code Hashing.xxh3_64().hashLongToLong(key)} before {@code add}, as a user of hash4j would.
 *
 * <p><b>Adds.</b> {@link #add} and {@link #addAll} walk, with a cursor, 2^20 distinct keys
 * precomputed in {@value #BATCH}-key arrays (8 MiB, read sequentially), one array per call. The sketch
 * is created empty for the trial and lives across iterations; the keys repeat after 2^20 adds, by
 * which time every implementation is in its dense mode and an add almost never raises a register
 * (with fresh keys too, once a sketch has seen a few times m keys), so the score is the steady-state
 * cost of an add: hash, pick a register, compare. {@link #add} adds the keys one at a time;
 * {@link #addAll} hands the array to mapsketch's batch {@code addAll(long[])} (SIMD hashing, then a
 * scalar register loop). The peers have no batch add of {@code long} keys (DataSketches'
 * {@code update(long[])} counts the array as one key), so for them {@code addAll} is the same loop as
 * {@code add}.
 *
 * <p><b>Estimates.</b> {@link #estimate} asks a sketch filled in the setup with 2^20 distinct keys.
 * mapsketch keeps the estimator's inputs in its header's summary line, updated by every raise, and
 * caches its last estimate under the line's change guard: a repeated estimate of an unchanged sketch,
 * as here, loads the guard and returns the cached value (the {@code EXCLUSIVE} writer loads its own
 * copy of the guard, a {@code SHARED} sketch the file's; an estimate after a change reads the line's
 * numbers and runs Ertl's improved estimator; without a trusted line it summarises the registers in
 * one pass). hash4j computes the estimate from the registers on every call. DataSketches keeps a
 * running (HIP) estimate that every add updates, so its {@code getEstimate()} reads a few fields:
 * that is the comparison the target asks for. The setup prints each filled sketch's estimate as a
 * line starting with {@code hll-estimate}.
 *
 * <p><b>Merges.</b> The setup fills two sketches of the same precision with 2^20 different keys each
 * (indices from 0 and from 2^40), then merges the source into the target once. Each {@link #merge}
 * call merges the source into that same target again. Register maximum is idempotent, so every call
 * does the full work of a merge, a pass over both register arrays, without a copy or an allocation
 * in the timed code; the library's own merge runs, no reset is needed, and all implementations start
 * from the same state. mapsketch: {@code target.merge(source)} (the SIMD register-max kernel in
 * {@code EXCLUSIVE} mode, a scalar pass with a compare-and-set only where a register grows in
 * {@code SHARED} mode). DataSketches: an {@code HllUnion} of the target's precision that was updated
 * with the target sketch in the setup, then {@code union.update(source)} (the union's gadget is
 * {@code HLL_8}; an {@code HLL_4} source is merged register by register from its 4-bit form).
 * hash4j: {@code target.add(source)}. Since after the first merge no register changes, a peer's
 * per-register loop never takes its "raise" branch and its branches are perfectly predicted: a first
 * merge of two different sketches is no faster, so the ratios are, if anything, in the peers' favour.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
public class HyperLogLogBenchmark {

    /** Keys per add call. */
    static final int BATCH = 1024;

    private static final int KEY_BATCHES = 1024;
    private static final int FILL_KEYS = 1 << 20;
    private static final long SOURCE_FIRST_INDEX = 1L << 40;

    /**
     * Implementation: {@code mapsketch}, {@code mapsketch-shared}, {@code datasketches-hll8},
     * {@code datasketches-hll4}, {@code hash4j-hll} or {@code hash4j-ull}.
     */
    @Param({"mapsketch", "mapsketch-shared", "datasketches-hll8", "datasketches-hll4", "hash4j-hll", "hash4j-ull"})
    public String impl;

    /** Precision p: 2^p registers. */
    @Param({"12", "14"})
    public int precision;

    private Sketch sketch;
    private Sketch source;
    private KeyChunks keys;

    /** Creates the state; JMH calls this once per fork. */
    public HyperLogLogBenchmark() {}

    /**
     * Creates the sketch; for the adds, precomputes the keys; for estimates and merges, fills the
     * sketches.
     *
     * @param params tells which benchmark method runs in this fork
     */
    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        sketch = newSketch();
        String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
        if (method.startsWith("add")) {
            long[] stream = new long[KEY_BATCHES * BATCH];
            for (int i = 0; i < stream.length; i++) {
                stream[i] = KeyStreams.key(i);
            }
            keys = new KeyChunks(stream, BATCH);
            return;
        }
        fill(sketch, 0);
        System.out.printf(
                "%nhll-estimate impl=%s precision=%d keys=%d estimate=%.0f%n",
                impl, precision, FILL_KEYS, sketch.estimate());
        if (method.equals("merge")) {
            source = newSketch();
            fill(source, SOURCE_FIRST_INDEX);
            sketch.merge(source);
            System.out.printf(
                    "%nhll-merged impl=%s precision=%d keys=%d estimate=%.0f%n",
                    impl, precision, 2 * FILL_KEYS, sketch.mergedEstimate());
        }
    }

    /** Frees the sketches. */
    @TearDown(Level.Trial)
    public void tearDown() {
        sketch.close();
        if (source != null) {
            source.close();
        }
    }

    private static void fill(Sketch target, long firstIndex) {
        long[] chunk = new long[BATCH];
        for (long from = 0; from < FILL_KEYS; from += BATCH) {
            for (int i = 0; i < BATCH; i++) {
                chunk[i] = KeyStreams.key(firstIndex + from + i);
            }
            target.addAll(chunk);
        }
    }

    /**
     * Adds the next {@value #BATCH} keys one at a time.
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
     * Adds the next {@value #BATCH} keys as one batch (a loop for the peers).
     *
     * @return the sketch, so the work is not dead
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object addAll() {
        sketch.addAll(keys.next());
        return sketch;
    }

    /**
     * Estimates the distinct count of a sketch that holds 2^20 keys.
     *
     * @return the estimate
     */
    @Benchmark
    public double estimate() {
        return sketch.estimate();
    }

    /**
     * Merges the source sketch into the target sketch (by register maximum, again: see the class
     * comment).
     *
     * @return the target, so the work is not dead
     */
    @Benchmark
    public Object merge() {
        sketch.merge(source);
        return sketch;
    }

    private Sketch newSketch() {
        return HyperLogLogImplementations.create(impl, precision, SketchPlacement.ANONYMOUS);
    }
}
