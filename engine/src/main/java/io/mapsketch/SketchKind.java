package io.mapsketch;

/**
 * The kind of sketch a file holds, stored as an id in the header so that a file opened as the
 * wrong kind is refused rather than misread. Ids are part of the file format and never reused.
 */
public enum SketchKind {
    /** Classic Bloom filter: one bit array, k positions per key. */
    BLOOM(1),
    /** Bloom filter whose k bits for a key fall in one 64-byte block. */
    BLOCKED_BLOOM(2),
    /** Bloom filter with small saturating counters instead of bits. */
    COUNTING_BLOOM(3),
    /** Chain of Bloom filters with geometrically tightening error rates. */
    SCALABLE_BLOOM(4),
    /** Cuckoo filter: buckets of fingerprints. */
    CUCKOO(5),
    /** Count-Min sketch: a matrix of counters. */
    COUNT_MIN(6),
    /** Top-K heavy hitters: a Count-Min sketch plus a candidate table. */
    TOP_K(7),
    /** HyperLogLog: one-byte registers. */
    HYPERLOGLOG(8),
    /** MinHash signatures. */
    MINHASH(9),
    /** SimHash fingerprints. */
    SIMHASH(10),
    /** A table of HyperLogLogs, one per key, in one file. */
    HYPERLOGLOG_TABLE(11),
    /** A table of blocked Bloom filters, one per key, in one file. */
    BLOOM_TABLE(12),
    /** A table of Count-Min sketches, one per key, in one file. */
    COUNT_MIN_TABLE(13);

    private final int id;

    SketchKind(int id) {
        this.id = id;
    }

    /**
     * Returns the id stored in the header for this kind.
     *
     * @return the file-format id, stable across releases
     */
    public int id() {
        return id;
    }
}
