package io.mapsketch.interop;

import static io.mapsketch.interop.ForeignKeys.written;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.hash.Funnels;
import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.BloomProbing;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The entry points of Guava's and Spark's formats, on real files: the origin's bytes import into a file
 * that reopens with the origin's probes or counters, takes more keys as the origin does, and exports to
 * the bytes the origin writes after the same keys; bad bytes are refused naming the file, the offset and
 * the fault, and leave no file behind.
 */
class ForeignEntryPointsTest {

    @TempDir
    Path directory;

    @Test
    void aGuavaFilterOfEitherFunnelRoundTrips() throws IOException {
        var strings =
                com.google.common.hash.BloomFilter.create(Funnels.stringFunnel(StandardCharsets.UTF_8), 500, 0.01);
        var longs = com.google.common.hash.BloomFilter.create(Funnels.longFunnel(), 500, 0.01);
        for (int i = 0; i < 300; i++) {
            strings.put("key-" + i);
            longs.put((long) i * 7919);
        }
        Path stringsBytes = write("strings.guava", written(strings::writeTo));
        Path imported = directory.resolve("strings.sketch");
        try (BloomFilter filter =
                GuavaBloomFilter.importFrom(stringsBytes, GuavaBloomFilter.Funnel.UTF8, imported, OpenMode.SHARED)) {
            assertEquals(BloomProbing.GUAVA_UTF8, filter.probing());
        }
        try (BloomFilter filter = (BloomFilter) Sketch.open(imported, OpenMode.EXCLUSIVE)) {
            for (int i = 0; i < 600; i++) {
                assertEquals(strings.mightContain("key-" + i), filter.mightContain("key-" + i));
            }
            for (int i = 300; i < 400; i++) {
                strings.put("key-" + i);
                filter.add("key-" + i);
            }
            Path exported = directory.resolve("strings.out");
            GuavaBloomFilter.exportTo(filter, exported);
            assertArrayEquals(written(strings::writeTo), Files.readAllBytes(exported));
        }
        try (BloomFilter filter = GuavaBloomFilter.importFrom(
                written(longs::writeTo),
                GuavaBloomFilter.Funnel.LONG,
                directory.resolve("longs"),
                OpenMode.EXCLUSIVE)) {
            filter.add(-5L);
            longs.put(-5L);
            assertArrayEquals(written(longs::writeTo), GuavaBloomFilter.exportTo(filter));
        }
    }

    @Test
    void sparkFiltersOfBothVersionsRoundTrip() throws IOException {
        for (var version : org.apache.spark.util.sketch.BloomFilter.Version.values()) {
            var spark = org.apache.spark.util.sketch.BloomFilter.create(version, 400, 8_000, 31);
            for (int i = 0; i < 200; i++) {
                spark.putString("s" + i);
                spark.putLong(i);
            }
            Path source = write("spark-" + version, written(spark::writeTo));
            try (BloomFilter filter =
                    SparkBloomFilter.importFrom(source, directory.resolve(version + ".sketch"), OpenMode.SHARED)) {
                for (int i = 0; i < 400; i++) {
                    assertEquals(spark.mightContainString("s" + i), filter.mightContain("s" + i));
                    assertEquals(spark.mightContainLong(i), filter.mightContain((long) i));
                }
                spark.putString("more");
                filter.add("more");
                assertArrayEquals(written(spark::writeTo), SparkBloomFilter.exportTo(filter), version.toString());
            }
        }
    }

    @Test
    void aSparkCountMinSketchRoundTripsWithItsSeedFound() throws IOException {
        SplittableRandom random = new SplittableRandom(21);
        for (int seed : new int[] {0, 1, -1, 42, Integer.MIN_VALUE, Integer.MAX_VALUE, random.nextInt()}) {
            var spark = org.apache.spark.util.sketch.CountMinSketch.create(6, 97, seed);
            for (int i = 0; i < 500; i++) {
                spark.add("k" + (i % 37), 1 + i % 3);
                spark.addLong(i % 11, 2);
            }
            Path source = write("cms-" + seed, written(spark::writeTo));
            Path imported = directory.resolve("cms-" + seed + ".sketch");
            try (CountMinSketch sketch = SparkCountMinSketch.importFrom(source, imported, OpenMode.SHARED)) {
                assertTrue(sketch.hashesAsSpark());
                assertEquals(seed, (int) sketch.hashSeed());
                assertEquals(spark.totalCount(), sketch.totalWeight());
            }
            try (CountMinSketch sketch = CountMinSketch.open(imported, OpenMode.EXCLUSIVE)) {
                for (int i = 0; i < 40; i++) {
                    assertEquals(spark.estimateCount("k" + i), sketch.estimate("k" + i));
                    assertEquals(spark.estimateCount((long) i), sketch.estimate((long) i));
                }
                spark.add("late", 5);
                sketch.add("late", 5);
                Path exported = directory.resolve("cms-" + seed + ".out");
                SparkCountMinSketch.exportTo(sketch, exported);
                assertArrayEquals(written(spark::writeTo), Files.readAllBytes(exported));
            }
        }
    }

    @Test
    void badBytesAreRefusedNamingFileOffsetAndFaultAndWriteNothing() throws IOException {
        var guava = com.google.common.hash.BloomFilter.create(Funnels.longFunnel(), 100, 0.01);
        byte[] bytes = written(guava::writeTo);
        Path truncated = write("truncated", Arrays.copyOf(bytes, bytes.length - 3));
        Path target = directory.resolve("never.sketch");
        ForeignSketchException refused = assertThrows(
                ForeignSketchException.class,
                () -> GuavaBloomFilter.importFrom(truncated, GuavaBloomFilter.Funnel.LONG, target, OpenMode.SHARED));
        assertEquals(truncated, refused.file());
        assertEquals(bytes.length - 3, refused.offset());
        assertTrue(
                refused.getMessage().startsWith(truncated + ": not a guava-bloom sketch: at byte "),
                refused.getMessage());

        byte[] manyProbes = bytes.clone();
        manyProbes[1] = (byte) 65;
        refused = assertThrows(
                ForeignSketchException.class,
                () -> GuavaBloomFilter.importFrom(manyProbes, GuavaBloomFilter.Funnel.LONG, target, OpenMode.SHARED));
        assertEquals(1, refused.offset());
        assertTrue(refused.getMessage().contains("65 hash functions"), refused.getMessage());

        var spark = org.apache.spark.util.sketch.CountMinSketch.create(3, 10, 5);
        byte[] cms = written(spark::writeTo);
        cms[27] ^= 1;
        Path forged = write("forged-cms", cms);
        refused = assertThrows(
                ForeignSketchException.class, () -> SparkCountMinSketch.importFrom(forged, target, OpenMode.SHARED));
        assertEquals(20, refused.offset());
        assertEquals(forged, refused.file());
        assertFalse(Files.exists(target));
        try (var listing = Files.list(directory)) {
            assertTrue(listing.noneMatch(p -> p.getFileName().toString().contains("never")));
        }
    }

    @Test
    void aSketchOfMapsketchsOwnHashingDoesNotExport() throws IOException {
        try (BloomFilter filter = BloomFilter.builder()
                        .expectedItems(10)
                        .falsePositiveRate(0.01)
                        .createAnonymous(OpenMode.EXCLUSIVE);
                CountMinSketch sketch =
                        CountMinSketch.builder().epsilon(0.01).delta(0.01).createAnonymous(OpenMode.EXCLUSIVE)) {
            assertThrows(IllegalArgumentException.class, () -> GuavaBloomFilter.exportTo(filter));
            assertThrows(IllegalArgumentException.class, () -> SparkBloomFilter.exportTo(filter));
            assertThrows(IllegalArgumentException.class, () -> SparkCountMinSketch.exportTo(sketch));
        }
    }

    private Path write(String name, byte[] bytes) throws IOException {
        return Files.write(directory.resolve(name), bytes);
    }
}
