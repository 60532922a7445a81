package io.mapsketch.kernels;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import com.dynatrace.hash4j.hashing.HashValue128;
import com.dynatrace.hash4j.hashing.Hashing;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.datasketches.hash.MurmurHash3;
import org.junit.jupiter.api.Test;

/**
 * Murmur3 x64 128-bit against Guava's {@code murmur3_128(seed)} (its {@code int} seed sign-extended),
 * DataSketches' {@code MurmurHash3.hash(..., seed)} ({@code long} seeds) and hash4j's
 * {@code murmur3_128(seed)} (its {@code int} seed zero-extended), for byte ranges of every length up
 * to 300 on heap and native segments and for {@code long} keys.
 */
class Murmur3x64x128Test {

    private static final int MAX_LENGTH = 300;
    private static final int[] SEEDS = {0, 1, -1, 9001, Integer.MIN_VALUE, Integer.MAX_VALUE};

    @Test
    void everyLengthUpTo300EqualsGuavaDataSketchesAndHash4j() {
        byte[] all = new byte[MAX_LENGTH];
        new SplittableRandom(13).nextBytes(all);
        for (int seed : SEEDS) {
            for (int length = 0; length <= MAX_LENGTH; length++) {
                assertBytesEqualPeers(Arrays.copyOf(all, length), seed);
            }
        }
    }

    @Test
    void generatedBytesAndSeedsEqualGuavaDataSketchesAndHash4j() {
        qt().withFixedSeed(43L)
                .withExamples(3_000)
                .forAll(Murmur3x86x32Test.byteArrays(), integers().all())
                .checkAssert(Murmur3x64x128Test::assertBytesEqualPeers);
    }

    @Test
    void longSeedsEqualDataSketches() {
        qt().withFixedSeed(47L)
                .withExamples(2_000)
                .forAll(Murmur3x86x32Test.byteArrays(), longs().all())
                .checkAssert((bytes, seed) -> {
                    long[] halves = new long[2];
                    Murmur3x64x128.hash(seed, MemorySegment.ofArray(bytes), 0, bytes.length, halves);
                    if (bytes.length > 0) {
                        assertArrayEquals(MurmurHash3.hash(bytes, seed), halves);
                    }
                });
    }

    @Test
    void nativeSegmentsAtAnyOffsetHashLikeArrays() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(MAX_LENGTH + 16);
            qt().withFixedSeed(53L)
                    .withExamples(1_000)
                    .forAll(
                            Murmur3x86x32Test.byteArrays(),
                            longs().all(),
                            integers().between(0, 15))
                    .checkAssert((bytes, seed, offset) -> {
                        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, memory, offset, bytes.length);
                        long[] heap = new long[2];
                        long[] off = new long[2];
                        Murmur3x64x128.hash(seed, MemorySegment.ofArray(bytes), 0, bytes.length, heap);
                        Murmur3x64x128.hash(seed, memory, offset, bytes.length, off);
                        assertArrayEquals(heap, off);
                    });
        }
    }

    @Test
    void longKeysEqualGuavaDataSketchesAndTheirLittleEndianBytes() {
        qt().withFixedSeed(59L)
                .withExamples(5_000)
                .forAll(longs().all(), integers().all())
                .checkAssert((key, seed) -> {
                    long[] halves = new long[2];
                    Murmur3x64x128.hashLong(seed, key, halves);
                    assertArrayEquals(
                            guavaHalves(com.google.common.hash.Hashing.murmur3_128(seed)
                                    .hashLong(key)
                                    .asBytes()),
                            halves);
                    assertArrayEquals(MurmurHash3.hash(new long[] {key}, seed), halves);
                    assertArrayEquals(MurmurHash3.hash(key, seed), halves);
                    byte[] bytes = ByteBuffer.allocate(8)
                            .order(ByteOrder.LITTLE_ENDIAN)
                            .putLong(key)
                            .array();
                    long[] ofBytes = new long[2];
                    Murmur3x64x128.hash(seed, MemorySegment.ofArray(bytes), 0, 8, ofBytes);
                    assertArrayEquals(halves, ofBytes);
                });
    }

    @Test
    void rangesAndShortOutputsAreRejected() {
        MemorySegment bytes = MemorySegment.ofArray(new byte[8]);
        assertThrows(IndexOutOfBoundsException.class, () -> Murmur3x64x128.hash(0, bytes, 4, 5, new long[2]));
        assertThrows(IndexOutOfBoundsException.class, () -> Murmur3x64x128.hash(0, bytes, 0, 8, new long[1]));
        assertThrows(IndexOutOfBoundsException.class, () -> Murmur3x64x128.hashLong(0, 1, new long[1]));
        assertThrows(NullPointerException.class, () -> Murmur3x64x128.hash(0, bytes, 0, 8, null));
    }

    private static void assertBytesEqualPeers(byte[] bytes, int seed) {
        long[] halves = new long[2];
        Murmur3x64x128.hash(seed, MemorySegment.ofArray(bytes), 0, bytes.length, halves);
        String where = "length " + bytes.length + ", seed " + seed;
        assertArrayEquals(
                guavaHalves(com.google.common.hash.Hashing.murmur3_128(seed)
                        .hashBytes(bytes)
                        .asBytes()),
                halves,
                where);
        if (bytes.length > 0) {
            assertArrayEquals(MurmurHash3.hash(bytes, seed), halves, where);
        }
        long[] unsignedSeed = new long[2];
        Murmur3x64x128.hash(Integer.toUnsignedLong(seed), MemorySegment.ofArray(bytes), 0, bytes.length, unsignedSeed);
        HashValue128 hash4j = Hashing.murmur3_128(seed).hashBytesTo128Bits(bytes);
        assertArrayEquals(
                new long[] {hash4j.getLeastSignificantBits(), hash4j.getMostSignificantBits()}, unsignedSeed, where);
    }

    /** {@code lowerEight} and {@code upperEight} of Guava's {@code asBytes()}. */
    private static long[] guavaHalves(byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        return new long[] {buffer.getLong(0), buffer.getLong(8)};
    }
}
