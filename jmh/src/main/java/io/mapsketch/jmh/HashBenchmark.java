package io.mapsketch.jmh;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import io.mapsketch.kernels.HashKernels;
import io.mapsketch.kernels.KernelImplementation;
import io.mapsketch.kernels.Kernels;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * XXH3-64 of {@code long} keys with a seed: mapsketch's batch kernel (scalar and Vector API)
 * against hash4j's {@code hashLongToLong}, key by key. The results are equal bit for bit; scores
 * are keys per second.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class HashBenchmark {

    private static final int BATCH = 1024;
    private static final long SEED = 0x5EED_1234_5678_9ABCL;

    /** Implementation: {@code mapsketch-scalar}, {@code mapsketch-vector} or {@code hash4j}. */
    @Param({"mapsketch-scalar", "mapsketch-vector", "hash4j"})
    public String impl;

    private final long[] keys = new SplittableRandom(7).longs(BATCH).toArray();
    private final long[] hashes = new long[BATCH];
    private Hasher64 hasher;

    /** Creates the state; JMH calls this once per fork. */
    public HashBenchmark() {}

    /** Selects the kernel implementation (hash4j forks leave the default) and the hasher. */
    @Setup(Level.Trial)
    public void setUp() {
        if (impl.equals("hash4j")) {
            hasher = Hashing.xxh3_64(SEED);
            return;
        }
        KernelImplementation expected =
                impl.equals("mapsketch-scalar") ? KernelImplementation.SCALAR : KernelImplementation.VECTOR;
        System.setProperty(Kernels.IMPLEMENTATION_PROPERTY, expected.name());
        if (Kernels.implementation() != expected) {
            throw new IllegalStateException("asked for " + expected + " kernels but got " + Kernels.implementation());
        }
    }

    /**
     * Hashes a batch of {@value #BATCH} keys.
     *
     * @return the hashes, so the work is not dead
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long[] hashBatch() {
        if (hasher != null) {
            for (int i = 0; i < BATCH; i++) {
                hashes[i] = hasher.hashLongToLong(keys[i]);
            }
        } else {
            HashKernels.xxh3(SEED, keys, 0, hashes, 0, BATCH);
        }
        return hashes;
    }
}
