package io.mapsketch.kernels;

/**
 * One implementation of every kernel family: the scalar reference ({@link #SCALAR}) or the Vector
 * API one (built by {@code VectorKernels.create()} when the incubator module is present).
 *
 * @param implementation which implementation this is
 * @param vectorBitSize the vector width in bits, or 0 for the scalar implementation
 * @param bitSets merges and popcounts of bit arrays
 * @param counters saturating counter sums
 * @param registers register merges and histograms
 * @param hashes batch hashing
 * @param blockedBloom blocked Bloom filter probes
 * @param minHash MinHash signature updates and comparisons
 * @param simHash SimHash fingerprint sums and Hamming-distance scans
 */
record KernelSet(
        KernelImplementation implementation,
        int vectorBitSize,
        BitSetOps bitSets,
        CounterOps counters,
        RegisterOps registers,
        HashOps hashes,
        BloomOps blockedBloom,
        MinHashOps minHash,
        SimHashOps simHash) {

    /** The scalar implementation; always available. */
    static final KernelSet SCALAR = new KernelSet(
            KernelImplementation.SCALAR,
            0,
            new ScalarBitSetOps(),
            new ScalarCounterOps(),
            new ScalarRegisterOps(),
            new ScalarHashOps(),
            new ScalarBloomOps(),
            new ScalarMinHashOps(),
            new ScalarSimHashOps());
}
