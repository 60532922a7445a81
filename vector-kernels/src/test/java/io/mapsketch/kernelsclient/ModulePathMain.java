package io.mapsketch.kernelsclient;

import io.mapsketch.kernels.BitSetKernels;
import io.mapsketch.kernels.HashKernels;
import io.mapsketch.kernels.Kernels;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Run by {@code KernelProviderTest} on the class path while the kernels are on the module path,
 * as an application using the named module sees them: prints the implementation the provider
 * chose, the module the kernels live in, and a checksum that must not depend on it.
 */
public final class ModulePathMain {

    private ModulePathMain() {}

    /**
     * Uses two facades and prints {@code <implementation> <module> <checksum>}.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        long[] hashes = new long[100];
        for (int i = 0; i < hashes.length; i++) {
            hashes[i] = i;
        }
        HashKernels.xxh3(7, hashes, 0, hashes, 0, hashes.length);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bits = arena.allocate(800, 64);
            MemorySegment.copy(hashes, 0, bits, ValueLayout.JAVA_LONG, 0, hashes.length);
            System.out.println(Kernels.implementation() + " "
                    + Kernels.class.getModule().getName() + " " + BitSetKernels.popcount(bits, 0, hashes.length));
        }
    }
}
