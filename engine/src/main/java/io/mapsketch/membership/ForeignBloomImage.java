package io.mapsketch.membership;

import java.util.Objects;

/**
 * The bits of another library's Bloom filter that a builder creates a classic filter from: the
 * origin's probing, k and words ({@link BloomFilter.Builder#foreignImage}).
 *
 * @param probing a foreign probing
 * @param hashes k, in [1, {@value ProbedLayout#MAX_HASHES}]
 * @param words the bits, at least one word, owned by this record
 */
record ForeignBloomImage(BloomProbing probing, int hashes, long[] words) {

    /**
     * Checks the parameters.
     *
     * @throws IllegalArgumentException if the probing is mapsketch's own, k is out of range or there are no words
     */
    ForeignBloomImage {
        if (Objects.requireNonNull(probing, "probing") == BloomProbing.MAPSKETCH) {
            throw new IllegalArgumentException(
                    "probing = MAPSKETCH, must be a foreign probing: a filter of mapsketch's probes is sized");
        }
        if (hashes < 1 || hashes > ProbedLayout.MAX_HASHES) {
            throw new IllegalArgumentException(
                    "hashes = " + hashes + ", must be in [1, " + ProbedLayout.MAX_HASHES + "]");
        }
        if (words.length == 0) {
            throw new IllegalArgumentException("words has length 0, must have at least 1 word");
        }
    }

    /**
     * The header of the filter, refusing a seed the probing cannot take.
     *
     * @throws IllegalArgumentException naming the seed
     */
    BloomFormat format(long seed) {
        BloomFormat format = BloomFormat.imported(probing, words.length, hashes);
        String refusal = format.seedRefusal(probing.scheme(), seed);
        if (refusal != null) {
            throw new IllegalArgumentException("seed = " + seed + ": " + refusal);
        }
        return format;
    }

    /** Writes the words into a new filter of this image's format. */
    void writeInto(BloomFilter filter) {
        filter.storeWords(words);
    }
}
