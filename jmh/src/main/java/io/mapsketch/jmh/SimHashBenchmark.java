package io.mapsketch.jmh;

import static io.mapsketch.jmh.BenchmarkSettings.SKETCH_SEED;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import com.dynatrace.hash4j.similarity.ElementHashProvider;
import com.dynatrace.hash4j.similarity.SimilarityHasher;
import com.dynatrace.hash4j.similarity.SimilarityHashing;
import io.mapsketch.OpenMode;
import io.mapsketch.kernels.KernelImplementation;
import io.mapsketch.kernels.Kernels;
import io.mapsketch.similarity.SimHash;
import io.mapsketch.similarity.SimHashFeatures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
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
 * SimHash: building 64-bit fingerprints, and finding the stored fingerprints within 3 bits of a query.
 *
 * <p><b>{@link #fingerprint}</b> builds the fingerprint of a document of {@value #FEATURES} features
 * ({@code long} keys, weight 1); the score is features per second. mapsketch: {@code SimHashFeatures}
 * (hash each feature with XXH3, add or subtract its double weight in 64 sums). hash4j: the
 * {@code simHash(64)} and {@code fastSimHash(64)} policies over element hashes, which the element
 * provider computes with {@code xxh3_64} as a hash4j user would; hash4j's are unweighted.
 *
 * <p><b>{@link #within}</b> finds every fingerprint within 3 bits of a query in a table of
 * {@code items} fingerprints: random ones, with one in 4,096 planted within 3 bits of the query. The
 * score is queries per second; each reads the whole table (8 bytes per fingerprint). mapsketch: a
 * {@code SimHash} table of exactly that capacity, filled by {@code append}, searched by
 * {@code within(query, 3)} with the SIMD Hamming kernel ({@code mapsketch}) or its scalar twin
 * ({@code mapsketch-scalar}, which sets {@code mapsketch.kernels=scalar} before any kernel loads).
 * hash4j has no table, so for {@code hash4j-simhash} this method runs what its user would write: a loop
 * over a {@code long[]} of the same fingerprints with {@code Long.bitCount}, collecting the matching
 * indices into a growing {@code long[]}. Run {@code within} with
 * {@code -p impl=mapsketch,mapsketch-scalar,hash4j-simhash} and {@code fingerprint} with
 * {@code -p impl=mapsketch,hash4j-simhash,hash4j-fastsimhash}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx2g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
public class SimHashBenchmark {

    /** Features per document in {@link #fingerprint}. */
    static final int FEATURES = 1024;
    /** Bits within which {@link #within} looks. */
    static final int DISTANCE = 3;

    private static final Hasher64 XXH3 = Hashing.xxh3_64(SKETCH_SEED);

    /**
     * Implementation: {@code mapsketch}, {@code mapsketch-scalar}, {@code hash4j-simhash} or
     * {@code hash4j-fastsimhash}.
     */
    @Param({"mapsketch", "mapsketch-scalar", "hash4j-simhash", "hash4j-fastsimhash"})
    public String impl;

    /** Fingerprints in the table of {@link #within}. */
    @Param({"1000000", "16000000"})
    public int items;

    private long[] features;
    private SimHashFeatures mapsketchFeatures;
    private SimilarityHasher hash4j;
    private SimHash table;
    private long[] array;
    private long query;

    /** Creates the state; JMH calls this once per fork. */
    public SimHashBenchmark() {}

    /**
     * Prepares the document, or fills the table.
     *
     * @param params tells which benchmark method runs in this fork
     */
    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        System.setProperty(Kernels.IMPLEMENTATION_PROPERTY, impl.equals("mapsketch-scalar") ? "scalar" : "auto");
        if (impl.equals("mapsketch-scalar") && Kernels.implementation() != KernelImplementation.SCALAR) {
            throw new IllegalStateException("asked for scalar kernels but got " + Kernels.implementation());
        }
        features = new long[FEATURES];
        for (int i = 0; i < FEATURES; i++) {
            features[i] = KeyStreams.key(i);
        }
        mapsketchFeatures = new SimHashFeatures(SKETCH_SEED);
        hash4j = switch (impl) {
            case "hash4j-simhash" -> SimilarityHashing.simHash(64).createHasher();
            case "hash4j-fastsimhash" -> SimilarityHashing.fastSimHash(64).createHasher();
            default -> null;
        };
        if (params.getBenchmark().endsWith(".within")) {
            fillTable();
        }
    }

    private void fillTable() {
        SplittableRandom random = new SplittableRandom(20_261_130L);
        query = random.nextLong();
        array = new long[items];
        for (int i = 0; i < items; i++) {
            long fingerprint = random.nextLong();
            if (i % 4096 == 17) {
                fingerprint = query ^ (1L << random.nextInt(64)) ^ (1L << random.nextInt(64));
            }
            array[i] = fingerprint;
        }
        if (impl.startsWith("mapsketch")) {
            table = SimHash.builder().capacity(items).seed(SKETCH_SEED).createAnonymous(OpenMode.EXCLUSIVE);
            for (long fingerprint : array) {
                table.append(fingerprint);
            }
            array = null;
        }
        System.out.printf("%nsimhash-check impl=%s items=%d matches=%d%n", impl, items, within().length);
    }

    /** Frees the table. */
    @TearDown(Level.Trial)
    public void tearDown() {
        if (table != null) {
            try {
                table.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * Builds the fingerprint of a document of {@value #FEATURES} features.
     *
     * @return the fingerprint
     */
    @Benchmark
    @OperationsPerInvocation(FEATURES)
    public long fingerprint() {
        if (hash4j != null) {
            byte[] fingerprint =
                    hash4j.compute(ElementHashProvider.ofFunction(i -> XXH3.hashLongToLong(features[i]), FEATURES));
            return fingerprint[0] ^ fingerprint[7];
        }
        mapsketchFeatures.clear();
        for (long feature : features) {
            mapsketchFeatures.add(feature, 1);
        }
        return mapsketchFeatures.fingerprint();
    }

    /**
     * Finds the fingerprints within {@value #DISTANCE} bits of the query.
     *
     * @return the indices found
     */
    @Benchmark
    public long[] within() {
        if (table != null) {
            return table.within(query, DISTANCE);
        }
        long[] found = new long[16];
        int count = 0;
        for (int i = 0; i < array.length; i++) {
            if (Long.bitCount(array[i] ^ query) <= DISTANCE) {
                if (count == found.length) {
                    found = Arrays.copyOf(found, 2 * count);
                }
                found[count++] = i;
            }
        }
        return Arrays.copyOf(found, count);
    }
}
