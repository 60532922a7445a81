package io.mapsketch.jmh;

import static io.mapsketch.jmh.BenchmarkSettings.COUNT_MIN_DELTA;
import static io.mapsketch.jmh.BenchmarkSettings.FREQUENCY_STREAM_KEYS;
import static io.mapsketch.jmh.BenchmarkSettings.SKETCH_SEED;
import static io.mapsketch.jmh.BenchmarkSettings.frequencyStream;

import io.mapsketch.OpenMode;
import io.mapsketch.frequency.CountMinSizing;
import io.mapsketch.kernels.HashKernels;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
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
 * The floor of a Count-Min sketch's single-key {@code add} and {@code estimate} on this machine: the
 * arithmetic and memory traffic that mapsketch's file format prescribes for one {@code long} key,
 * written as one bare loop with no sketch around it (no object layers, no mode, closed or room checks,
 * no Top-K hook), so that {@link CountMinBenchmark}'s scores, run in the same JMH invocation, can be
 * read against what any implementation of that format must spend. It answers one question: how close
 * to the format's own cost is mapsketch, and could any implementation of it reach a given multiple of
 * the peers?
 *
 * <p><b>The work per key</b> is the format's: XXH3-64 of the key's eight little-endian bytes with the
 * sketch seed, then per row {@code x += G} and
 * {@code offset = row * stride + multiplyHigh(mix(x), width) * 4}, with {@code x} starting at the hash
 * (the rows of format version 4: SplitMix64 seeded with the hash, G its increment and mix its output
 * function); an add does a saturating 32-bit add of 1 and a store, an estimate a load and an unsigned
 * minimum. The counters are
 * a mapped file of the same shape as {@link CountMinBenchmark}'s sketch at the same {@link #size}
 * (delta 0.01, 5 rows, rows padded to 64 bytes), and the keys the same Zipf stream and estimate probes,
 * walked the same way.
 *
 * <ul>
 *   <li>{@link #add}: the work above with the depth read from a field (a sketch learns its depth when
 *       it opens a file), plus the two plain header stores an {@code EXCLUSIVE} writer makes per add
 *       (items and total weight, from copies kept in fields). The floor of mapsketch's {@code add}.
 *   <li>{@link #addFixedDepth}: the row loop with the depth the compile-time constant 5 and no header
 *       stores, so that the JIT unrolls the rows completely: a floor below any sketch whose depth is a
 *       parameter.
 *   <li>{@link #estimate}, {@link #estimateFixedDepth}: the same two forms of the estimate, each answer
 *       stored (no branch on it).
 * </ul>
 *
 * <p>None of these is a sketch (the adds count nothing a reader could use, the estimates trust every
 * offset); they exist to be measured, never called.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx4g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class CountMinFloorBenchmark {

    private static final int BATCH = CountMinBenchmark.BATCH;
    private static final int FIXED_DEPTH = 5;
    private static final int CHECK_EVERY = 97;
    private static final long MAX_32 = 0xFFFF_FFFFL;
    private static final long GAMMA = 0x9E37_79B9_7F4A_7C15L;
    private static final long HEADER_BYTES = 4096;
    private static final long ITEMS_OFFSET = 64;
    private static final long WEIGHT_OFFSET = 72;
    private static final ValueLayout.OfInt COUNTER = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong HEADER_COUNTER = ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);

    /**
     * Bytes of the counter matrix, as {@link CountMinBenchmark#size}: {@value CountMinBenchmark#SMALL}
     * or {@value CountMinBenchmark#LARGE}.
     */
    @Param({"54400", "67118080"})
    public long size;

    private Path directory;
    private Arena arena;
    private MemorySegment header;
    private MemorySegment counters;
    private long seedConstant;
    private long width;
    private long stride;
    private int depth;
    private long items;
    private long weight;
    private KeyChunks keys;
    private final long[] estimates = new long[BATCH];

    /** Creates the state; JMH calls this once per fork. */
    public CountMinFloorBenchmark() {}

    /**
     * Maps the counter file, adds the whole stream and checks the estimates against mapsketch's; then
     * walks the probes for the estimates, or zeroes the counters and walks the stream for the adds.
     *
     * @param params tells which benchmark method runs in this fork
     * @throws IOException if the file cannot be created or mapped
     */
    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) throws IOException {
        double epsilon = CountMinBenchmark.epsilon(size);
        width = CountMinSizing.width(epsilon);
        depth = CountMinSizing.depth(COUNT_MIN_DELTA);
        if (depth != FIXED_DEPTH) {
            throw new IllegalStateException("depth = " + depth + ", the fixed-depth loops assume " + FIXED_DEPTH);
        }
        stride = Math.ceilDiv(width * Integer.BYTES, 64) * 64;
        seedConstant = HashKernels.xxh3SeedConstant(SKETCH_SEED);
        directory = Files.createTempDirectory("mapsketch-floor");
        arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(
                directory.resolve("floor"),
                StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            MemorySegment file = channel.map(FileChannel.MapMode.READ_WRITE, 0, HEADER_BYTES + stride * depth, arena);
            header = file.asSlice(0, HEADER_BYTES);
            counters = file.asSlice(HEADER_BYTES);
        }
        long[] stream = frequencyStream(FREQUENCY_STREAM_KEYS);
        for (long key : stream) {
            addKey(key);
        }
        SplittableRandom random = new SplittableRandom(CountMinBenchmark.PROBE_SEED);
        long[] probes = CountMinBenchmark.probes(stream, random);
        requireSameEstimatesAsMapsketch(epsilon, stream, probes);
        if (!params.getBenchmark().contains(".estimate")) {
            counters.fill((byte) 0);
            items = 0;
            weight = 0;
            keys = new KeyChunks(stream, BATCH);
            return;
        }
        KeyStreams.shuffle(probes, random);
        keys = new KeyChunks(probes, BATCH);
    }

    /**
     * Checks that these loops do the format's work: after the whole stream, every probe of a sample
     * (present and absent keys) has the estimate mapsketch's own sketch of the stream gives.
     */
    private void requireSameEstimatesAsMapsketch(double epsilon, long[] stream, long[] probes) throws IOException {
        CountMinImplementations.Mapsketch reference =
                CountMinImplementations.Mapsketch.create(epsilon, OpenMode.EXCLUSIVE, false, Optional.empty());
        try {
            reference.addAll(stream);
            for (int i = 0; i < probes.length; i += CHECK_EVERY) {
                long expected = reference.estimate(probes[i]);
                long floor = estimateKey(probes[i]);
                if (floor != expected) {
                    throw new IllegalStateException("the floor estimates key " + probes[i] + " at " + floor
                            + ", mapsketch at " + expected + ": the loops no longer do the format's work");
                }
            }
        } finally {
            reference.close();
        }
    }

    /**
     * Unmaps the file and deletes it.
     *
     * @throws IOException if the file cannot be deleted
     */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        arena.close();
        Files.delete(directory.resolve("floor"));
        Files.delete(directory);
    }

    /**
     * Adds the next {@value CountMinBenchmark#BATCH} keys, depth from a field, header counters stored.
     *
     * @return the items count, so the work is not dead
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long add() {
        long[] batch = keys.next();
        for (int i = 0; i < BATCH; i++) {
            addKey(batch[i]);
        }
        return items;
    }

    /**
     * Adds the next {@value CountMinBenchmark#BATCH} keys, depth the constant 5, no header stores.
     *
     * @return the counters, so the work is not dead
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public MemorySegment addFixedDepth() {
        long[] batch = keys.next();
        MemorySegment matrix = counters;
        for (int i = 0; i < BATCH; i++) {
            long x = HashKernels.xxh3WithSeedConstant(seedConstant, batch[i]);
            for (int row = 0; row < FIXED_DEPTH; row++) {
                x += GAMMA;
                long offset = row * stride + Math.unsignedMultiplyHigh(mix(x), width) * Integer.BYTES;
                long value = Integer.toUnsignedLong(matrix.get(COUNTER, offset));
                matrix.set(COUNTER, offset, (int) Math.min(value + 1, MAX_32));
            }
        }
        return matrix;
    }

    /**
     * Estimates the next {@value CountMinBenchmark#BATCH} probes, depth from a field.
     *
     * @return the answers
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long[] estimate() {
        long[] batch = keys.next();
        long[] answers = estimates;
        for (int i = 0; i < BATCH; i++) {
            answers[i] = estimateKey(batch[i]);
        }
        return answers;
    }

    /**
     * Estimates the next {@value CountMinBenchmark#BATCH} probes, depth the constant 5.
     *
     * @return the answers
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long[] estimateFixedDepth() {
        long[] batch = keys.next();
        long[] answers = estimates;
        MemorySegment matrix = counters;
        for (int i = 0; i < BATCH; i++) {
            long x = HashKernels.xxh3WithSeedConstant(seedConstant, batch[i]);
            long min = MAX_32;
            for (int row = 0; row < FIXED_DEPTH; row++) {
                x += GAMMA;
                long offset = row * stride + Math.unsignedMultiplyHigh(mix(x), width) * Integer.BYTES;
                min = Math.min(min, Integer.toUnsignedLong(matrix.get(COUNTER, offset)));
            }
            answers[i] = min;
        }
        return answers;
    }

    private void addKey(long key) {
        MemorySegment matrix = counters;
        long x = HashKernels.xxh3WithSeedConstant(seedConstant, key);
        for (int row = 0; row < depth; row++) {
            x += GAMMA;
            long offset = row * stride + Math.unsignedMultiplyHigh(mix(x), width) * Integer.BYTES;
            long value = Integer.toUnsignedLong(matrix.get(COUNTER, offset));
            matrix.set(COUNTER, offset, (int) Math.min(value + 1, MAX_32));
        }
        items++;
        weight++;
        header.set(HEADER_COUNTER, ITEMS_OFFSET, items);
        header.set(HEADER_COUNTER, WEIGHT_OFFSET, weight);
    }

    private long estimateKey(long key) {
        MemorySegment matrix = counters;
        long x = HashKernels.xxh3WithSeedConstant(seedConstant, key);
        long min = MAX_32;
        for (int row = 0; row < depth; row++) {
            x += GAMMA;
            long offset = row * stride + Math.unsignedMultiplyHigh(mix(x), width) * Integer.BYTES;
            min = Math.min(min, Integer.toUnsignedLong(matrix.get(COUNTER, offset)));
        }
        return min;
    }

    /** SplitMix64's output function, the format's per-row mix: the same arithmetic as the engine's. */
    private static long mix(long x) {
        long z = (x ^ x >>> 30) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ z >>> 27) * 0x94D0_49BB_1331_11EBL;
        return z ^ z >>> 31;
    }
}
