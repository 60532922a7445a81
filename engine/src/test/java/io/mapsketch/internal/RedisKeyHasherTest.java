package io.mapsketch.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

import io.mapsketch.kernels.MurmurHash64A;
import io.mapsketch.memory.HashScheme;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Redis scheme's canonical hash maps to the register and rank Redis computes, on every edge of the
 * two bit fields, and every key form hashes the bytes a Redis client would send.
 */
class RedisKeyHasherTest {

    private static final long SEED = 0xadc83b19L;

    /** Redis's register: the low 14 bits. */
    private static long redisIndex(long hash) {
        return hash & 0x3FFF;
    }

    /** Redis's rank: one plus the trailing zeros of the other 50 bits, with bit 50 set as a stop. */
    private static int redisRank(long hash) {
        return Long.numberOfTrailingZeros((hash >>> 14) | (1L << 50)) + 1;
    }

    /** The HyperLogLog layout at precision 14 (docs/file-format.md): the top 14 bits, leading zeros after them. */
    private static long ourIndex(long hash) {
        return hash >>> 50;
    }

    private static int ourRank(long hash) {
        return Long.numberOfLeadingZeros((hash << 14) | (1L << 13)) + 1;
    }

    private static void assertSameRegisterAndRank(long redisHash) {
        long canonical = RedisKeyHasher.canonical(redisHash);
        assertEquals(redisIndex(redisHash), ourIndex(canonical), () -> "index of " + Long.toHexString(redisHash));
        assertEquals(redisRank(redisHash), ourRank(canonical), () -> "rank of " + Long.toHexString(redisHash));
    }

    @Test
    void everyEdgeOfIndexAndRankMapsToRedissRegisterAndRank() {
        List<Long> edges = new ArrayList<>(List.of(0L, -1L, 0x3FFFL, ~0x3FFFL, 1L << 14, 1L << 63, Long.MAX_VALUE));
        for (int bit = 0; bit < Long.SIZE; bit++) {
            edges.add(1L << bit);
            edges.add(~(1L << bit));
            edges.add((1L << bit) | 0x3FFF);
            edges.add((1L << bit) | 0x2A5A);
            edges.add(-1L << bit);
        }
        for (long edge : edges) {
            assertSameRegisterAndRank(edge);
        }
        assertEquals(51, ourRank(RedisKeyHasher.canonical(0x1234)), "no bit above the index: the largest rank");
        assertEquals(1, ourRank(RedisKeyHasher.canonical(1L << 14)), "bit 14 set: rank 1");
        assertEquals(50, ourRank(RedisKeyHasher.canonical(1L << 63)), "only bit 63: 49 zeros, rank 50");
    }

    @Test
    void everyHashMapsToRedissRegisterAndRank() {
        qt().withFixedSeed(41L)
                .withExamples(20_000)
                .forAll(longs().all())
                .checkAssert(RedisKeyHasherTest::assertSameRegisterAndRank);
    }

    @Test
    void longsHashAsTheirDecimalStrings() {
        KeyHasher hasher = KeyHasher.of(HashScheme.REDIS_HLL, SEED);
        List<Long> keys = new ArrayList<>(List.of(0L, -1L, 1L, 9L, 10L, -10L, Long.MIN_VALUE, Long.MAX_VALUE));
        for (long power = 1; power > 0 && power < Long.MAX_VALUE / 10; power *= 10) {
            keys.addAll(List.of(power, power - 1, -power, 1 - power));
        }
        for (long key : keys) {
            byte[] digits = Long.toString(key).getBytes(StandardCharsets.US_ASCII);
            long expected =
                    RedisKeyHasher.canonical(MurmurHash64A.hash(MemorySegment.ofArray(digits), 0, digits.length, SEED));
            assertEquals(expected, hasher.hash(key), () -> "key " + key);
        }
        qt().withFixedSeed(43L).withExamples(3_000).forAll(longs().all()).checkAssert(key -> {
            byte[] digits = Long.toString(key).getBytes(StandardCharsets.US_ASCII);
            assertEquals(hasher.hash(digits, 0, digits.length), hasher.hash(key));
            assertEquals(hasher.hash(Long.toString(key)), hasher.hash(key));
        });
    }

    @Test
    void stringsSegmentsAndBytesOfTheSameBytesHashAlike() {
        KeyHasher hasher = KeyHasher.of(HashScheme.REDIS_HLL, SEED);
        qt().withFixedSeed(47L)
                .withExamples(1_000)
                .forAll(
                        strings().basicMultilingualPlaneAlphabet().ofLengthBetween(0, 100),
                        integers().between(0, 9))
                .checkAssert((text, pad) -> {
                    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
                    long expected = RedisKeyHasher.canonical(
                            MurmurHash64A.hash(MemorySegment.ofArray(utf8), 0, utf8.length, SEED));
                    assertEquals(expected, hasher.hash(text));
                    byte[] padded = new byte[pad + utf8.length + 3];
                    System.arraycopy(utf8, 0, padded, pad, utf8.length);
                    assertEquals(expected, hasher.hash(padded, pad, utf8.length));
                    assertEquals(expected, hasher.hash(MemorySegment.ofArray(padded), pad, utf8.length));
                });
    }

    @Test
    void batchesHashAsSingleKeys() {
        KeyHasher hasher = KeyHasher.of(HashScheme.REDIS_HLL, SEED);
        long[] keys = new long[KeyHasher.BATCH * 2 + 37];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = i * 0x9E3779B97F4A7C15L;
        }
        long[] batched = new long[keys.length];
        hasher.forEachBatch(keys, (hashes, first, count) -> System.arraycopy(hashes, 0, batched, (int) first, count));
        long[] single = Arrays.stream(keys).map(hasher::hash).toArray();
        assertEquals(Arrays.toString(single), Arrays.toString(batched));

        MemorySegment segment = MemorySegment.ofArray(new byte[keys.length * Long.BYTES + 3]);
        for (int i = 0; i < keys.length; i++) {
            segment.set(KeyHasher.KEY_LAYOUT, 3 + (long) i * Long.BYTES, keys[i]);
        }
        long[] fromSegment = new long[keys.length];
        hasher.forEachBatch(
                segment,
                3,
                keys.length,
                (hashes, first, count) -> System.arraycopy(hashes, 0, fromSegment, (int) first, count));
        assertEquals(Arrays.toString(single), Arrays.toString(fromSegment));

        byte[] data = "onetwothree".getBytes(StandardCharsets.US_ASCII);
        long[] fromBytes = new long[3];
        hasher.forEachBatch(
                data,
                new int[] {0, 3, 6},
                new int[] {3, 3, 5},
                3,
                (hashes, first, count) -> System.arraycopy(hashes, 0, fromBytes, (int) first, count));
        assertEquals(hasher.hash("one"), fromBytes[0]);
        assertEquals(hasher.hash("three"), fromBytes[2]);
    }

    @Test
    void theNativeSchemeIsUnchangedByTheFactory() {
        KeyHasher xxh3 = KeyHasher.of(HashScheme.XXH3_64, 7);
        assertEquals(io.mapsketch.kernels.HashKernels.xxh3(7, 42), xxh3.hash(42L));
        assertEquals(KeyHasher.xxh3(7).hash("x"), xxh3.hash("x"));
    }
}
