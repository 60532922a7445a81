/**
 * The sketches: Bloom filters, Count-Min and Top-K, HyperLogLog, cuckoo filters, MinHash and
 * SimHash, each stored in a file mapped into memory. The API package {@code io.mapsketch} holds what
 * every user names (the sketch type, the open mode, the create options, the file exceptions); the
 * memory module beneath is not part of it.
 */
// The command, to which the shared mechanics are exported for its info verb, is built after this module.
@SuppressWarnings("module")
module io.mapsketch.engine {
    requires io.mapsketch.memory;
    requires io.mapsketch.kernels;

    exports io.mapsketch;
    exports io.mapsketch.membership;
    exports io.mapsketch.frequency;
    exports io.mapsketch.cardinality;
    exports io.mapsketch.similarity;
    exports io.mapsketch.interop;
    exports io.mapsketch.internal to
            io.mapsketch.cli;
}
