package io.mapsketch.jmh;

import static io.mapsketch.jmh.BenchmarkSettings.SKETCH_SEED;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import com.dynatrace.hash4j.similarity.ElementHashProvider;
import com.dynatrace.hash4j.similarity.SimilarityHashPolicy;
import com.dynatrace.hash4j.similarity.SimilarityHashing;
import io.mapsketch.OpenMode;
import io.mapsketch.similarity.MinHash;
import io.mapsketch.similarity.SimHash;
import java.io.IOException;
import java.util.Locale;
import java.util.SplittableRandom;

/** The similarity rows of {@link MemoryFootprint}: MinHash signatures and tables, SimHash fingerprints. */
final class SimilarityFootprint {

    private static final String QUESTION = "similarity";
    private static final int SIMHASH_ITEMS = 1_000_000;
    private static final Hasher64 SEEDED_XXH3 = Hashing.xxh3_64(SKETCH_SEED);

    private SimilarityFootprint() {}

    /**
     * Measures one MinHash signature and a searched table at k = 128 and 1,024, and a SimHash table.
     *
     * @param recorder where the rows go
     * @throws IOException if a sketch file cannot be created, measured or deleted
     */
    static void measure(FootprintRecorder recorder) throws IOException {
        long[] set = FootprintRecorder.keys(0, MinHashBenchmark.SET_KEYS);
        long[][] sets = new long[MinHashBenchmark.ROWS][];
        for (int row = 0; row < MinHashBenchmark.ROWS; row++) {
            sets[row] = FootprintRecorder.keys(
                    1_000_000L + (long) row * MinHashBenchmark.ROW_KEYS / 2, MinHashBenchmark.ROW_KEYS);
        }
        for (int k : new int[] {128, 1024}) {
            String one = String.format(
                    Locale.ROOT, "MinHash k = %,d: one signature of a set of %,d keys", k, MinHashBenchmark.SET_KEYS);
            recorder.mapsketch(
                    QUESTION,
                    one,
                    "mapsketch",
                    file -> MinHash.builder()
                            .rows(1)
                            .signatureLength(k)
                            .seed(SKETCH_SEED)
                            .create(file, OpenMode.EXCLUSIVE),
                    sketch -> sketch.addAll(0, set));
            for (String impl : new String[] {"hash4j-minhash", "hash4j-superminhash"}) {
                SimilarityHashPolicy policy = impl.endsWith("superminhash")
                        ? SimilarityHashing.superMinHash(k, 64)
                        : SimilarityHashing.minHash(k, 64);
                recorder.add(QUESTION, one, impl, signature(policy, set).length, "signature byte[] length", "");
            }
            String table = String.format(
                    Locale.ROOT,
                    "MinHash k = %,d: %,d signatures of sets of %,d keys",
                    k,
                    MinHashBenchmark.ROWS,
                    MinHashBenchmark.ROW_KEYS);
            recorder.mapsketch(
                    QUESTION,
                    table,
                    "mapsketch",
                    file -> MinHash.builder()
                            .rows(MinHashBenchmark.ROWS)
                            .signatureLength(k)
                            .seed(SKETCH_SEED)
                            .create(file, OpenMode.EXCLUSIVE),
                    sketch -> {
                        for (int row = 0; row < MinHashBenchmark.ROWS; row++) {
                            sketch.addAll(row, sets[row]);
                        }
                    });
            for (String impl : new String[] {"hash4j-minhash", "hash4j-superminhash"}) {
                SimilarityHashPolicy policy = impl.endsWith("superminhash")
                        ? SimilarityHashing.superMinHash(k, 64)
                        : SimilarityHashing.minHash(k, 64);
                long bytes = 0;
                for (long[] row : sets) {
                    bytes += signature(policy, row).length;
                }
                recorder.add(
                        QUESTION,
                        table,
                        impl,
                        bytes,
                        "sum of the signatures' byte[] lengths",
                        "no table: separate byte arrays");
            }
        }

        String fingerprints = String.format(Locale.ROOT, "SimHash: %,d 64-bit fingerprints", SIMHASH_ITEMS);
        SplittableRandom random = new SplittableRandom(20_261_130L);
        recorder.mapsketch(
                QUESTION,
                fingerprints,
                "mapsketch",
                file -> SimHash.builder()
                        .capacity(SIMHASH_ITEMS)
                        .seed(SKETCH_SEED)
                        .create(file, OpenMode.EXCLUSIVE),
                table -> {
                    for (int i = 0; i < SIMHASH_ITEMS; i++) {
                        table.append(random.nextLong());
                    }
                });
        long[] document = FootprintRecorder.keys(0, SimHashBenchmark.FEATURES);
        for (String impl : new String[] {"hash4j-simhash", "hash4j-fastsimhash"}) {
            SimilarityHashPolicy policy =
                    impl.equals("hash4j-simhash") ? SimilarityHashing.simHash(64) : SimilarityHashing.fastSimHash(64);
            recorder.add(
                    QUESTION,
                    fingerprints,
                    impl,
                    (long) signature(policy, document).length * SIMHASH_ITEMS,
                    "fingerprint byte[] length x 1,000,000",
                    "no table: the benchmark holds them in a long[]");
        }
    }

    private static byte[] signature(SimilarityHashPolicy policy, long[] keys) {
        return policy.createHasher()
                .compute(ElementHashProvider.ofFunction(i -> SEEDED_XXH3.hashLongToLong(keys[i]), keys.length));
    }
}
