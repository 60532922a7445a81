package io.mapsketch.jmh;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
 * The memory's own floors under {@link BloomSweepBenchmark} and {@link CountMinSweepBenchmark}, in
 * the same run, at the same sizes: random 8-byte loads from an off-heap buffer of {@link #size} bytes
 * ({@code Arena.ofShared()}, zeroed, so every page is touched before the measurement). Scores are
 * loads per second.
 *
 * <ul>
 *   <li>{@link #dependentLoad}: a pointer chase. Each 64-byte line of the buffer holds, in its first
 *       8 bytes, the offset of the next line of one random cycle through all lines (Sattolo's
 *       algorithm, seeded), so each load waits for the one before and no prefetcher can guess the
 *       next line: the latency of one access, from L1 at 64 KiB to DRAM (with its TLB miss, on 4 KiB
 *       pages) once the buffer is far larger than the L3 cache.
 *   <li>{@link #independentLoad}: loads whose addresses do not depend on loaded data (the top bits of
 *       a 64-bit LCG, one multiply and add per load), summed: the cost of a random access when the
 *       core overlaps as many misses as it can, the floor of any structure that touches one random
 *       word per key and does not branch on it.
 * </ul>
 *
 * <p>Setup: the chase's cycle takes one random swap per line, two cache misses each once the buffer
 * is out of cache, so its time grows with the size; the independent loads need none.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {
            "--add-modules=jdk.incubator.vector",
            "--enable-native-access=ALL-UNNAMED",
            "-Xmx1g",
            "-XX:MaxDirectMemorySize=9g"
        })
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
public class MemoryFloorBenchmark {

    /** Loads per benchmark call. */
    static final int BATCH = 1024;

    private static final int LINE = 64;
    private static final long CYCLE_SEED = 0x0C7C_1E5EEDL;
    private static final long LCG_MULTIPLIER = 0xD134_2543_DE82_EF95L;

    /** Bytes of the buffer, a power of two of at least 64 KiB. */
    @Param({"65536", "524288", "4194304", "33554432", "268435456", "2147483648", "8589934592"})
    public long size;

    private Arena arena;
    private MemorySegment buffer;
    private long position;
    private long state = 1;
    private int shift;

    /** Creates the state; JMH calls this once per fork. */
    public MemoryFloorBenchmark() {}

    /**
     * Allocates the buffer; for the chase, links its lines into one random cycle.
     *
     * @param params tells which benchmark method runs in this fork
     * @throws IllegalArgumentException if {@link #size} is not a power of two of at least 64 KiB
     */
    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        if (Long.bitCount(size) != 1 || size < 1 << 16) {
            throw new IllegalArgumentException("size = " + size + ", must be a power of two >= 65536");
        }
        arena = Arena.ofShared();
        buffer = arena.allocate(size, LINE);
        shift = Long.numberOfLeadingZeros(size / Long.BYTES) + 1;
        if (params.getBenchmark().endsWith(".dependentLoad")) {
            linkOneCycle();
        }
    }

    /** Sattolo's algorithm over the lines: line {@code i} points to line {@code next[i]}, one cycle. */
    private void linkOneCycle() {
        long lines = size / LINE;
        for (long i = 0; i < lines; i++) {
            buffer.set(ValueLayout.JAVA_LONG, i * LINE, i * LINE);
        }
        SplittableRandom random = new SplittableRandom(CYCLE_SEED);
        for (long i = lines - 1; i > 0; i--) {
            long j = random.nextLong(i);
            long swap = buffer.get(ValueLayout.JAVA_LONG, i * LINE);
            buffer.set(ValueLayout.JAVA_LONG, i * LINE, buffer.get(ValueLayout.JAVA_LONG, j * LINE));
            buffer.set(ValueLayout.JAVA_LONG, j * LINE, swap);
        }
    }

    /** Frees the buffer. */
    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    /**
     * Follows the cycle for {@value #BATCH} loads.
     *
     * @return the position reached, so the work is not dead
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long dependentLoad() {
        MemorySegment memory = buffer;
        long p = position;
        for (int i = 0; i < BATCH; i++) {
            p = memory.get(ValueLayout.JAVA_LONG, p);
        }
        position = p;
        return p;
    }

    /**
     * Sums {@value #BATCH} words at random offsets that no load depends on.
     *
     * @return the sum, so the work is not dead
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long independentLoad() {
        MemorySegment memory = buffer;
        long x = state;
        long sum = 0;
        for (int i = 0; i < BATCH; i++) {
            x = x * LCG_MULTIPLIER + 1;
            sum += memory.get(ValueLayout.JAVA_LONG, (x >>> shift) * Long.BYTES);
        }
        state = x;
        return sum;
    }
}
