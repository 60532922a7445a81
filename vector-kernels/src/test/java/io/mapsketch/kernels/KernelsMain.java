package io.mapsketch.kernels;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Run in a fresh JVM by {@link KernelProviderTest}: uses every kernel facade once, then prints the
 * implementation the provider chose and the vector width.
 */
public final class KernelsMain {

    private KernelsMain() {}

    /**
     * Uses every facade and prints {@code <implementation> <vectorBits>}.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(4096, 64);
            MemorySegment b = arena.allocate(4096, 64);
            b.fill((byte) 1);
            BitSetKernels.or(a, 0, b, 0, 512);
            CounterKernels.addSaturatingUnsignedInts(a, 0, b, 0, 1024);
            RegisterKernels.maxUnsignedBytes(a, 0, b, 0, 4096);
            long[] hashes = new long[100];
            HashKernels.xxh3(42, hashes, 0, hashes, 0, hashes.length);
            BlockedBloomKernels.add(a, 0, 64, 8, hashes, 0, hashes.length);
            long found = BlockedBloomKernels.mightContain(
                    a, 0, 64, 8, hashes, 0, hashes.length, new boolean[hashes.length], 0);
            long[] histogram = new long[RegisterKernels.HISTOGRAM_LENGTH];
            long above = RegisterKernels.histogram(a, 0, 4096, histogram);
            MinHashKernels.update(b, 0, 64, hashes, 0, hashes.length);
            long equal = MinHashKernels.countEqual(b, 0, b, 0, 64);
            int near = SimHashKernels.within(
                    b, 0, 64, b.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0), 0, new int[64], 0);
            if (found != hashes.length || above + histogram[1] + histogram[2] == 0 || equal != 64 || near < 1) {
                throw new AssertionError("kernels gave wrong answers: found " + found);
            }
        }
        System.out.println(Kernels.implementation() + " " + Kernels.vectorBitSize());
    }
}
