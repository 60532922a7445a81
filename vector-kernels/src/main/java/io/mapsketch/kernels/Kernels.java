package io.mapsketch.kernels;

/**
 * Reports which kernel implementation this JVM uses, and names the switches that choose it.
 *
 * <p>The choice is made once per JVM, when the first bulk kernel is used (hashing one key does not
 * choose), and logged as one line on the {@link System.Logger} named {@code io.mapsketch.kernels}: at
 * {@code DEBUG}, or at {@code WARNING} when the Vector API cannot be used although it was asked for or
 * would pay. By default the Vector API
 * implementation is used when the module {@code jdk.incubator.vector} is in the boot layer (the JVM
 * was started with {@code --add-modules jdk.incubator.vector}) and the preferred vector size is at
 * least 256 bits; otherwise the scalar implementation is used, with the same results.
 *
 * <p>Cost: the first call decides and logs (microseconds); later calls read a constant.
 */
public final class Kernels {

    /**
     * System property that forces the implementation: {@code scalar}, {@code vector} or
     * {@code auto} (the default). {@code vector} uses the Vector API even on machines whose vectors
     * are narrower than 256 bits, but only if {@code jdk.incubator.vector} is present.
     */
    public static final String IMPLEMENTATION_PROPERTY = "mapsketch.kernels";

    /**
     * System property that narrows the vectors the Vector API implementation uses, in bits
     * ({@code 128}, {@code 256} or {@code 512}), so that a machine with wide vectors can run the
     * code paths of narrower ones. Values above the preferred size, or not one of these, are
     * ignored.
     */
    public static final String VECTOR_BITS_PROPERTY = "mapsketch.kernels.vectorBits";

    private Kernels() {}

    /**
     * Returns the implementation behind every kernel facade in this JVM.
     *
     * @return {@link KernelImplementation#VECTOR} or {@link KernelImplementation#SCALAR}; the same
     *     value for the life of the JVM
     */
    public static KernelImplementation implementation() {
        return KernelProvider.active().implementation();
    }

    /**
     * Returns the width of the vectors the kernels use.
     *
     * @return the vector size in bits (for example 512), or 0 when the scalar implementation runs
     */
    public static int vectorBitSize() {
        return KernelProvider.active().vectorBitSize();
    }
}
