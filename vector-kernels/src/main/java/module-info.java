/**
 * Allocation-free kernels over memory segments, each with a Vector API implementation and a
 * scalar twin that is the reference and the fallback. Runs without
 * {@code --add-modules jdk.incubator.vector} (scalar); with it, the SIMD paths are used.
 */
module io.mapsketch.kernels {
    requires static jdk.incubator.vector;

    exports io.mapsketch.kernels;
}
