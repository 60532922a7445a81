package io.mapsketch.similarity;

import io.mapsketch.internal.KeyHasher;
import io.mapsketch.kernels.SimHashKernels;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Builds one 64-bit SimHash fingerprint from a weighted set of features (words, shingles, tokens,
 * any bytes). Each feature is hashed once with XXH3-64 and the seed; for every bit position j, the
 * feature's weight is added to a running sum if bit j of its hash is one and subtracted if it is
 * zero; bit j of the fingerprint is one where the sum ends above zero. Documents whose weighted
 * feature vectors have angle θ differ in about {@code 64 θ / π} bits, so the Hamming distance of
 * fingerprints tracks the cosine similarity of the documents: near-duplicates land within a few
 * bits, unrelated documents near 32.
 *
 * <p>The same features with the same weights give the same fingerprint in any order, except that a
 * sum of weights that are not integers may round differently in another order and flip a bit whose
 * sum is within rounding of zero. The same bytes are the same feature in any form: a {@code long} is
 * its eight little-endian bytes, a {@code CharSequence} its UTF-8 bytes.
 *
 * <p>Not thread-safe: use one builder per thread; {@link #clear()} makes it reusable. Cost: one hash
 * per feature, then for a feature of weight 1 (while all so far weigh 1) a vector shift, AND and add
 * into byte counters, folded into the sums every 255 features; for any other weight, 64 additions
 * (the SIMD kernel, eight per vector at 512 bits). No allocation except in {@link #addShingles}.
 */
public final class SimHashFeatures {

    private final KeyHasher hasher;
    private final double[] sums = new double[Long.SIZE];
    /** The ones of each bit over the features of weight 1 not yet in {@link #sums}, as the kernel counts them. */
    private final long[] ones = new long[SimHashKernels.ONES_LANES];
    /** Features of weight 1 counted in {@link #ones} and not yet in {@link #sums}. */
    private int counted;
    /** Whether a feature of another weight than 1 came since {@link #clear()}: then sums may not be integers. */
    private boolean weighted;

    private long features;

    /**
     * Creates an empty builder that hashes features with a seed. To compare with a {@link SimHash}
     * table's fingerprints, use the table's {@link SimHash#features()} (its seed).
     *
     * @param seed the hash seed
     */
    public SimHashFeatures(long seed) {
        this.hasher = KeyHasher.xxh3(seed);
    }

    /**
     * Adds a feature.
     *
     * @param feature the feature, hashed as its eight little-endian bytes
     * @param weight its weight, finite and greater than 0
     * @return this builder
     * @throws IllegalArgumentException if the weight is not finite and positive
     */
    public SimHashFeatures add(long feature, double weight) {
        return addHash(hasher.hash(feature), weight);
    }

    /**
     * Adds a feature of weight 1, by its UTF-8 bytes.
     *
     * @param feature the characters
     * @return this builder
     */
    public SimHashFeatures add(CharSequence feature) {
        return add(feature, 1);
    }

    /**
     * Adds a feature by its UTF-8 bytes.
     *
     * @param feature the characters
     * @param weight its weight, finite and greater than 0
     * @return this builder
     * @throws IllegalArgumentException if the weight is not finite and positive
     */
    public SimHashFeatures add(CharSequence feature, double weight) {
        return addHash(hasher.hash(feature), weight);
    }

    /**
     * Adds the bytes {@code feature[offset, offset + length)} as a feature.
     *
     * @param feature the array
     * @param offset first byte
     * @param length number of bytes
     * @param weight its weight, finite and greater than 0
     * @return this builder
     * @throws IllegalArgumentException if the weight is not finite and positive
     * @throws IndexOutOfBoundsException if the range is outside the array
     */
    public SimHashFeatures add(byte[] feature, int offset, int length, double weight) {
        return addHash(hasher.hash(feature, offset, length), weight);
    }

    /**
     * Adds the bytes of a segment slice as a feature.
     *
     * @param feature the segment
     * @param offset first byte
     * @param length number of bytes
     * @param weight its weight, finite and greater than 0
     * @return this builder
     * @throws IllegalArgumentException if the weight is not finite and positive
     * @throws IndexOutOfBoundsException if the range is outside the segment
     */
    public SimHashFeatures add(MemorySegment feature, long offset, long length, double weight) {
        return addHash(hasher.hash(feature, offset, length), weight);
    }

    /**
     * Adds the word shingles of a text, each of weight 1 (a shingle that occurs twice weighs 2). A
     * word is a maximal run of letters and digits (Unicode), lower-cased; a shingle is {@code words}
     * consecutive words joined by single spaces, hashed as its UTF-8 bytes. A text of fewer words
     * than that is one shingle of all its words; a text without words adds nothing. So
     * {@code "The cat, the HAT"} with 2-word shingles adds "the cat", "cat the" and "the hat".
     *
     * <p>Cost: one pass over the text, then a hash per shingle; allocates the words and shingles.
     *
     * @param text the text
     * @param words words per shingle, in [1, 64]
     * @return this builder
     * @throws IllegalArgumentException if {@code words} is out of range
     */
    public SimHashFeatures addShingles(CharSequence text, int words) {
        if (words < 1 || words > Long.SIZE) {
            throw new IllegalArgumentException("words = " + words + ", must be in [1, " + Long.SIZE + "]");
        }
        List<String> tokens = words(text);
        int shingles = tokens.isEmpty() ? 0 : Math.max(1, tokens.size() - words + 1);
        for (int i = 0; i < shingles; i++) {
            add(String.join(" ", tokens.subList(i, Math.min(tokens.size(), i + words))));
        }
        return this;
    }

    private static List<String> words(CharSequence text) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        text.codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c)) {
                word.appendCodePoint(c);
            } else if (!word.isEmpty()) {
                words.add(word.toString().toLowerCase(Locale.ROOT));
                word.setLength(0);
            }
        });
        if (!word.isEmpty()) {
            words.add(word.toString().toLowerCase(Locale.ROOT));
        }
        return words;
    }

    /**
     * Adds a hash: while every weight since {@link #clear()} is 1, into the byte counters, whose counts
     * {@link #flushOnes} later adds to the sums; the sums are then integers below 2^53, exact, and equal
     * to the sums of the ±1 additions one by one. After any other weight, by ±weight into the sums.
     */
    private SimHashFeatures addHash(long hash, double weight) {
        if (weight == 1 && !weighted) {
            SimHashKernels.countOnes(ones, hash);
            if (++counted == SimHashKernels.ONES_LIMIT) {
                flushOnes();
            }
        } else {
            if (!(weight > 0 && weight < Double.POSITIVE_INFINITY)) {
                throw new IllegalArgumentException("weight = " + weight + ", must be finite and > 0");
            }
            flushOnes();
            weighted = true;
            SimHashKernels.accumulate(sums, hash, weight);
        }
        features++;
        return this;
    }

    /** Adds the counted features to the sums, {@code 2 ones - counted} per bit, and zeroes the counters. */
    private void flushOnes() {
        if (counted == 0) {
            return;
        }
        for (int lane = 0; lane < SimHashKernels.ONES_LANES; lane++) {
            long counts = ones[lane];
            for (int bit = lane; bit < Long.SIZE; bit += SimHashKernels.ONES_LANES) {
                sums[bit] += 2 * (int) (counts & 0xFF) - counted;
                counts >>>= Byte.SIZE;
            }
        }
        Arrays.fill(ones, 0);
        counted = 0;
    }

    /**
     * Returns the fingerprint of the features added so far: bit j is one where the weighted sum of
     * bit j over the features is above zero. The fingerprint of no features is 0.
     *
     * @return the 64-bit fingerprint
     */
    public long fingerprint() {
        flushOnes();
        long fingerprint = 0;
        for (int bit = 0; bit < Long.SIZE; bit++) {
            if (sums[bit] > 0) {
                fingerprint |= 1L << bit;
            }
        }
        return fingerprint;
    }

    /**
     * Returns how many features were added since creation or {@link #clear()}.
     *
     * @return the number of features, repeats included
     */
    public long featureCount() {
        return features;
    }

    /**
     * Forgets every feature, so the builder can make another fingerprint with the same seed.
     *
     * @return this builder
     */
    public SimHashFeatures clear() {
        Arrays.fill(sums, 0);
        Arrays.fill(ones, 0);
        counted = 0;
        weighted = false;
        features = 0;
        return this;
    }
}
