package io.mapsketch.jmh;

import com.dynatrace.hash4j.hashing.HashValue128;
import com.dynatrace.hash4j.hashing.Hasher128;
import com.google.common.hash.HashFunction;
import io.mapsketch.kernels.Murmur3x64x128;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.datasketches.hash.MurmurHash3;
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
 * Murmur3 x64 128-bit of byte keys, both halves: mapsketch's {@code Murmur3x64x128} (into a reused
 * {@code long[2]}) against Guava's {@code murmur3_128} (a {@code HashCode} holding both; its
 * {@code asLong()}, the first half, is read without a copy, as Guava's Bloom filter reads it), hash4j's
 * {@code murmur3_128} ({@code HashValue128}) and DataSketches' {@code MurmurHash3.hash}
 * ({@code long[]}), over {@value #KEYS} keys of {@code length} bytes laid end to end in one array.
 * Every implementation's result is folded into the returned value; scores are keys per second.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class Murmur3Benchmark {

    private static final int KEYS = 1024;
    private static final int SEED = 9001;

    /** Implementation: {@code mapsketch}, {@code guava}, {@code hash4j} or {@code datasketches}. */
    @Param({"mapsketch", "guava", "hash4j", "datasketches"})
    public String impl;

    /** Bytes per key; not powers of two, so every tail length class runs. */
    @Param({"8", "31", "200"})
    public int length;

    private byte[] bytes;
    private MemorySegment segment;
    private final long[] halves = new long[2];
    private HashFunction guava;
    private Hasher128 hash4j;

    /** Creates the state; JMH calls this once per fork. */
    public Murmur3Benchmark() {}

    /** Draws the keys and builds the hashers. */
    @Setup(Level.Trial)
    public void setUp() {
        bytes = new byte[KEYS * length];
        new SplittableRandom(17).nextBytes(bytes);
        segment = MemorySegment.ofArray(bytes);
        guava = com.google.common.hash.Hashing.murmur3_128(SEED);
        hash4j = com.dynatrace.hash4j.hashing.Hashing.murmur3_128(SEED);
    }

    /**
     * Hashes every key to both halves.
     *
     * @return the halves folded together, so the work is not dead
     */
    @Benchmark
    @OperationsPerInvocation(KEYS)
    public long hashKeys() {
        long folded = 0;
        switch (impl) {
            case "mapsketch" -> {
                for (int i = 0; i < KEYS; i++) {
                    Murmur3x64x128.hash(SEED, segment, (long) i * length, length, halves);
                    folded += halves[0] ^ halves[1];
                }
            }
            case "guava" -> {
                for (int i = 0; i < KEYS; i++) {
                    folded += guava.hashBytes(bytes, i * length, length).asLong();
                }
            }
            case "hash4j" -> {
                for (int i = 0; i < KEYS; i++) {
                    HashValue128 hash = hash4j.hashBytesTo128Bits(bytes, i * length, length);
                    folded += hash.getLeastSignificantBits() ^ hash.getMostSignificantBits();
                }
            }
            default -> {
                for (int i = 0; i < KEYS; i++) {
                    long[] hash = MurmurHash3.hash(bytes, i * length, length, SEED);
                    folded += hash[0] ^ hash[1];
                }
            }
        }
        return folded;
    }
}
