package io.mapsketch.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import com.dynatrace.hash4j.hashing.Hashing;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * Murmur3 x86 32-bit against Spark's {@code Murmur3_x86_32} (both byte variants, ints and longs),
 * Guava's {@code murmur3_32_fixed} and hash4j's {@code murmur3_32}, on heap and native segments.
 */
class Murmur3x86x32Test {

    private static final int MAX_LENGTH = 300;
    private static final int[] SEEDS = {0, 1, -1, 42, Integer.MIN_VALUE, 0x9747b28c};

    static Gen<byte[]> byteArrays() {
        return Generate.byteArrays(
                integers().between(0, MAX_LENGTH), Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0));
    }

    @Test
    void everyLengthUpTo300EqualsSparkGuavaAndHash4j() throws Throwable {
        byte[] all = new byte[MAX_LENGTH];
        new SplittableRandom(11).nextBytes(all);
        for (int seed : SEEDS) {
            for (int length = 0; length <= MAX_LENGTH; length++) {
                byte[] bytes = Arrays.copyOf(all, length);
                assertBothVariants(seed, bytes);
            }
        }
    }

    @Test
    void generatedBytesAndSeedsEqualSparkGuavaAndHash4j() {
        qt().withFixedSeed(31L)
                .withExamples(3_000)
                .forAll(byteArrays(), integers().all())
                .checkAssert((bytes, seed) -> {
                    try {
                        assertBothVariants(seed, bytes);
                    } catch (Throwable e) {
                        throw new AssertionError(e);
                    }
                });
    }

    @Test
    void nativeSegmentsAtAnyOffsetHashLikeArrays() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(MAX_LENGTH + 16);
            qt().withFixedSeed(37L)
                    .withExamples(1_000)
                    .forAll(byteArrays(), integers().all(), integers().between(0, 15))
                    .checkAssert((bytes, seed, offset) -> {
                        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, memory, offset, bytes.length);
                        MemorySegment heap = MemorySegment.ofArray(bytes);
                        assertEquals(
                                Murmur3x86x32.hashBytes(seed, heap, 0, bytes.length),
                                Murmur3x86x32.hashBytes(seed, memory, offset, bytes.length));
                        assertEquals(
                                Murmur3x86x32.hashBytesTailAsInts(seed, heap, 0, bytes.length),
                                Murmur3x86x32.hashBytesTailAsInts(seed, memory, offset, bytes.length));
                    });
        }
    }

    @Test
    void intsAndLongsEqualSparkAndTheirLittleEndianBytes() {
        qt().withFixedSeed(41L)
                .withExamples(5_000)
                .forAll(longs().all(), integers().all())
                .checkAssert((value, seed) -> {
                    try {
                        int asInt = (int) (value ^ (value >>> 32));
                        int hashInt = Murmur3x86x32.hashInt(seed, asInt);
                        assertEquals(SparkMurmur3.hashInt(asInt, seed), hashInt);
                        assertEquals(Hashing.murmur3_32(seed).hashIntToInt(asInt), hashInt);
                        assertEquals(hashInt, Murmur3x86x32.hashBytes(seed, littleEndian(asInt), 0, 4));
                        int hashLong = Murmur3x86x32.hashLong(seed, value);
                        assertEquals(SparkMurmur3.hashLong(value, seed), hashLong);
                        assertEquals(
                                com.google.common.hash.Hashing.murmur3_32_fixed(seed)
                                        .hashLong(value)
                                        .asInt(),
                                hashLong);
                        assertEquals(hashLong, Murmur3x86x32.hashBytes(seed, littleEndian(value), 0, 8));
                    } catch (Throwable e) {
                        throw new AssertionError(e);
                    }
                });
    }

    @Test
    void rangesOutsideTheSegmentAreRejected() {
        MemorySegment bytes = MemorySegment.ofArray(new byte[8]);
        assertThrows(IndexOutOfBoundsException.class, () -> Murmur3x86x32.hashBytes(0, bytes, 4, 5));
        assertThrows(IndexOutOfBoundsException.class, () -> Murmur3x86x32.hashBytesTailAsInts(0, bytes, -1, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> Murmur3x86x32.hashBytes(0, bytes, 0, -1));
        assertThrows(NullPointerException.class, () -> Murmur3x86x32.hashBytes(0, null, 0, 0));
    }

    private static void assertBothVariants(int seed, byte[] bytes) throws Throwable {
        MemorySegment heap = MemorySegment.ofArray(bytes);
        String where = "length " + bytes.length + ", seed " + seed;
        assertEquals(
                SparkMurmur3.hashUnsafeBytes(bytes, seed),
                Murmur3x86x32.hashBytesTailAsInts(seed, heap, 0, bytes.length),
                where);
        int standard = Murmur3x86x32.hashBytes(seed, heap, 0, bytes.length);
        assertEquals(SparkMurmur3.hashUnsafeBytes2(bytes, seed), standard, where);
        assertEquals(
                com.google.common.hash.Hashing.murmur3_32_fixed(seed)
                        .hashBytes(bytes)
                        .asInt(),
                standard,
                where);
        assertEquals(Hashing.murmur3_32(seed).hashBytesToInt(bytes), standard, where);
    }

    private static MemorySegment littleEndian(int value) {
        return MemorySegment.ofArray(ByteBuffer.allocate(4)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(value)
                .array());
    }

    private static MemorySegment littleEndian(long value) {
        return MemorySegment.ofArray(ByteBuffer.allocate(8)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putLong(value)
                .array());
    }
}
