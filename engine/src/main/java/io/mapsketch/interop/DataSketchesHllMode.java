package io.mapsketch.interop;

/**
 * The mode a DataSketches HLL sketch is in, as its image records it: a sketch starts as a short list
 * of coupons, grows into a hash set of coupons when lgK is at least 8, and becomes an array of
 * registers when the set would pass three quarters of {@code 2^(lgK-3)} entries.
 */
enum DataSketchesHllMode {
    /** Up to seven coupons, in the order they arrived. */
    LIST,
    /** An open-addressing hash set of coupons; only sketches of lgK 8 and more have one. */
    SET,
    /** One register per slot, {@code 2^lgK} of them, in the target type's packing. */
    HLL
}
