package io.mapsketch.kernels;

import java.lang.System.Logger.Level;
import java.lang.reflect.InvocationTargetException;
import java.util.Locale;
import java.util.Optional;

/**
 * Chooses, once per JVM, the implementation behind the kernel facades, in the manner of Lucene's
 * {@code VectorizationProvider}: the Vector API one when {@code jdk.incubator.vector} is in the
 * boot layer and its vectors are at least 256 bits wide, the scalar one otherwise, and
 * {@value Kernels#IMPLEMENTATION_PROPERTY} forces either. The decision is logged as one line: at
 * {@code DEBUG} when it is made as configured, at {@code WARNING} when the Vector API was asked for or
 * would pay but cannot be used, or the property's value is not understood.
 *
 * <p>This is the only class that reaches the SIMD classes, and only by reflection after the module
 * check, so a JVM without the incubator module never links a class that imports it.
 */
final class KernelProvider {

    /** Name of the module the SIMD implementation needs. */
    static final String VECTOR_MODULE = "jdk.incubator.vector";
    /** Narrowest vector width, in bits, at which the SIMD kernels are chosen by default. */
    static final int MIN_AUTO_VECTOR_BITS = 256;

    private static final String VECTOR_FACTORY = "io.mapsketch.kernels.VectorKernels";
    private static final String ADVICE = "pass --add-modules " + VECTOR_MODULE + " to the java command";

    private KernelProvider() {}

    /** The outcome of {@link #decide}: which implementation, and the one line to log. */
    record Decision(KernelImplementation implementation, Level level, String message) {}

    /** Returns the implementation chosen for this JVM, deciding and logging on first use. */
    static KernelSet active() {
        return Active.SET;
    }

    /** Returns the Vector API implementation if the incubator module is present, whatever was chosen. */
    static Optional<KernelSet> vector() {
        return Optional.ofNullable(Vector.SET);
    }

    /**
     * Decides which implementation to use; a pure function of its arguments, so that every branch
     * can be tested in one JVM.
     *
     * @param forced the value of {@value Kernels#IMPLEMENTATION_PROPERTY}, or {@code null}
     * @param modulePresent whether {@code jdk.incubator.vector} is in the boot layer
     * @param vectorBits the SIMD implementation's vector width in bits (0 if the module is absent)
     * @param interpreted whether the JVM runs without a JIT compiler ({@code -Xint})
     */
    static Decision decide(String forced, boolean modulePresent, int vectorBits, boolean interpreted) {
        String mode = forced == null ? "auto" : forced.trim().toLowerCase(Locale.ROOT);
        String prefix = "mapsketch kernels: ";
        if (mode.equals("scalar")) {
            return new Decision(
                    KernelImplementation.SCALAR,
                    Level.DEBUG,
                    prefix + "scalar, forced by -D" + Kernels.IMPLEMENTATION_PROPERTY + "=" + forced);
        }
        if (mode.equals("vector")) {
            if (modulePresent) {
                return new Decision(
                        KernelImplementation.VECTOR,
                        Level.DEBUG,
                        prefix + "Vector API with " + vectorBits + "-bit vectors, forced by -D"
                                + Kernels.IMPLEMENTATION_PROPERTY + "=" + forced);
            }
            return new Decision(
                    KernelImplementation.SCALAR,
                    Level.WARNING,
                    prefix + "scalar, although -D"
                            + Kernels.IMPLEMENTATION_PROPERTY + "=" + forced + " asks for SIMD: module " + VECTOR_MODULE
                            + " is not present; " + ADVICE);
        }
        String unknown = mode.equals("auto")
                ? ""
                : " (ignored -D" + Kernels.IMPLEMENTATION_PROPERTY + "=" + forced
                        + ": expected scalar, vector or auto)";
        // A choice made as configured is a detail; an ignored setting is worth a warning.
        Level chosen = unknown.isEmpty() ? Level.DEBUG : Level.WARNING;
        if (!modulePresent) {
            return new Decision(
                    KernelImplementation.SCALAR,
                    Level.WARNING,
                    prefix + "scalar, because module " + VECTOR_MODULE + " is not present; for SIMD kernels " + ADVICE
                            + unknown);
        }
        if (interpreted) {
            return new Decision(
                    KernelImplementation.SCALAR,
                    Level.WARNING,
                    prefix + "scalar, because the JVM runs interpreted (-Xint), where Vector API code is very slow"
                            + unknown);
        }
        if (vectorBits < MIN_AUTO_VECTOR_BITS) {
            return new Decision(
                    KernelImplementation.SCALAR,
                    chosen,
                    prefix + "scalar, because this machine's "
                            + "vectors are " + vectorBits + " bits and SIMD kernels need " + MIN_AUTO_VECTOR_BITS
                            + " (-D" + Kernels.IMPLEMENTATION_PROPERTY + "=vector uses them anyway)" + unknown);
        }
        return new Decision(
                KernelImplementation.VECTOR,
                chosen,
                prefix + "Vector API with " + vectorBits + "-bit vectors" + unknown);
    }

    private static boolean modulePresent() {
        return ModuleLayer.boot().findModule(VECTOR_MODULE).isPresent();
    }

    private static KernelSet loadVector() {
        if (!modulePresent()) {
            return null;
        }
        try {
            Class<?> factory = Class.forName(VECTOR_FACTORY);
            return (KernelSet) factory.getDeclaredMethod("create").invoke(null);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(
                    "cannot create the Vector API kernels although " + VECTOR_MODULE + " is present", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot find the Vector API kernels (" + VECTOR_FACTORY + ")", e);
        }
    }

    /** Lazy holder: the SIMD implementation, or {@code null} without the incubator module. */
    private static final class Vector {
        static final KernelSet SET = loadVector();
    }

    /** Lazy holder: the implementation chosen for this JVM. */
    private static final class Active {
        static final KernelSet SET = choose();

        private static KernelSet choose() {
            String forced = System.getProperty(Kernels.IMPLEMENTATION_PROPERTY);
            // Forced scalar, the Vector API's classes are not loaded at all: a short-lived JVM saves their start-up.
            KernelSet vector = forced != null && forced.trim().equalsIgnoreCase("scalar") ? null : Vector.SET;
            Decision decision = decide(
                    forced,
                    vector != null,
                    vector == null ? 0 : vector.vectorBitSize(),
                    System.getProperty("java.vm.info", "").contains("interpreted mode"));
            System.getLogger("io.mapsketch.kernels").log(decision.level(), decision.message());
            return decision.implementation() == KernelImplementation.VECTOR ? vector : KernelSet.SCALAR;
        }
    }
}
