package io.mapsketch.interop;

/**
 * The packing of a DataSketches HLL sketch's registers once it is in {@link DataSketchesHllMode#HLL}
 * mode (the target type, named in every mode). The values are the same in every type; only the size
 * differs.
 */
enum DataSketchesHllType {
    /** Four bits per register: an offset from the sketch's current minimum, with an exception table. */
    HLL_4,
    /** Six bits per register, packed little-endian. */
    HLL_6,
    /** One byte per register. */
    HLL_8
}
