package io.mapsketch.internal;

/**
 * Where Spark's Bloom filters put a key's bits, given the key's {@link SparkHashes} pair
 * {@code (h1, h2)} and the filter's {@code bitSize} (64 times its words). For probe {@code i} from 0
 * to k - 1:
 *
 * <ul>
 *   <li>version 1 ({@code BloomFilterImpl}), in 32-bit arithmetic that wraps:
 *       {@code c = h1 + (i + 1) * h2}, then {@code ~c} if negative, bit {@code c % bitSize};
 *   <li>version 2 ({@code BloomFilterImplV2}), in 64-bit arithmetic that wraps:
 *       {@code c = h1 * Integer.MAX_VALUE + (i + 1) * h2} (both halves sign-extended), then
 *       {@code ~c} if negative, bit {@code c % bitSize}.
 * </ul>
 *
 * <p>Cost: no allocation; a multiply-add and a remainder per probe.
 */
public final class SparkBloomIndexes {

    private SparkBloomIndexes() {}

    /**
     * Returns the bit of one probe of a version-1 filter.
     *
     * @param pair the key's pair, from {@link SparkHashes} with seed 0
     * @param probe the probe, 0 to k - 1
     * @param bitSize the filter's bits, {@code > 0}
     * @return the bit index, 0 to {@code bitSize - 1}
     */
    public static long v1BitIndex(long pair, int probe, long bitSize) {
        int combined = SparkHashes.first(pair) + (probe + 1) * SparkHashes.second(pair);
        return (combined < 0 ? ~combined : combined) % bitSize;
    }

    /**
     * Returns the bit of one probe of a version-2 filter.
     *
     * @param pair the key's pair, from {@link SparkHashes} with the filter's seed
     * @param probe the probe, 0 to k - 1
     * @param bitSize the filter's bits, {@code > 0}
     * @return the bit index, 0 to {@code bitSize - 1}
     */
    public static long v2BitIndex(long pair, int probe, long bitSize) {
        long combined = SparkHashes.first(pair) * (long) Integer.MAX_VALUE + (probe + 1L) * SparkHashes.second(pair);
        return (combined < 0 ? ~combined : combined) % bitSize;
    }
}
