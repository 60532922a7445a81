package io.mapsketch.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import com.dynatrace.hash4j.hashing.Hashing;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.quicktheories.generators.Generate;

/** XXH3 of byte ranges against hash4j, the reference, for every length class and seed. */
class Xxh3BytesTest {

    private static final int MAX_LENGTH = 2_500;

    @Test
    void everyLengthUpTo2500AtSeveralSeedsEqualsHash4j() {
        byte[] bytes = new byte[MAX_LENGTH + 7];
        new SplittableRandom(3).nextBytes(bytes);
        MemorySegment heap = MemorySegment.ofArray(bytes);
        for (long seed : new long[] {0, 1, -1, 0x9E3779B97F4A7C15L}) {
            for (int length = 0; length <= MAX_LENGTH; length++) {
                int offset = length % 7;
                assertEquals(
                        Hashing.xxh3_64(seed).hashBytesToLong(bytes, offset, length),
                        HashKernels.xxh3Bytes(seed, heap, offset, length),
                        "length " + length + ", seed " + seed);
            }
        }
    }

    @Test
    void randomContentsOffsetsAndSeedsOnNativeMemoryEqualHash4j() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(5_000);
            qt().withFixedSeed(99L)
                    .withExamples(2_000)
                    .forAll(
                            longs().all(),
                            Generate.byteArrays(
                                    integers().between(0, 4_000),
                                    Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0)),
                            integers().between(0, 999))
                    .checkAssert((seed, bytes, offset) -> {
                        int length = bytes.length;
                        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, memory, offset, length);
                        assertEquals(
                                Hashing.xxh3_64(seed).hashBytesToLong(bytes),
                                HashKernels.xxh3Bytes(seed, memory, offset, length),
                                "length " + length);
                    });
        }
    }

    @Test
    void longKeysEqualHash4jAndTheirLittleEndianBytes() {
        qt().withFixedSeed(5L)
                .withExamples(5_000)
                .forAll(longs().all(), longs().all())
                .checkAssert((key, seed) -> {
                    long expected = Hashing.xxh3_64(seed).hashLongToLong(key);
                    assertEquals(expected, HashKernels.xxh3(seed, key));
                    MemorySegment bytes = MemorySegment.ofArray(new long[] {key});
                    assertEquals(expected, HashKernels.xxh3Bytes(seed, bytes, 0, 8));
                });
        for (long key : new long[] {0, -1, Long.MIN_VALUE, Long.MAX_VALUE}) {
            assertEquals(Hashing.xxh3_64(0).hashLongToLong(key), HashKernels.xxh3(0, key));
        }
    }
}
