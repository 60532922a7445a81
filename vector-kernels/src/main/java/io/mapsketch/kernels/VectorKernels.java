package io.mapsketch.kernels;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The species every SIMD kernel uses, and the factory of the Vector API {@link KernelSet}. Loaded
 * only by {@link KernelProvider}, by reflection, after it found {@code jdk.incubator.vector}.
 */
final class VectorKernels {

    /** The vector shape: the preferred one, or a narrower one named by {@value Kernels#VECTOR_BITS_PROPERTY}. */
    static final VectorShape SHAPE = shape(System.getProperty(Kernels.VECTOR_BITS_PROPERTY));
    /** 64-bit lanes. */
    static final VectorSpecies<Long> LONGS = LongVector.SPECIES_PREFERRED.withShape(SHAPE);
    /** 32-bit lanes. */
    static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED.withShape(SHAPE);
    /** 64-bit floating-point lanes. */
    static final VectorSpecies<Double> DOUBLES = DoubleVector.SPECIES_PREFERRED.withShape(SHAPE);
    /** 8-bit lanes. */
    static final VectorSpecies<Byte> BYTES = ByteVector.SPECIES_PREFERRED.withShape(SHAPE);

    private VectorKernels() {}

    /** Builds the Vector API implementation; called reflectively by {@link KernelProvider}. */
    static KernelSet create() {
        return new KernelSet(
                KernelImplementation.VECTOR,
                SHAPE.vectorBitSize(),
                new VectorBitSetOps(),
                new VectorCounterOps(),
                new VectorRegisterOps(),
                new VectorHashOps(),
                new VectorBloomOps(),
                new VectorMinHashOps(),
                new VectorSimHashOps());
    }

    private static VectorShape shape(String requestedBits) {
        VectorShape preferred = VectorShape.preferredShape();
        if (requestedBits == null) {
            return preferred;
        }
        return switch (requestedBits.trim()) {
            case "128" -> narrowest(VectorShape.S_128_BIT, preferred);
            case "256" -> narrowest(VectorShape.S_256_BIT, preferred);
            default -> preferred;
        };
    }

    private static VectorShape narrowest(VectorShape requested, VectorShape preferred) {
        return requested.vectorBitSize() < preferred.vectorBitSize() ? requested : preferred;
    }
}
