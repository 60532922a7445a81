package io.mapsketch.interop;

import static io.mapsketch.interop.ForeignKeys.written;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.common.hash.Funnels;
import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.SeededKeys;
import io.mapsketch.enginetesting.Zipf;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.membership.BloomFilter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The origins themselves at scale: 10^6 keys added to the real library's sketch and to the mapsketch
 * file imported from its empty bytes, then 10^6 of those keys and 10^6 others looked up in both, with
 * no disagreement; the export is the library's own bytes, and the library reads it back equal to its
 * sketch. Count-Min on a Zipf stream: every estimate and the total equal Spark's.
 */
class OriginAgreementTest {

    private static final int KEYS = 1_000_000;

    @TempDir
    Path directory;

    @Test
    void guavaUtf8Funnel() throws IOException {
        long[] present = SeededKeys.of(0x6775_6176_6131L, KEYS);
        long[] absent = SeededKeys.of(0x6775_6176_6132L, KEYS);
        var guava = com.google.common.hash.BloomFilter.create(Funnels.stringFunnel(StandardCharsets.UTF_8), KEYS, 0.01);
        try (BloomFilter ours = GuavaBloomFilter.importFrom(
                written(guava::writeTo), GuavaBloomFilter.Funnel.UTF8, directory.resolve("utf8"), OpenMode.EXCLUSIVE)) {
            for (long key : present) {
                String text = Long.toHexString(key);
                guava.put(text);
                ours.add(text);
            }
            int disagreements = 0;
            for (long[] keys : new long[][] {present, absent}) {
                for (long key : keys) {
                    String text = Long.toHexString(key);
                    disagreements += guava.mightContain(text) == ours.mightContain(text) ? 0 : 1;
                }
            }
            assertEquals(0, disagreements);
            byte[] exported = GuavaBloomFilter.exportTo(ours);
            assertArrayEquals(written(guava::writeTo), exported);
            assertEquals(
                    guava,
                    com.google.common.hash.BloomFilter.readFrom(
                            new ByteArrayInputStream(exported), Funnels.stringFunnel(StandardCharsets.UTF_8)));
        }
    }

    @Test
    void guavaLongFunnel() throws IOException {
        long[] present = SeededKeys.of(0x6775_6176_6133L, KEYS);
        long[] absent = SeededKeys.of(0x6775_6176_6134L, KEYS);
        var guava = com.google.common.hash.BloomFilter.create(Funnels.longFunnel(), KEYS, 0.01);
        try (BloomFilter ours = GuavaBloomFilter.importFrom(
                written(guava::writeTo), GuavaBloomFilter.Funnel.LONG, directory.resolve("long"), OpenMode.EXCLUSIVE)) {
            for (long key : present) {
                guava.put(key);
            }
            ours.addAll(present);
            assertEquals(0, disagreements(guava, ours, present) + disagreements(guava, ours, absent));
            byte[] exported = GuavaBloomFilter.exportTo(ours);
            assertArrayEquals(written(guava::writeTo), exported);
            assertEquals(
                    guava,
                    com.google.common.hash.BloomFilter.readFrom(
                            new ByteArrayInputStream(exported), Funnels.longFunnel()));
        }
    }

    private static int disagreements(com.google.common.hash.BloomFilter<Long> guava, BloomFilter ours, long[] keys) {
        boolean[] answers = new boolean[keys.length];
        ours.mightContainAll(keys, answers);
        int disagreements = 0;
        for (int i = 0; i < keys.length; i++) {
            disagreements += guava.mightContain(keys[i]) == answers[i] ? 0 : 1;
        }
        return disagreements;
    }

    @Test
    void sparkBloomFiltersOfBothVersions() throws IOException {
        long[] present = SeededKeys.of(0x7370_6172_6b31L, KEYS);
        long[] absent = SeededKeys.of(0x7370_6172_6b32L, KEYS);
        for (var version : org.apache.spark.util.sketch.BloomFilter.Version.values()) {
            var spark = org.apache.spark.util.sketch.BloomFilter.create(
                    version, KEYS, org.apache.spark.util.sketch.BloomFilter.optimalNumOfBits(KEYS, 0.01), 0x5eed);
            try (BloomFilter ours = SparkBloomFilter.importFrom(
                    written(spark::writeTo), directory.resolve("spark-" + version), OpenMode.EXCLUSIVE)) {
                for (int i = 0; i < KEYS; i++) {
                    if (i % 2 == 0) {
                        spark.putLong(present[i]);
                        ours.add(present[i]);
                    } else {
                        String text = Long.toString(present[i], 36);
                        spark.putString(text);
                        ours.add(text);
                    }
                }
                int disagreements = 0;
                for (long[] keys : new long[][] {present, absent}) {
                    for (int i = 0; i < KEYS; i++) {
                        String text = Long.toString(keys[i], 36);
                        disagreements += spark.mightContainLong(keys[i]) == ours.mightContain(keys[i]) ? 0 : 1;
                        disagreements += spark.mightContainString(text) == ours.mightContain(text) ? 0 : 1;
                    }
                }
                assertEquals(0, disagreements, version.toString());
                byte[] exported = SparkBloomFilter.exportTo(ours);
                assertArrayEquals(written(spark::writeTo), exported, version.toString());
                assertEquals(spark, org.apache.spark.util.sketch.BloomFilter.readFrom(exported), version.toString());
            }
        }
    }

    @Test
    void sparkCountMinOnAZipfStream() throws IOException {
        int ranks = 100_000;
        Zipf zipf = new Zipf(ranks, 1.1, 0x7a69_7066L);
        var spark = org.apache.spark.util.sketch.CountMinSketch.create(0.0005, 0.999, 77);
        try (CountMinSketch ours =
                SparkCountMinSketch.importFrom(written(spark::writeTo), directory.resolve("cms"), OpenMode.EXCLUSIVE)) {
            for (int i = 0; i < KEYS; i++) {
                int rank = zipf.next();
                if (rank % 2 == 0) {
                    spark.addLong(rank);
                    ours.add((long) rank);
                } else {
                    String item = "item-" + rank;
                    spark.addString(item);
                    ours.add(item);
                }
            }
            assertEquals(spark.totalCount(), ours.totalWeight());
            int disagreements = 0;
            for (int rank = 0; rank < 2 * ranks; rank++) {
                disagreements += spark.estimateCount((long) rank) == ours.estimate((long) rank) ? 0 : 1;
                disagreements += spark.estimateCount("item-" + rank) == ours.estimate("item-" + rank) ? 0 : 1;
            }
            assertEquals(0, disagreements);
            byte[] exported = SparkCountMinSketch.exportTo(ours);
            assertArrayEquals(written(spark::writeTo), exported);
            assertEquals(spark, org.apache.spark.util.sketch.CountMinSketch.readFrom(exported));
        }
    }
}
