package io.mapsketch.similarity;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.dynatrace.hash4j.similarity.ElementHashProvider;
import com.dynatrace.hash4j.similarity.SimilarityHashPolicy;
import com.dynatrace.hash4j.similarity.SimilarityHasher;
import com.dynatrace.hash4j.similarity.SimilarityHashing;
import io.mapsketch.OpenMode;
import io.mapsketch.internal.KeyHasher;
import java.io.IOException;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The Jaccard error of the two derivations and of hash4j's SuperMinHash (64-bit components, fed the
 * same XXH3 hashes) on generated pairs of sets with known similarity: k = 256, unions of 32 to 4,096
 * keys, J = 0.1 to 0.9, 360 pairs each. The error is the root-mean-square of estimate minus truth,
 * over the pairs of a union size, in units of the classic standard deviation {@code sqrt(J (1 - J) / k)}.
 * With 360 pairs a ratio's own standard deviation is about 0.04, so each bound has four of them to
 * spare: the classic derivation within [0.85, 1.15] (its variance is that formula); SuperMinHash at
 * most 1.15 at every size and at most 0.9 where the union is at most 2k keys (its variance shrinks
 * there, to about half at 32 keys); and SuperMinHash within 0.15 of hash4j's at every size (the same
 * algorithm).
 */
class MinHashDerivationAccuracyTest {

    private static final int K = 256;
    private static final int PAIRS = 360;
    private static final int[] UNIONS = {32, 128, 512, 4_096};

    @Test
    void superMinHashIsAsAccurateAsTheClassicDerivationAndAsHash4j() throws IOException {
        KeyHasher hasher = KeyHasher.xxh3(7);
        SimilarityHashPolicy policy = SimilarityHashing.superMinHash(K, 64);
        SimilarityHasher hash4j = policy.createHasher();
        StringBuilder table = new StringBuilder("union | classic | SuperMinHash | hash4j SuperMinHash\n");
        for (int union : UNIONS) {
            double[] squares = new double[3];
            SplittableRandom random = new SplittableRandom(union);
            for (int pair = 0; pair < PAIRS; pair++) {
                double truth = (1 + pair % 9) / 10.0;
                long[] items = random.longs().distinct().limit(union).toArray();
                int common = (int) Math.round(truth * union);
                int only = (union - common) / 2;
                long[] a = Arrays.copyOfRange(items, 0, common + only);
                long[] b = LongStream.concat(
                                Arrays.stream(items, 0, common), Arrays.stream(items, common + only, union))
                        .toArray();
                double exact = (double) common / union;
                double variance = exact * (1 - exact) / K;
                for (MinHashDerivation derivation : MinHashDerivation.values()) {
                    try (MinHash minHash = MinHashTest.sketch(2, K, OpenMode.EXCLUSIVE, derivation)) {
                        minHash.addAll(0, a);
                        minHash.addAll(1, b);
                        squares[derivation.ordinal()] += Math.pow(minHash.jaccard(0, 1) - exact, 2) / variance;
                    }
                }
                double theirs = policy.getFractionOfEqualComponents(
                        hash4j.compute(ElementHashProvider.ofValues(hashes(hasher, a))),
                        hash4j.compute(ElementHashProvider.ofValues(hashes(hasher, b))));
                squares[2] += Math.pow(theirs - exact, 2) / variance;
            }
            double[] rms =
                    Arrays.stream(squares).map(sq -> Math.sqrt(sq / PAIRS)).toArray();
            table.append(String.format("%,d | %.3f | %.3f | %.3f%n", union, rms[0], rms[1], rms[2]));
            String at = " at a union of " + union + " keys:\n" + table;
            assertTrue(rms[0] >= 0.85 && rms[0] <= 1.15, "classic" + at);
            assertTrue(rms[1] <= (union <= 2 * K ? 0.9 : 1.15), "SuperMinHash" + at);
            assertTrue(Math.abs(rms[1] - rms[2]) <= 0.15, "against hash4j" + at);
        }
        System.out.print("minhash error (rms / sqrt(J (1 - J) / k)), k = " + K + "\n" + table);
    }

    private static long[] hashes(KeyHasher hasher, long[] keys) {
        return Arrays.stream(keys).map(hasher::hash).toArray();
    }
}
