/**
 * The sketches: Bloom filters, Count-Min and Top-K, HyperLogLog, cuckoo filters, MinHash and
 * SimHash, each stored in a {@code io.mapsketch.memory} region.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.mapsketch.engine {
    requires transitive io.mapsketch.memory;
    requires io.mapsketch.kernels;
    // Keys may arrive as Agrona DirectBuffers; Agrona is an automatic module (no descriptor).
    requires transitive org.agrona;

    exports io.mapsketch;
    exports io.mapsketch.membership;
    exports io.mapsketch.frequency;
    exports io.mapsketch.cardinality;
    exports io.mapsketch.similarity;
}
