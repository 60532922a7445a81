package io.mapsketch.memory;

/**
 * The hash function a sketch file was built with. Stored in the header with its seed, so two
 * processes that open one file compute the same bits or refuse to open it. Ids are part of the
 * file format and never reused.
 */
public enum HashScheme {
    /** XXH3, 64-bit output, seeded (the reference implementation is hash4j's {@code xxh3_64}). */
    XXH3_64(1),
    /**
     * Redis's HyperLogLog hashing: MurmurHash64A (Appleby's 64-bit MurmurHash2, little-endian blocks) of
     * the key's bytes with seed {@code 0xadc83b19}; the register is the hash's low 14 bits and the rank
     * one plus the trailing zeros of the other 50 (at most 51). Only a HyperLogLog of precision 14 runs
     * it.
     */
    REDIS_HLL(2),
    /**
     * Guava's {@code BloomFilter} hashing, strategy {@code MURMUR128_MITZ_64}: Murmur3 x64 128-bit, seed 0,
     * of the bytes the filter's funnel feeds (recorded in the filter's header), probe i at
     * {@code ((h1 + i h2) & Long.MAX_VALUE) % m}. Only a classic Bloom filter runs it.
     */
    GUAVA_MURMUR3_128(3),
    /**
     * Spark's sketch hashing: Murmur3_x86_32 as Spark's {@code Murmur3_x86_32} computes it (trailing bytes
     * mixed one int each), a pair {@code h1 = hash(key, seed)}, {@code h2 = hash(key, h1)}, integral keys
     * as their {@code long}; a classic Bloom filter (versions 1 and 2, recorded in its header) and a
     * Count-Min sketch (Spark's row multipliers, drawn from the header's seed) run it.
     */
    SPARK_MURMUR3_32(4),
    /**
     * DataSketches' HLL hashing ({@code HllSketch.update}): Murmur3_x64_128 of the key's bytes with seed
     * 9001, a {@code long} as its eight little-endian bytes, an empty key no update; the slot is the low lgK
     * bits of the first 64-bit half and the value the leading zeros of the second half plus one, capped at
     * 63. Only a HyperLogLog runs it, at precision 4 to 21.
     */
    DATASKETCHES_MURMUR3_128(5);

    private final int id;

    HashScheme(int id) {
        this.id = id;
    }

    /**
     * Returns the id stored in the header for this scheme.
     *
     * @return the file-format id, stable across releases
     */
    public int id() {
        return id;
    }

    /**
     * Looks a scheme up by its file-format id.
     *
     * @param id the id read from a header
     * @return the scheme, or {@code null} when this build does not know the id
     */
    static HashScheme byId(int id) {
        for (HashScheme scheme : values()) {
            if (scheme.id == id) {
                return scheme;
            }
        }
        return null;
    }
}
