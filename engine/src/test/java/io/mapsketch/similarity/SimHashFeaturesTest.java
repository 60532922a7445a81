package io.mapsketch.similarity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import io.mapsketch.internal.KeyHasher;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * SimHash fingerprints on a seeded corpus generated here: identical documents give identical
 * fingerprints, near-duplicates (a few words changed) are a few bits apart, unrelated documents are
 * not; the fingerprint is the definition's to the bit on generated documents; and the feature forms,
 * weights and shingles behave as documented.
 */
class SimHashFeaturesTest {

    private static final int DOCUMENTS = 60;
    private static final int WORDS = 400;
    private static final int CHANGED_WORDS = 3;

    /** A vocabulary of 5,000 made-up words of 3 to 9 letters. */
    private static String[] vocabulary(SplittableRandom random) {
        String[] words = new String[5_000];
        for (int i = 0; i < words.length; i++) {
            StringBuilder word = new StringBuilder();
            for (int c = 3 + random.nextInt(7); c > 0; c--) {
                word.append((char) ('a' + random.nextInt(26)));
            }
            words[i] = word.toString();
        }
        return words;
    }

    private static String[] document(String[] vocabulary, SplittableRandom random) {
        String[] words = new String[WORDS];
        for (int i = 0; i < WORDS; i++) {
            words[i] = vocabulary[(int) Math.min(vocabulary.length - 1, -Math.log(random.nextDouble()) * 600)];
        }
        return words;
    }

    private static long fingerprint(String[] words) {
        return new SimHashFeatures(11).addShingles(String.join(" ", words), 3).fingerprint();
    }

    @Test
    void nearDuplicatesAreWithinAFewBitsAndUnrelatedDocumentsAreNot() {
        SplittableRandom random = new SplittableRandom(2026);
        String[] vocabulary = vocabulary(random);
        List<Long> originals = new ArrayList<>();
        int worstNear = 0;
        double sumNear = 0;
        for (int d = 0; d < DOCUMENTS; d++) {
            String[] words = document(vocabulary, random);
            long original = fingerprint(words);
            assertEquals(original, fingerprint(words.clone()), "identical documents, identical fingerprints");
            assertEquals(
                    original,
                    new SimHashFeatures(11)
                            .addShingles(String.join("  ", words).toUpperCase(), 3)
                            .fingerprint(),
                    "case and spacing are not part of a word");
            String[] edited = words.clone();
            for (int c = 0; c < CHANGED_WORDS; c++) {
                edited[random.nextInt(WORDS)] = vocabulary[random.nextInt(vocabulary.length)];
            }
            int near = SimHash.distance(original, fingerprint(edited));
            worstNear = Math.max(worstNear, near);
            sumNear += near;
            originals.add(original);
        }
        int closestUnrelated = 64;
        double sumUnrelated = 0;
        int pairs = 0;
        for (int a = 0; a < DOCUMENTS; a++) {
            for (int b = a + 1; b < DOCUMENTS; b++) {
                int distance = SimHash.distance(originals.get(a), originals.get(b));
                closestUnrelated = Math.min(closestUnrelated, distance);
                sumUnrelated += distance;
                pairs++;
            }
        }
        System.out.printf(
                "simhash corpus: near-duplicates mean %.2f max %d bits; unrelated mean %.2f min %d bits%n",
                sumNear / DOCUMENTS, worstNear, sumUnrelated / pairs, closestUnrelated);
        assertTrue(worstNear <= 12, "a near-duplicate " + worstNear + " bits away");
        assertTrue(sumNear / DOCUMENTS <= 8, "near-duplicates " + sumNear / DOCUMENTS + " bits apart on average");
        assertTrue(closestUnrelated >= 16, "unrelated documents only " + closestUnrelated + " bits apart");
        assertEquals(32, sumUnrelated / pairs, 2, "unrelated documents differ in about half the bits");
    }

    @Test
    void theSameBytesAreTheSameFeatureInEveryForm() {
        byte[] utf8 = "grüße".getBytes(StandardCharsets.UTF_8);
        long fromString = new SimHashFeatures(3).add("grüße", 2.5).add("x").fingerprint();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(utf8.length + 1);
            MemorySegment.copy(MemorySegment.ofArray(utf8), 0, segment, 1, utf8.length);
            assertEquals(
                    fromString,
                    new SimHashFeatures(3)
                            .add("x")
                            .add(segment, 1, utf8.length, 2.5)
                            .fingerprint());
        }
        byte[] padded = Arrays.copyOf(utf8, utf8.length + 4);
        assertEquals(
                fromString,
                new SimHashFeatures(3)
                        .add(padded, 0, utf8.length, 2.5)
                        .add("x", 1)
                        .fingerprint());
        assertEquals(
                new SimHashFeatures(3).add(0x0102030405060708L, 1).fingerprint(),
                new SimHashFeatures(3)
                        .add(new byte[] {8, 7, 6, 5, 4, 3, 2, 1}, 0, 8, 1)
                        .fingerprint());
        assertNotEquals(
                fromString, new SimHashFeatures(4).add("grüße", 2.5).add("x").fingerprint(), "another seed");
    }

    /**
     * A feature of a generated document: its key and its weight, 1 most of the time, else a fraction
     * times 2^-20 to 2^19, or a reset of the builder.
     */
    private record Feature(long key, double weight) {
        static final double CLEAR = -1;
    }

    private static Gen<List<Feature>> documents() {
        Gen<Double> weights = integers()
                .between(0, 40)
                .zip(doubles().between(0, 1), integers().between(-20, 19), (roll, fraction, exponent) -> switch (roll) {
                    case 0 -> Feature.CLEAR;
                    case 1, 2, 3 -> fraction * Math.scalb(1.0, exponent) + Double.MIN_NORMAL;
                    default -> 1.0;
                });
        return lists().of(longs().all().zip(weights, Feature::new)).ofSizeBetween(0, 1_200);
    }

    /**
     * The fingerprint is the one of the definition, sums of ±weight added one feature at a time in
     * order, to the bit: on documents of weight-1 features (counted in byte counters, past their
     * 255-feature fold), of weighted ones, and of both mixed, with resets in between.
     */
    @Test
    void fingerprintsAreThoseOfTheSumsAddedOneByOne() {
        KeyHasher hasher = KeyHasher.xxh3(9);
        qt().withFixedSeed(2_026_1202L).withExamples(150).forAll(documents()).checkAssert(document -> {
            SimHashFeatures features = new SimHashFeatures(9);
            double[] sums = new double[Long.SIZE];
            long count = 0;
            for (Feature feature : document) {
                if (feature.weight() == Feature.CLEAR) {
                    features.clear();
                    Arrays.fill(sums, 0);
                    count = 0;
                    continue;
                }
                features.add(feature.key(), feature.weight());
                long hash = hasher.hash(feature.key());
                for (int bit = 0; bit < Long.SIZE; bit++) {
                    sums[bit] += (hash >>> bit & 1) != 0 ? feature.weight() : -feature.weight();
                }
                count++;
                if (feature.key() % 7 == 0) {
                    assertEquals(fingerprintOf(sums), features.fingerprint(), "fingerprint part way");
                }
            }
            assertEquals(fingerprintOf(sums), features.fingerprint(), document.size() + " features");
            assertEquals(count, features.featureCount());
        });
    }

    private static long fingerprintOf(double[] sums) {
        long fingerprint = 0;
        for (int bit = 0; bit < Long.SIZE; bit++) {
            fingerprint |= sums[bit] > 0 ? 1L << bit : 0;
        }
        return fingerprint;
    }

    @Test
    void oneFeatureIsItsHashAndWeightsDecideTies() {
        long hash = KeyHasher.xxh3(5).hash("only");
        SimHashFeatures features = new SimHashFeatures(5);
        assertEquals(0, features.fingerprint(), "no features");
        assertEquals(hash, features.add("only").fingerprint());
        long other = KeyHasher.xxh3(5).hash("other");
        assertEquals(hash & other, features.add("other").fingerprint(), "equal weights: a bit needs both");
        assertEquals(other, features.add("other", 0.5).fingerprint(), "the heavier feature wins where they differ");
        assertEquals(3, features.featureCount());
        assertEquals(0, features.clear().fingerprint());
        assertEquals(0, features.featureCount());
    }

    @Test
    void shinglesAreLowerCasedWordRunsJoinedBySpaces() {
        assertEquals(
                new SimHashFeatures(1)
                        .add("the cat")
                        .add("cat the")
                        .add("the hat")
                        .fingerprint(),
                new SimHashFeatures(1).addShingles("The cat, the HAT", 2).fingerprint());
        assertEquals(
                new SimHashFeatures(1).add("one two").fingerprint(),
                new SimHashFeatures(1).addShingles("  one-two!", 5).fingerprint(),
                "fewer words than a shingle");
        assertEquals(0, new SimHashFeatures(1).addShingles(" ,;. ", 3).featureCount());
    }

    @Test
    void badArgumentsAreNamed() {
        SimHashFeatures features = new SimHashFeatures(1);
        assertEquals(
                "weight = 0.0, must be finite and > 0",
                assertThrows(IllegalArgumentException.class, () -> features.add("a", 0))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> features.add(1L, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> features.add(1L, Double.POSITIVE_INFINITY));
        assertEquals(
                "words = 0, must be in [1, 64]",
                assertThrows(IllegalArgumentException.class, () -> features.addShingles("a b", 0))
                        .getMessage());
        assertEquals(0, features.featureCount(), "a refused feature is not counted");
    }
}
