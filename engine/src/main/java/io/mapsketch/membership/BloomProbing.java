package io.mapsketch.membership;

import io.mapsketch.memory.HashScheme;

/**
 * Where a classic {@link BloomFilter} puts a key's bits: mapsketch's own probes, or those of the
 * library a filter was imported from, so that an imported filter keeps answering and updating as its
 * origin does, on every key form. The header records it (the hash scheme and, in parameter slot 4, the
 * variant); {@code docs/file-format.md} draws it and {@code docs/interop.md} says what each keeps.
 */
public enum BloomProbing {
    /** XXH3-64 of the key, enhanced double hashing over the 64-bit hash: every filter a builder sizes. */
    MAPSKETCH(HashScheme.XXH3_64, 0),
    /**
     * Guava's {@code MURMUR128_MITZ_64} over the bytes of {@code Funnels.stringFunnel(UTF_8)}: strings as
     * their UTF-8 bytes, bytes as themselves, a {@code long} key as its decimal string.
     */
    GUAVA_UTF8(HashScheme.GUAVA_MURMUR3_128, 1),
    /**
     * Guava's {@code MURMUR128_MITZ_64} over the bytes of {@code Funnels.longFunnel()}: a {@code long} key as
     * its eight little-endian bytes, bytes (and a string's UTF-8 bytes) as themselves.
     */
    GUAVA_LONG(HashScheme.GUAVA_MURMUR3_128, 2),
    /** Spark's {@code BloomFilterImpl} (version 1): Murmur3_x86_32 pairs with seed 0, 32-bit combination. */
    SPARK_V1(HashScheme.SPARK_MURMUR3_32, 1),
    /** Spark's {@code BloomFilterImplV2} (version 2): Murmur3_x86_32 pairs with the filter's seed, 64-bit combination. */
    SPARK_V2(HashScheme.SPARK_MURMUR3_32, 2);

    private final HashScheme scheme;
    private final int variant;

    BloomProbing(HashScheme scheme, int variant) {
        this.scheme = scheme;
        this.variant = variant;
    }

    /** The header's hash scheme. */
    HashScheme scheme() {
        return scheme;
    }

    /** The header's variant of the scheme, slot 4: 0 for mapsketch's probes. */
    int variant() {
        return variant;
    }

    /** The probing of a header's scheme and variant, or {@code null} if they name none. */
    static BloomProbing of(HashScheme scheme, long variant) {
        for (BloomProbing probing : values()) {
            if (probing.scheme == scheme && probing.variant == variant) {
                return probing;
            }
        }
        return null;
    }
}
