package io.mapsketch.jmh;

import io.mapsketch.OpenMode;
import io.mapsketch.similarity.MinHash;
import io.mapsketch.similarity.MinHashDerivation;
import io.mapsketch.similarity.MinHashSizing;
import io.mapsketch.similarity.SimHash;
import io.mapsketch.similarity.SimHashFeatures;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;

/**
 * Measures MinHash's Jaccard estimates and SimHash's Hamming distances against the truth and prints
 * the tables of {@code docs/accuracy.md}. Not a JMH benchmark: a plain main in the benchmarks jar, run
 * as {@code java --add-modules jdk.incubator.vector -cp jmh/target/benchmarks.jar
 * io.mapsketch.jmh.SimilarityAccuracyReport}. Every random source is seeded.
 */
public final class SimilarityAccuracyReport {

    private static final int TRIALS = 400;
    private static final int UNION = 2_000;
    private static final int WORDS = 400;
    private static final int DOCUMENTS = 200;

    private SimilarityAccuracyReport() {}

    /**
     * Prints both tables.
     *
     * @param args unused
     * @throws IOException never in practice: the sketches are anonymous
     */
    public static void main(String[] args) throws IOException {
        minHash();
        simHash();
    }

    /** For each derivation, k and J: TRIALS pairs of sets with exactly that Jaccard similarity, fresh keys each. */
    private static void minHash() throws IOException {
        System.out.println("| derivation | k | J | RMS error | bias | sqrt(J(1-J)/k) | RMS / formula | 1/sqrt(k) |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
        for (MinHashDerivation derivation : MinHashDerivation.values()) {
            minHash(derivation);
        }
    }

    private static void minHash(MinHashDerivation derivation) throws IOException {
        SplittableRandom random = new SplittableRandom(7);
        for (int k : new int[] {128, 400, 1024}) {
            for (int tenth = 1; tenth <= 9; tenth += 2) {
                double truth = tenth / 10.0;
                int common = (int) Math.round(truth * UNION);
                int only = (UNION - common) / 2;
                double squares = 0;
                double sum = 0;
                for (int trial = 0; trial < TRIALS; trial++) {
                    try (MinHash pair = MinHash.builder()
                            .rows(2)
                            .signatureLength(k)
                            .seed(random.nextLong())
                            .derivation(derivation)
                            .createAnonymous(OpenMode.EXCLUSIVE)) {
                        long[] items = random.longs(UNION).toArray();
                        pair.addAll(0, Arrays.copyOfRange(items, 0, common + only));
                        pair.addAll(
                                1,
                                LongStream.concat(
                                                Arrays.stream(items, 0, common),
                                                Arrays.stream(items, common + only, UNION))
                                        .toArray());
                        double error = pair.jaccard(0, 1) - truth;
                        squares += error * error;
                        sum += error;
                    }
                }
                double rms = Math.sqrt(squares / TRIALS);
                double formula = Math.sqrt(truth * (1 - truth) / k);
                System.out.printf(
                        Locale.ROOT,
                        "| %s | %d | %.1f | %.4f | %+.4f | %.4f | %.2f | %.4f |%n",
                        derivation.name(),
                        k,
                        truth,
                        rms,
                        sum / TRIALS,
                        formula,
                        rms / formula,
                        MinHashSizing.standardError(k));
            }
        }
    }

    /**
     * Documents of WORDS words from a seeded vocabulary, edited in c random places; 3-word shingles.
     * The predicted distance is {@code 64 θ / π} for the angle θ between the two shingle count vectors.
     */
    private static void simHash() {
        System.out.println();
        System.out.println("| words changed (of 400) | cosine of shingle counts | predicted bits 64θ/π | mean bits"
                + " | 95th percentile | max |");
        System.out.println("|---:|---:|---:|---:|---:|---:|");
        SplittableRandom random = new SplittableRandom(2026);
        String[] vocabulary = new String[5_000];
        for (int i = 0; i < vocabulary.length; i++) {
            vocabulary[i] = Long.toString(random.nextLong() >>> 20, 36);
        }
        for (int changed : new int[] {1, 3, 10, 30, 100, 400}) {
            int[] distances = new int[DOCUMENTS];
            double cosines = 0;
            for (int d = 0; d < DOCUMENTS; d++) {
                String[] words = new String[WORDS];
                for (int i = 0; i < WORDS; i++) {
                    words[i] = vocabulary[(int) Math.min(vocabulary.length - 1, -Math.log(random.nextDouble()) * 600)];
                }
                String[] edited = words.clone();
                for (int c = 0; c < changed; c++) {
                    int at = changed == WORDS ? c : random.nextInt(WORDS);
                    edited[at] = vocabulary[random.nextInt(vocabulary.length)];
                }
                distances[d] = SimHash.distance(fingerprint(words), fingerprint(edited));
                cosines += cosine(shingles(words), shingles(edited));
            }
            Arrays.sort(distances);
            double cosine = cosines / DOCUMENTS;
            System.out.printf(
                    Locale.ROOT,
                    "| %d | %.3f | %.1f | %.2f | %d | %d |%n",
                    changed,
                    cosine,
                    64 * Math.acos(Math.min(1, cosine)) / Math.PI,
                    Arrays.stream(distances).average().orElse(0),
                    distances[(int) (0.95 * DOCUMENTS)],
                    distances[DOCUMENTS - 1]);
        }
    }

    private static long fingerprint(String[] words) {
        return new SimHashFeatures(11).addShingles(String.join(" ", words), 3).fingerprint();
    }

    private static Map<String, Integer> shingles(String[] words) {
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i + 3 <= words.length; i++) {
            counts.merge(String.join(" ", Arrays.asList(words).subList(i, i + 3)), 1, Integer::sum);
        }
        return counts;
    }

    private static double cosine(Map<String, Integer> a, Map<String, Integer> b) {
        double dot = 0;
        for (Map.Entry<String, Integer> e : a.entrySet()) {
            dot += (double) e.getValue() * b.getOrDefault(e.getKey(), 0);
        }
        return dot / Math.sqrt(norm(a) * norm(b));
    }

    private static double norm(Map<String, Integer> counts) {
        return counts.values().stream().mapToDouble(c -> (double) c * c).sum();
    }
}
