package io.mapsketch.jmh;

import io.mapsketch.kernels.BitSetKernels;
import io.mapsketch.kernels.CounterKernels;
import io.mapsketch.kernels.KernelImplementation;
import io.mapsketch.kernels.Kernels;
import io.mapsketch.kernels.RegisterKernels;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The bulk kernels, scalar against Vector API, at a cache-resident size (1 MiB), an odd size that
 * lives in L3 (3,000,040 bytes: not a power of two, so loops have tails) and a memory-bound one
 * (256 MiB). One operation is one kernel call over {@code size} bytes of each operand; bytes per
 * second follow as {@code size} times the score.
 *
 * <p>Each fork chooses the implementation through the {@code mapsketch.kernels} system property
 * before the first kernel class loads, and checks that it got it. {@link #copyReference} (one read,
 * one write per byte) is the bandwidth reference for the merges (two reads, one write);
 * {@link #readSumReference} (a plain vector sum of the words) is the reference for popcount.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class KernelBenchmark {

    private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_PREFERRED;
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Kernel implementation: {@code scalar} or {@code vector}. */
    @Param({"scalar", "vector"})
    public String impl;

    /** Bytes per operand. */
    @Param({"1048576", "3000040", "268435456"})
    public long size;

    private Arena arena;
    private MemorySegment dst;
    private MemorySegment src;
    private MemorySegment registers;
    private final long[] histogram = new long[RegisterKernels.HISTOGRAM_LENGTH];

    /** Creates the state; JMH calls this once per fork. */
    public KernelBenchmark() {}

    /**
     * Selects the implementation, then allocates and fills the operands the benchmark uses.
     *
     * @param params tells which benchmark method runs in this fork
     */
    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        System.setProperty(Kernels.IMPLEMENTATION_PROPERTY, impl);
        KernelImplementation expected = KernelImplementation.valueOf(impl.toUpperCase(Locale.ROOT));
        if (Kernels.implementation() != expected) {
            throw new IllegalStateException("asked for " + expected + " kernels but got " + Kernels.implementation()
                    + " (was jdk.incubator.vector added to the fork?)");
        }
        arena = Arena.ofShared();
        SplittableRandom random = new SplittableRandom(20_251_130L);
        if (params.getBenchmark().endsWith(".registerHistogram")) {
            registers = arena.allocate(size, 64);
            fillHyperLogLogRegisters(registers, random);
        } else {
            dst = arena.allocate(size, 64);
            src = arena.allocate(size, 64);
            for (long i = 0; i + Long.BYTES <= size; i += Long.BYTES) {
                dst.set(WORD, i, random.nextLong());
                src.set(WORD, i, random.nextLong());
            }
        }
    }

    /**
     * Fills registers as a HyperLogLog sketch holds them with about 1,000 distinct keys per
     * register: the maximum of that many geometric ranks, drawn from its distribution
     * {@code P(R <= r) = (1 - 2^-r)^1000}. One MiB of draws is repeated over larger segments.
     */
    private static void fillHyperLogLogRegisters(MemorySegment registers, SplittableRandom random) {
        double keysPerRegister = 1000;
        long pattern = Math.min(registers.byteSize(), 1 << 20);
        for (long i = 0; i < pattern; i++) {
            double u = random.nextDouble();
            double rank = Math.ceil(-Math.log(1 - Math.pow(u, 1 / keysPerRegister)) / Math.log(2));
            registers.set(ValueLayout.JAVA_BYTE, i, (byte) Math.min(64, Math.max(1, rank)));
        }
        for (long i = pattern; i < registers.byteSize(); i += pattern) {
            MemorySegment.copy(registers, 0, registers, i, Math.min(pattern, registers.byteSize() - i));
        }
    }

    /** Frees the operands. */
    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    /**
     * Bit-array union, {@code dst |= src}.
     *
     * @return the destination, so the work is not dead
     */
    @Benchmark
    public MemorySegment or() {
        BitSetKernels.or(dst, 0, src, 0, size / Long.BYTES);
        return dst;
    }

    /**
     * Saturating sum of unsigned 32-bit counters, {@code dst += src}.
     *
     * @return the destination
     */
    @Benchmark
    public MemorySegment sumInt() {
        CounterKernels.addSaturatingUnsignedInts(dst, 0, src, 0, size / Integer.BYTES);
        return dst;
    }

    /**
     * Unsigned maximum of byte registers, {@code dst = max(dst, src)}.
     *
     * @return the destination
     */
    @Benchmark
    public MemorySegment maxBytes() {
        RegisterKernels.maxUnsignedBytes(dst, 0, src, 0, size);
        return dst;
    }

    /**
     * Number of bits set.
     *
     * @return the count
     */
    @Benchmark
    public long popcount() {
        return BitSetKernels.popcount(src, 0, size / Long.BYTES);
    }

    /**
     * Number of bits set in {@code dst & src}: the size of an intersection, read without a write.
     *
     * @return the count
     */
    @Benchmark
    public long popcountAnd() {
        return BitSetKernels.popcountAnd(dst, 0, src, 0, size / Long.BYTES);
    }

    /**
     * Histogram of HyperLogLog-like byte registers.
     *
     * @return the number of empty registers plus the number above 64
     */
    @Benchmark
    public long registerHistogram() {
        return RegisterKernels.histogram(registers, 0, size, histogram) + histogram[0];
    }

    /**
     * Bandwidth reference: {@code MemorySegment.copy} of the same number of bytes.
     *
     * @return the destination
     */
    @Benchmark
    public MemorySegment copyReference() {
        MemorySegment.copy(src, 0, dst, 0, size);
        return dst;
    }

    /**
     * Read reference for popcount: a plain Vector API sum of the same words.
     *
     * @return the sum
     */
    @Benchmark
    public long readSumReference() {
        long bound = size & -LONGS.vectorByteSize();
        LongVector sums = LongVector.zero(LONGS);
        for (long i = 0; i < bound; i += LONGS.vectorByteSize()) {
            sums = sums.add(LongVector.fromMemorySegment(LONGS, src, i, ByteOrder.LITTLE_ENDIAN));
        }
        long sum = sums.reduceLanes(VectorOperators.ADD);
        for (long i = bound; i + Long.BYTES <= size; i += Long.BYTES) {
            sum += src.get(WORD, i);
        }
        return sum;
    }
}
