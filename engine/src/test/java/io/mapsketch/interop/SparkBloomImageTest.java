package io.mapsketch.interop;

import static io.mapsketch.interop.ForeignKeys.QT_SEED;
import static io.mapsketch.interop.ForeignKeys.setBit;
import static io.mapsketch.interop.ForeignKeys.written;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.mapsketch.internal.SparkBloomIndexes;
import io.mapsketch.internal.SparkHashes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.ToLongBiFunction;
import org.apache.spark.util.sketch.BloomFilter;
import org.junit.jupiter.api.Test;

/**
 * Spark's own Bloom filters, versions 1 and 2 (with generated seeds), built from generated strings,
 * byte arrays, longs and ints and written with {@code writeTo}: the image holds Spark's words, the
 * set bits are exactly those {@link SparkBloomIndexes} computes from the keys' {@link SparkHashes}
 * pairs, writing the image gives Spark's bytes back, and Spark's {@code readFrom} of those bytes
 * equals its filter.
 */
class SparkBloomImageTest {

    private static final int EXAMPLES = 100;

    @Test
    void stringKeys() {
        qt().withFixedSeed(QT_SEED + 10)
                .withExamples(EXAMPLES)
                .forAll(
                        ForeignKeys.stringLists(300),
                        integers().between(1, 2_000),
                        integers().between(1, 30),
                        integers().all())
                .checkAssert((keys, expected, percent, seed) ->
                        checkBothVersions(keys, expected, percent, seed, BloomFilter::putString, (key, s) -> {
                            byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
                            return SparkHashes.pairOfBytes(s, MemorySegment.ofArray(utf8), 0, utf8.length);
                        }));
    }

    @Test
    void byteArrayKeys() {
        qt().withFixedSeed(QT_SEED + 11)
                .withExamples(EXAMPLES)
                .forAll(
                        ForeignKeys.byteArrayLists(300),
                        integers().between(1, 2_000),
                        integers().between(1, 30),
                        integers().all())
                .checkAssert((keys, expected, percent, seed) -> checkBothVersions(
                        keys,
                        expected,
                        percent,
                        seed,
                        BloomFilter::putBinary,
                        (key, s) -> SparkHashes.pairOfBytes(s, MemorySegment.ofArray(key), 0, key.length)));
    }

    @Test
    void longKeys() {
        qt().withFixedSeed(QT_SEED + 12)
                .withExamples(EXAMPLES)
                .forAll(
                        ForeignKeys.longLists(300),
                        integers().between(1, 2_000),
                        integers().between(1, 30),
                        integers().all())
                .checkAssert((keys, expected, percent, seed) -> checkBothVersions(
                        keys,
                        expected,
                        percent,
                        seed,
                        BloomFilter::putLong,
                        (key, s) -> SparkHashes.pairOfLong(s, key)));
    }

    @Test
    void intKeysAreHashedAsTheirLongs() {
        qt().withFixedSeed(QT_SEED + 13)
                .withExamples(EXAMPLES)
                .forAll(
                        ForeignKeys.intLists(300),
                        integers().between(1, 2_000),
                        integers().between(1, 30),
                        integers().all())
                .checkAssert((keys, expected, percent, seed) -> checkBothVersions(
                        keys, expected, percent, seed, BloomFilter::put, (key, s) -> SparkHashes.pairOfLong(s, key)));
    }

    @Test
    void aVersionOneImageHasNoSeed() {
        ImmutableLongArray word = ImmutableLongArray.copyOf(1);
        assertThrows(IllegalArgumentException.class, () -> new SparkBloomImage(1, 3, 5, word));
        assertEquals(12 + 8, new SparkBloomImage(1, 3, 0, word).byteSize());
        assertEquals(16 + 8, new SparkBloomImage(2, 3, 5, word).byteSize());
    }

    private static <T> void checkBothVersions(
            List<T> keys,
            int expected,
            int percent,
            int seed,
            BiConsumer<BloomFilter, T> put,
            ToLongBiFunction<T, Integer> pair) {
        long bits = BloomFilter.optimalNumOfBits(expected, percent / 100.0);
        assertEquals(0, check(BloomFilter.create(BloomFilter.Version.V1, expected, bits, seed), 1, keys, put, pair));
        assertEquals(seed, check(BloomFilter.create(BloomFilter.Version.V2, expected, bits, seed), 2, keys, put, pair));
    }

    /** Checks one filter and returns the seed its image holds. */
    private static <T> int check(
            BloomFilter spark,
            int version,
            List<T> keys,
            BiConsumer<BloomFilter, T> put,
            ToLongBiFunction<T, Integer> pair) {
        keys.forEach(key -> put.accept(spark, key));
        byte[] bytes = written(spark::writeTo);
        SparkBloomImage image;
        try {
            image = SparkBloomImage.parse(bytes);
        } catch (ForeignSketchException e) {
            throw new AssertionError(e);
        }
        assertEquals(version, image.version());
        assertEquals(spark.bitSize(), image.bitSize());

        long[] words = new long[image.words().length()];
        for (T key : keys) {
            long keyPair = pair.applyAsLong(key, image.seed());
            for (int probe = 0; probe < image.hashFunctions(); probe++) {
                setBit(
                        words,
                        version == 1
                                ? SparkBloomIndexes.v1BitIndex(keyPair, probe, image.bitSize())
                                : SparkBloomIndexes.v2BitIndex(keyPair, probe, image.bitSize()));
            }
        }
        assertEquals(ImmutableLongArray.copyOf(words), image.words(), "version " + version);
        assertEquals(
                spark.cardinality(), Arrays.stream(words).map(Long::bitCount).sum());

        byte[] rewritten = image.toBytes();
        assertArrayEquals(bytes, rewritten);
        try {
            assertEquals(spark, BloomFilter.readFrom(rewritten));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return image.seed();
    }
}
