package io.mapsketch.jmh;

import static io.mapsketch.jmh.BenchmarkSettings.SKETCH_SEED;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import com.dynatrace.hash4j.similarity.ElementHashProvider;
import com.dynatrace.hash4j.similarity.SimilarityHashPolicy;
import com.dynatrace.hash4j.similarity.SimilarityHasher;
import com.dynatrace.hash4j.similarity.SimilarityHashing;
import io.mapsketch.OpenMode;
import io.mapsketch.similarity.MinHash;
import io.mapsketch.similarity.MinHashDerivation;
import io.mapsketch.similarity.MinHashSignature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
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

/**
 * MinHash signatures of k 64-bit slots: mapsketch's {@code MinHash} ({@code EXCLUSIVE} and
 * {@code SHARED}, with its default SuperMinHash derivation; {@code mapsketch-classic} with the classic
 * one) against hash4j's {@code MinHash} and {@code SuperMinHash} policies with k components of 64 bits,
 * the same signature size.
 *
 * <p><b>{@link #signature}</b> puts a set of {@value #SET_KEYS} keys into a signature; the score is keys
 * per second. Keys are {@link KeyStreams#key} of fixed indices and every implementation is handed
 * the raw {@code long}s: mapsketch hashes them with its batch XXH3 kernel inside {@code addAll}; hash4j
 * takes element hashes, so its element provider hashes each key with {@code xxh3_64} as a hash4j user
 * would. hash4j computes a fresh signature each call. mapsketch updates row 0 of a sketch in place;
 * after the first call the row holds the set's minima and later calls change nothing, which costs the
 * classic derivation the same (the kernel derives and compares every slot for every key either way),
 * lets SuperMinHash stop each key after the steps the row's largest slot allows, and spares the
 * {@code SHARED} path its compare-and-sets: that is the steady state of a row that keeps receiving
 * keys it has seen. <b>{@link #freshSignature}</b> is the cost of a row's first keys: mapsketch puts
 * the set into an empty row each call (the next of {@value #FRESH_ROWS} rows of an anonymous sketch,
 * made again when all are used, about 2% of the time at k = 1,024), hash4j as in {@code signature}.
 *
 * <p><b>{@link #jaccard}</b> compares two signatures of sets of {@value #SET_KEYS} keys that share half
 * of them: mapsketch's {@code jaccard(row, row)} (the SIMD equal-slot kernel over two rows of the
 * mapped table), hash4j's {@code getFractionOfEqualComponents} of two byte arrays.
 *
 * <p><b>{@link #mostSimilar}</b> finds the 10 of {@value #ROWS} sets (of {@value #ROW_KEYS} keys each)
 * most similar to a query set: mapsketch's {@code mostSimilar}; for hash4j, which has no table, the
 * loop a user writes: {@code getNumberOfEqualComponents} against each stored signature and the same
 * bounded heap. Score: queries per second; each reads all {@value #ROWS} signatures.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
public class MinHashBenchmark {

    /** Keys per set in {@link #signature} and {@link #jaccard}. */
    static final int SET_KEYS = 1024;
    /** Sets searched by {@link #mostSimilar}. */
    static final int ROWS = 4096;
    /** Keys per set searched by {@link #mostSimilar}. */
    static final int ROW_KEYS = 64;
    /** Rows returned by {@link #mostSimilar}. */
    static final int TOP = 10;
    /** Empty rows {@link #freshSignature} fills before it makes a new sketch. */
    static final int FRESH_ROWS = 1024;

    private static final Hasher64 XXH3 = Hashing.xxh3_64(SKETCH_SEED);

    /**
     * Implementation: {@code mapsketch}, {@code mapsketch-shared}, {@code mapsketch-classic},
     * {@code hash4j-minhash} or {@code hash4j-superminhash}.
     */
    @Param({"mapsketch", "mapsketch-shared", "mapsketch-classic", "hash4j-minhash", "hash4j-superminhash"})
    public String impl;

    /** Signature length k (64-bit slots). */
    @Param({"128", "1024"})
    public int k;

    private long[] keys;
    private Signatures signatures;

    /** Creates the state; JMH calls this once per fork. */
    public MinHashBenchmark() {}

    /** Builds the sets and, for the comparisons, their signatures. */
    @Setup(Level.Trial)
    public void setUp() {
        keys = new long[SET_KEYS];
        for (int i = 0; i < SET_KEYS; i++) {
            keys[i] = KeyStreams.key(i);
        }
        long[][] sets = new long[ROWS][ROW_KEYS];
        for (int row = 0; row < ROWS; row++) {
            for (int i = 0; i < ROW_KEYS; i++) {
                sets[row][i] = KeyStreams.key(1_000_000L + (long) row * ROW_KEYS / 2 + i);
            }
        }
        long[] half = new long[SET_KEYS];
        for (int i = 0; i < SET_KEYS; i++) {
            half[i] = KeyStreams.key(SET_KEYS / 2 + i);
        }
        signatures = impl.startsWith("mapsketch")
                ? new Mapsketch(
                        k,
                        impl.endsWith("shared") ? OpenMode.SHARED : OpenMode.EXCLUSIVE,
                        impl.endsWith("classic") ? MinHashDerivation.CLASSIC : MinHashDerivation.SUPER_MINHASH,
                        half,
                        sets)
                : new Hash4j(
                        impl.endsWith("superminhash")
                                ? SimilarityHashing.superMinHash(k, 64)
                                : SimilarityHashing.minHash(k, 64),
                        keys,
                        half,
                        sets);
        System.out.printf(
                "%nminhash-check impl=%s k=%d jaccard=%.4f (truth 0.3333) top=%s%n",
                impl, k, signatures.jaccard(), signatures.mostSimilar());
    }

    /** Frees the sketch. */
    @TearDown(Level.Trial)
    public void tearDown() {
        signatures.close();
    }

    /**
     * Puts {@value #SET_KEYS} keys into a signature.
     *
     * @return the signature, so the work is not dead
     */
    @Benchmark
    @OperationsPerInvocation(SET_KEYS)
    public Object signature() {
        return signatures.signature(keys);
    }

    /**
     * Puts {@value #SET_KEYS} keys into a new signature: an empty row for mapsketch.
     *
     * @return the signature, so the work is not dead
     */
    @Benchmark
    @OperationsPerInvocation(SET_KEYS)
    public Object freshSignature() {
        return signatures.freshSignature(keys);
    }

    /**
     * Estimates the Jaccard similarity of two signatures.
     *
     * @return the estimate
     */
    @Benchmark
    public double jaccard() {
        return signatures.jaccard();
    }

    /**
     * Finds the 10 most similar of {@value #ROWS} sets.
     *
     * @return the rows found
     */
    @Benchmark
    public Object mostSimilar() {
        return signatures.mostSimilar();
    }

    /** The operations the benchmark needs, over each library's own API. */
    private interface Signatures {

        Object signature(long[] keys);

        default Object freshSignature(long[] keys) {
            return signature(keys);
        }

        double jaccard();

        List<Integer> mostSimilar();

        default void close() {}
    }

    /** Rows 0 and 1 of a two-row sketch hold the compared sets; a {@value #ROWS}-row sketch the searched ones. */
    private static final class Mapsketch implements Signatures {

        private final MinHash.Builder shape;
        private final OpenMode mode;
        private final MinHash pair;
        private final MinHash table;
        private final MinHashSignature query;
        private MinHash fresh;
        private int freshRow;

        Mapsketch(int k, OpenMode mode, MinHashDerivation derivation, long[] half, long[][] sets) {
            this.mode = mode;
            shape = MinHash.builder().signatureLength(k).seed(SKETCH_SEED).derivation(derivation);
            pair = shape.rows(2).createAnonymous(mode);
            table = shape.rows(ROWS).createAnonymous(mode);
            fresh = shape.rows(FRESH_ROWS).createAnonymous(mode);
            long[] first = new long[SET_KEYS];
            for (int i = 0; i < SET_KEYS; i++) {
                first[i] = KeyStreams.key(i);
            }
            pair.addAll(0, first);
            pair.addAll(1, half);
            for (int row = 0; row < ROWS; row++) {
                table.addAll(row, sets[row]);
            }
            query = table.signature(ROWS / 2);
        }

        @Override
        public Object signature(long[] keys) {
            pair.addAll(0, keys);
            return pair;
        }

        @Override
        public Object freshSignature(long[] keys) {
            if (freshRow == FRESH_ROWS) {
                close(fresh);
                fresh = shape.rows(FRESH_ROWS).createAnonymous(mode);
                freshRow = 0;
            }
            fresh.addAll(freshRow++, keys);
            return fresh;
        }

        @Override
        public double jaccard() {
            return pair.jaccard(0, 1);
        }

        @Override
        public List<Integer> mostSimilar() {
            return table.mostSimilar(query, TOP).stream()
                    .map(MinHash.Match::row)
                    .toList();
        }

        @Override
        public void close() {
            close(pair);
            close(table);
            close(fresh);
        }

        private static void close(MinHash sketch) {
            try {
                sketch.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static final class Hash4j implements Signatures {

        private final SimilarityHashPolicy policy;
        private final SimilarityHasher hasher;
        private final byte[] first;
        private final byte[] second;
        private final byte[][] table;
        private final byte[] query;

        Hash4j(SimilarityHashPolicy policy, long[] keys, long[] half, long[][] sets) {
            this.policy = policy;
            this.hasher = policy.createHasher();
            first = compute(keys);
            second = compute(half);
            table = new byte[ROWS][];
            for (int row = 0; row < ROWS; row++) {
                table[row] = compute(sets[row]);
            }
            query = table[ROWS / 2];
        }

        private byte[] compute(long[] keys) {
            return hasher.compute(ElementHashProvider.ofFunction(i -> XXH3.hashLongToLong(keys[i]), keys.length));
        }

        @Override
        public Object signature(long[] keys) {
            return compute(keys);
        }

        @Override
        public double jaccard() {
            return policy.getFractionOfEqualComponents(first, second);
        }

        /** The same ranking as mapsketch's: most equal components first, ties to the lower row. */
        @Override
        public List<Integer> mostSimilar() {
            PriorityQueue<Long> best = new PriorityQueue<>(TOP);
            for (int row = 0; row < ROWS; row++) {
                long rank =
                        ((long) policy.getNumberOfEqualComponents(query, table[row]) << 31) | (Integer.MAX_VALUE - row);
                if (best.size() < TOP) {
                    best.add(rank);
                } else if (rank > best.peek()) {
                    best.poll();
                    best.add(rank);
                }
            }
            List<Integer> rows = new ArrayList<>(TOP);
            while (!best.isEmpty()) {
                rows.add(Integer.MAX_VALUE - (int) (best.poll() & Integer.MAX_VALUE));
            }
            return rows.reversed();
        }
    }
}
