package io.mapsketch.interop;

import static io.mapsketch.interop.ForeignKeys.QT_SEED;
import static io.mapsketch.interop.ForeignKeys.written;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.mapsketch.OpenMode;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.BloomProbing;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Mapsketch sketches of Spark's scheme, made empty at the shape and seed of a Spark sketch and fed the
 * same generated keys in every key form: a Bloom filter of version 1 or 2 has Spark's bits and answers
 * Spark's {@code mightContain}; a Count-Min sketch has Spark's counters and total and answers Spark's
 * {@code estimateCount}.
 */
class SparkProbesTest {

    private static final int EXAMPLES = 60;

    @Test
    void bloomFiltersOfBothVersionsOnEveryKeyForm() {
        qt().withFixedSeed(QT_SEED + 200)
                .withExamples(EXAMPLES)
                .forAll(
                        ForeignKeys.stringLists(150),
                        ForeignKeys.longLists(150),
                        ForeignKeys.byteArrayLists(150),
                        integers().between(1, 2_000).zip(integers().all(), (n, s) -> new int[] {n, s}))
                .checkAssert((strings, longs, arrays, sizeAndSeed) -> {
                    int expected = sizeAndSeed[0];
                    int seed = sizeAndSeed[1];
                    long bits = org.apache.spark.util.sketch.BloomFilter.optimalNumOfBits(expected, 0.03);
                    for (var version : org.apache.spark.util.sketch.BloomFilter.Version.values()) {
                        var spark = org.apache.spark.util.sketch.BloomFilter.create(version, expected, bits, seed);
                        strings.forEach(spark::putString);
                        longs.forEach(spark::putLong);
                        arrays.forEach(spark::putBinary);
                        SparkBloomImage image = bloomImage(spark);
                        BloomProbing probing = image.version() == 1 ? BloomProbing.SPARK_V1 : BloomProbing.SPARK_V2;
                        try (BloomFilter ours = BloomFilter.builder()
                                .foreignImage(
                                        probing,
                                        image.hashFunctions(),
                                        new long[image.words().length()])
                                .seed(image.seed())
                                .createAnonymous(OpenMode.EXCLUSIVE)) {
                            for (int i = 0; i < strings.size(); i++) {
                                byte[] utf8 = strings.get(i).getBytes(StandardCharsets.UTF_8);
                                switch (i % 3) {
                                    case 0 -> ours.add(strings.get(i));
                                    case 1 -> ours.add(utf8, 0, utf8.length);
                                    default -> ours.add(MemorySegment.ofArray(utf8), 0, utf8.length);
                                }
                            }
                            ours.addAll(
                                    longs.stream().mapToLong(Long::longValue).toArray());
                            arrays.forEach(key -> ours.add(key, 0, key.length));
                            assertArrayEquals(image.words().toArray(), ours.words(), version.toString());
                            strings.forEach(key -> assertTrue(ours.mightContain(key)));
                            for (long key : longs) {
                                assertTrue(ours.mightContain(key));
                                assertEquals(spark.mightContainLong(~key), ours.mightContain(~key), "key " + ~key);
                            }
                            for (byte[] key : arrays) {
                                byte[] other = (new String(key, StandardCharsets.ISO_8859_1) + "x")
                                        .getBytes(StandardCharsets.ISO_8859_1);
                                assertEquals(
                                        spark.mightContainBinary(other), ours.mightContain(other, 0, other.length));
                            }
                        } catch (java.io.IOException e) {
                            throw new AssertionError(e);
                        }
                    }
                });
    }

    @Test
    void countMinSketchesOnEveryKeyForm() {
        qt().withFixedSeed(QT_SEED + 201)
                .withExamples(EXAMPLES)
                .forAll(
                        ForeignKeys.longLists(300),
                        ForeignKeys.stringLists(200),
                        ForeignKeys.byteArrayLists(100),
                        integers()
                                .between(1, 12)
                                .zip(integers().between(3, 400), (d, w) -> new int[] {d, w})
                                .zip(integers().all(), (dw, s) -> new int[] {dw[0], dw[1], s}))
                .checkAssert((longs, strings, arrays, shape) -> {
                    int depth = shape[0];
                    int width = shape[1];
                    int seed = shape[2];
                    var spark = org.apache.spark.util.sketch.CountMinSketch.create(depth, width, seed);
                    try (CountMinSketch ours = CountMinSketch.builder()
                            .dimensions(width, depth)
                            .counterBits(64)
                            .sparkHashing(seed)
                            .createAnonymous(OpenMode.EXCLUSIVE)) {
                        for (int i = 0; i < longs.size(); i++) {
                            long count = 1 + i % 7;
                            spark.addLong(longs.get(i), count);
                            if (i % 2 == 0) {
                                ours.add(longs.get(i), count);
                            } else {
                                for (long c = 0; c < count; c++) {
                                    ours.add((long) longs.get(i));
                                }
                            }
                        }
                        for (int i = 0; i < strings.size(); i++) {
                            spark.addString(strings.get(i));
                            byte[] utf8 = strings.get(i).getBytes(StandardCharsets.UTF_8);
                            switch (i % 3) {
                                case 0 -> ours.add(strings.get(i));
                                case 1 -> ours.add(utf8, 0, utf8.length);
                                default -> ours.add(MemorySegment.ofArray(utf8), 0, utf8.length);
                            }
                        }
                        arrays.forEach(spark::addBinary);
                        int[] offsets = new int[arrays.size()];
                        int[] lengths = new int[arrays.size()];
                        java.io.ByteArrayOutputStream data = new java.io.ByteArrayOutputStream();
                        for (int i = 0; i < arrays.size(); i++) {
                            offsets[i] = data.size();
                            lengths[i] = arrays.get(i).length;
                            data.writeBytes(arrays.get(i));
                        }
                        ours.addAll(data.toByteArray(), offsets, lengths, arrays.size());

                        SparkCountMinImage image = countMinImage(spark);
                        assertArrayEquals(image.table().toArray(), ours.counterTable());
                        assertEquals(spark.totalCount(), ours.totalWeight());
                        for (long key : longs) {
                            assertEquals(spark.estimateCount(key), ours.estimate(key));
                            assertEquals(spark.estimateCount(key + 1), ours.estimate(key + 1));
                        }
                        long[] batch = longs.stream().mapToLong(Long::longValue).toArray();
                        long[] estimates = new long[batch.length];
                        ours.estimateAll(batch, estimates);
                        for (int i = 0; i < batch.length; i++) {
                            assertEquals(spark.estimateCount(batch[i]), estimates[i]);
                        }
                        for (String key : strings) {
                            assertEquals(spark.estimateCount(key), ours.estimate(key));
                        }
                        for (byte[] key : arrays) {
                            assertEquals(spark.estimateCount(key), ours.estimate(key, 0, key.length));
                        }
                    } catch (java.io.IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    static SparkBloomImage bloomImage(org.apache.spark.util.sketch.BloomFilter spark) {
        try {
            return SparkBloomImage.parse(written(spark::writeTo));
        } catch (ForeignSketchException e) {
            throw new AssertionError(e);
        }
    }

    static SparkCountMinImage countMinImage(org.apache.spark.util.sketch.CountMinSketch spark) {
        try {
            return SparkCountMinImage.parse(written(spark::writeTo));
        } catch (ForeignSketchException e) {
            throw new AssertionError(e);
        }
    }
}
