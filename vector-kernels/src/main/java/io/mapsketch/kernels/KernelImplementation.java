package io.mapsketch.kernels;

/**
 * Which implementation runs behind the kernel facades of this JVM; see
 * {@link Kernels#implementation()}.
 */
public enum KernelImplementation {
    /**
     * Plain Java loops: the reference, and what runs when {@code jdk.incubator.vector} is absent or
     * the machine's vectors are narrower than 256 bits.
     */
    SCALAR,
    /** Vector API ({@code jdk.incubator.vector}) loops, equal bit for bit to {@link #SCALAR}. */
    VECTOR
}
