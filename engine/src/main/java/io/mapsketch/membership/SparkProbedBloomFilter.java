package io.mapsketch.membership;

import io.mapsketch.internal.SparkBloomIndexes;
import io.mapsketch.memory.SketchRegion;

/**
 * A classic Bloom filter that probes as Spark's {@code BloomFilterImpl} (version 1) or
 * {@code BloomFilterImplV2} (version 2) does, so that a filter imported from Spark answers as Spark's
 * {@code mightContain} and takes adds as its {@code put}: a key's hash is its Murmur3_x86_32 pair
 * ({@code SparkKeyHasher}, with the header's seed), and {@link SparkBloomIndexes} places probe i. Only a
 * filter of this scheme loads this class. Batches go key by key. Cost: two Murmur3_x86_32 passes and k
 * remainders per key.
 */
final class SparkProbedBloomFilter extends BloomFilter {

    /** Version 2's 64-bit combination of the pair, rather than version 1's 32-bit one. */
    private final boolean version2;

    private SparkProbedBloomFilter(SketchRegion region, BloomFormat format) {
        super(region, format);
        this.version2 = format.variant() == BloomProbing.SPARK_V2.variant();
    }

    /** The filter of a Spark-scheme file, typed as the base class so that naming this method loads nothing. */
    static BloomFilter create(SketchRegion region, BloomFormat format) {
        return new SparkProbedBloomFilter(region, format);
    }

    private long bit(long pair, int probe) {
        return version2
                ? SparkBloomIndexes.v2BitIndex(pair, probe, bits)
                : SparkBloomIndexes.v1BitIndex(pair, probe, bits);
    }

    @Override
    protected boolean addHash(long pair) {
        boolean changed = false;
        for (int i = 0; i < hashes; i++) {
            long bit = bit(pair, i);
            changed |= setBits((bit >>> 6) << 3, 1L << bit);
        }
        return changed;
    }

    @Override
    protected void addHashes(long[] pairs, int from, int count) {
        for (int j = 0; j < count; j++) {
            addHash(pairs[from + j]);
        }
    }

    @Override
    boolean containsHash(long pair) {
        for (int i = 0; i < hashes; i++) {
            long bit = bit(pair, i);
            if ((payload.getLong((bit >>> 6) << 3) & 1L << bit) == 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    void containsHashes(long[] pairs, int count, boolean[] results, int resultsFrom) {
        for (int j = 0; j < count; j++) {
            results[resultsFrom + j] = containsHash(pairs[j]);
        }
    }
}
