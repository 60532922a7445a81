/**
 * The sketches: Bloom filters, Count-Min and Top-K, HyperLogLog, cuckoo filters, MinHash and
 * SimHash, each stored in a {@code io.mapsketch.memory} region.
 */
module io.mapsketch.engine {
    requires transitive io.mapsketch.memory;
    requires io.mapsketch.kernels;

    exports io.mapsketch;
    exports io.mapsketch.membership;
    exports io.mapsketch.frequency;
    exports io.mapsketch.cardinality;
    exports io.mapsketch.similarity;
}
