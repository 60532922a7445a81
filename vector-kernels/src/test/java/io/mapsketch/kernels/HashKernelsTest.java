package io.mapsketch.kernels;

import static io.mapsketch.kernels.TestMemory.EXAMPLES;
import static io.mapsketch.kernels.TestMemory.QT_SEED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.quicktheories.generators.Generate;

/** Batch XXH3-64 equals hash4j bit for bit, and the twins agree. */
class HashKernelsTest {

    private static final long[] EDGE_KEYS = {
        0, -1, Long.MIN_VALUE, Long.MAX_VALUE, 1, 0xFFFF_FFFFL, 0x1_0000_0000L, 0x0123_4567_89AB_CDEFL
    };
    private static final long[] EDGE_SEEDS = {
        0, -1, Long.MIN_VALUE, Long.MAX_VALUE, 1, 0xFFFF_FFFFL, 0x1_0000_0000L, 0x9E37_79B9_7F4A_7C15L
    };
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(Layouts.ORDER);
    private static final TestMemory.Merge SEGMENT_HASH =
            (k, d, dOff, s, sOff, n) -> k.hashes().xxh3(0x5EED_0000_0000_0001L ^ n, s, sOff, d, dOff, n);

    @Test
    void singleKeyEqualsHash4jOnEdgeKeysAndSeeds() {
        for (long seed : EDGE_SEEDS) {
            Hasher64 hasher = Hashing.xxh3_64(seed);
            for (long key : EDGE_KEYS) {
                assertEquals(
                        hasher.hashLongToLong(key),
                        HashKernels.xxh3(seed, key),
                        "seed " + Long.toHexString(seed) + " key " + Long.toHexString(key));
                assertEquals(
                        hasher.hashLongToLong(key),
                        HashKernels.xxh3WithSeedConstant(HashKernels.xxh3SeedConstant(seed), key),
                        "seed constant of seed " + Long.toHexString(seed) + " key " + Long.toHexString(key));
            }
        }
    }

    @Test
    void batchesOfBothImplementationsEqualHash4jOnRandomKeysAndSeeds() {
        qt().withFixedSeed(QT_SEED + 5)
                .withExamples(EXAMPLES)
                .forAll(
                        Generate.longRange(Long.MIN_VALUE, Long.MAX_VALUE),
                        TestMemory.words(20, 320),
                        Generate.range(0, 17))
                .checkAssert((seed, words, from) -> {
                    long[] keys = words.clone();
                    int count = keys.length - from - 3;
                    System.arraycopy(EDGE_KEYS, 0, keys, from, Math.min(count, EDGE_KEYS.length));
                    Hasher64 hasher = Hashing.xxh3_64(seed);
                    long[] expected = new long[count + 5];
                    for (int i = 0; i < count; i++) {
                        expected[2 + i] = hasher.hashLongToLong(keys[from + i]);
                    }
                    for (KernelSet kernels : new KernelSet[] {KernelSet.SCALAR, TestMemory.twin()}) {
                        long[] actual = new long[count + 5];
                        kernels.hashes().xxh3(seed, keys, from, actual, 2, count);
                        assertArrayEquals(expected, actual, () -> kernels.implementation() + " seed " + seed);
                    }
                    long[] facade = new long[count + 5];
                    HashKernels.xxh3(seed, keys, from, facade, 2, count);
                    assertArrayEquals(expected, facade);
                });
    }

    @Test
    void segmentBatchEqualsHash4jInPlaceAtAnyOffset() {
        SplittableRandom random = new SplittableRandom(6);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(8 * 1100);
            for (int count : new int[] {0, 1, 7, 8, 9, 63, 64, 65, 1000}) {
                long seed = random.nextLong();
                int offset = random.nextInt(64);
                long[] keys = random.longs(count).toArray();
                MemorySegment.copy(keys, 0, segment, LONG, offset, count);
                HashKernels.xxh3(seed, segment, offset, segment, offset, count);
                Hasher64 hasher = Hashing.xxh3_64(seed);
                for (int i = 0; i < count; i++) {
                    assertEquals(hasher.hashLongToLong(keys[i]), segment.get(LONG, offset + 8L * i), "key " + i);
                }
            }
        }
    }

    @Test
    void segmentTwinsAgreeOnGeneratedSlices() {
        qt().withFixedSeed(QT_SEED + 6)
                .withExamples(EXAMPLES)
                .forAll(TestMemory.cases())
                .checkAssert(c -> TestMemory.assertMergeTwins(c, Long.BYTES, SEGMENT_HASH));
    }

    @Test
    void segmentTwinsAgreeOnEveryTailLength() {
        for (TestMemory.Case c : TestMemory.everyTail()) {
            TestMemory.assertMergeTwins(c, Long.BYTES, SEGMENT_HASH);
        }
    }
}
