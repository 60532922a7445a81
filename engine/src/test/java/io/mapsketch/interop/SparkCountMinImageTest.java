package io.mapsketch.interop;

import static io.mapsketch.interop.ForeignKeys.QT_SEED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.mapsketch.internal.SparkCountMinBuckets;
import io.mapsketch.internal.SparkHashes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.function.IntUnaryOperator;
import org.apache.spark.util.sketch.CountMinSketch;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * Spark's own Count-Min sketches, of generated depth, width and seed, fed generated longs, ints,
 * strings and byte arrays and written with {@code writeTo}: the image holds Spark's
 * multipliers (those {@link SparkCountMinBuckets#hashA} draws from the seed) and counters (exactly
 * those {@link SparkCountMinBuckets} places the items in), writing the image gives Spark's bytes
 * back, and Spark's {@code readFrom} of those bytes equals its sketch.
 */
class SparkCountMinImageTest {

    @Test
    void integralItems() {
        qt().withFixedSeed(QT_SEED + 20)
                .withExamples(150)
                .forAll(
                        ForeignKeys.longLists(300),
                        ForeignKeys.intLists(100),
                        shapes(),
                        integers().all())
                .checkAssert((longs, ints, shape, seed) -> {
                    int depth = shape[0];
                    int width = shape[1];
                    CountMinSketch spark = CountMinSketch.create(depth, width, seed);
                    long[] expected = new long[depth * width];
                    long[] hashA = SparkCountMinBuckets.hashA(seed, depth);
                    for (int i = 0; i < longs.size(); i++) {
                        long count = 1 + i % 5;
                        spark.addLong(longs.get(i), count);
                        for (int row = 0; row < depth; row++) {
                            expected[row * width + SparkCountMinBuckets.longBucket(hashA[row], longs.get(i), width)] +=
                                    count;
                        }
                    }
                    for (int item : ints) {
                        spark.add(item);
                        for (int row = 0; row < depth; row++) {
                            expected[row * width + SparkCountMinBuckets.longBucket(hashA[row], item, width)]++;
                        }
                    }
                    SparkCountMinImage image = check(spark, hashA, expected);
                    for (long item : longs) {
                        assertEquals(
                                spark.estimateCount(item),
                                estimate(
                                        image,
                                        row -> SparkCountMinBuckets.longBucket(
                                                image.hashA().get(row), item, image.width())));
                    }
                });
    }

    @Test
    void stringAndByteArrayItems() {
        qt().withFixedSeed(QT_SEED + 21)
                .withExamples(150)
                .forAll(
                        ForeignKeys.stringLists(200),
                        ForeignKeys.byteArrayLists(200),
                        shapes(),
                        integers().all())
                .checkAssert((strings, arrays, shape, seed) -> {
                    int depth = shape[0];
                    int width = shape[1];
                    CountMinSketch spark = CountMinSketch.create(depth, width, seed);
                    long[] expected = new long[depth * width];
                    for (String item : strings) {
                        spark.addString(item);
                        count(expected, utf8Pair(item), depth, width);
                    }
                    for (byte[] item : arrays) {
                        spark.addBinary(item, 3);
                        long pair = SparkHashes.pairOfBytes(0, MemorySegment.ofArray(item), 0, item.length);
                        for (int i = 0; i < 3; i++) {
                            count(expected, pair, depth, width);
                        }
                    }
                    SparkCountMinImage image = check(spark, SparkCountMinBuckets.hashA(seed, depth), expected);
                    for (String item : strings) {
                        long pair = utf8Pair(item);
                        assertEquals(
                                spark.estimateCount(item),
                                estimate(image, row -> SparkCountMinBuckets.bytesBucket(pair, row, image.width())));
                    }
                });
    }

    @Test
    void sketchesSizedByErrorAndConfidenceRoundTrip() {
        qt().withFixedSeed(QT_SEED + 22)
                .withExamples(50)
                .forAll(
                        ForeignKeys.longLists(200),
                        integers().between(1, 100),
                        integers().between(50, 99),
                        integers().all())
                .checkAssert((longs, permille, percent, seed) -> {
                    CountMinSketch spark = CountMinSketch.create(permille / 1000.0, percent / 100.0, seed);
                    longs.forEach(spark::addLong);
                    byte[] bytes = ForeignKeys.written(spark::writeTo);
                    SparkCountMinImage image = parse(bytes);
                    assertEquals(spark.depth(), image.depth());
                    assertEquals(spark.width(), image.width());
                    assertArrayEquals(bytes, image.toBytes());
                });
    }

    /** Depth (1 to 12) and width (1 to 3,000) of a sketch. */
    private static Gen<int[]> shapes() {
        return integers().between(1, 12).zip(integers().between(1, 3_000), (depth, width) -> new int[] {depth, width});
    }

    private static SparkCountMinImage check(CountMinSketch spark, long[] hashA, long[] expected) {
        byte[] bytes = ForeignKeys.written(spark::writeTo);
        SparkCountMinImage image = parse(bytes);
        assertEquals(spark.totalCount(), image.totalCount());
        assertEquals(spark.depth(), image.depth());
        assertEquals(spark.width(), image.width());
        assertEquals(ImmutableLongArray.copyOf(hashA), image.hashA());
        assertEquals(ImmutableLongArray.copyOf(expected), image.table());
        byte[] rewritten = image.toBytes();
        assertArrayEquals(bytes, rewritten);
        try {
            assertEquals(spark, CountMinSketch.readFrom(rewritten));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return image;
    }

    private static SparkCountMinImage parse(byte[] bytes) {
        try {
            return SparkCountMinImage.parse(bytes);
        } catch (ForeignSketchException e) {
            throw new AssertionError(e);
        }
    }

    private static long utf8Pair(String item) {
        byte[] utf8 = item.getBytes(StandardCharsets.UTF_8);
        return SparkHashes.pairOfBytes(0, MemorySegment.ofArray(utf8), 0, utf8.length);
    }

    private static void count(long[] table, long pair, int depth, int width) {
        for (int row = 0; row < depth; row++) {
            table[row * width + SparkCountMinBuckets.bytesBucket(pair, row, width)]++;
        }
    }

    /** The smallest counter of an item's columns, Spark's estimate. */
    private static long estimate(SparkCountMinImage image, IntUnaryOperator column) {
        long min = Long.MAX_VALUE;
        for (int row = 0; row < image.depth(); row++) {
            min = Math.min(min, image.counter(row, column.applyAsInt(row)));
        }
        return min;
    }
}
