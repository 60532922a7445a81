package io.mapsketch.jmh;

/**
 * The settings that several benchmarks and {@link MemoryFootprint} share, kept in one place so that
 * the memory table measures the very sketches that the speed tables time.
 */
final class BenchmarkSettings {

    /** The hash seed of every sketch that takes one, mapsketch's and the peers'. */
    static final long SKETCH_SEED = 0x5EED_1234_5678_9ABCL;

    /** The Bloom filters' false-positive rate. */
    static final double BLOOM_FALSE_POSITIVE_RATE = 0.01;

    /**
     * fastfilter {@code BlockedBloom}'s bits per key: the fewest that keep its rate at or below
     * {@link #BLOOM_FALSE_POSITIVE_RATE} (10 bits per key give about 1.3%).
     */
    static final int FASTFILTER_BITS_PER_KEY = 11;

    /** The cuckoo filters' false-positive rate, which takes 16-bit fingerprints. */
    static final double CUCKOO_FALSE_POSITIVE_RATE = 0.001;

    /** Count-Min's delta: 5 rows. */
    static final double COUNT_MIN_DELTA = 0.01;

    /** The exponent of the frequency question's Zipf stream. */
    static final double ZIPF_EXPONENT = 1.0;

    /** The length of the frequency question's stream, and its number of ranks. */
    static final int FREQUENCY_STREAM_KEYS = 1 << 24;

    private static final long FREQUENCY_STREAM_SEED = 0x2F6B_11C4_9D3E_A507L;

    private BenchmarkSettings() {}

    /**
     * The frequency question's stream: keys whose ranks follow Zipf's law with exponent
     * {@value #ZIPF_EXPONENT} over {@value #FREQUENCY_STREAM_KEYS} ranks, from a fixed seed.
     *
     * @param length the number of keys drawn
     * @return the stream; the same for the same length in every benchmark
     */
    static long[] frequencyStream(int length) {
        return KeyStreams.zipf(length, FREQUENCY_STREAM_KEYS, ZIPF_EXPONENT, FREQUENCY_STREAM_SEED);
    }
}
