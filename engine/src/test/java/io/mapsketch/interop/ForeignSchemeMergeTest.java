package io.mapsketch.interop;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.OpenMode;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.BloomProbing;
import org.junit.jupiter.api.Test;

/** Sketches merge only within one hash scheme, seed and probing; a refusal names both sides. */
class ForeignSchemeMergeTest {

    @Test
    void aBloomFilterOfAnotherSchemeIsRefusedNamingBothSchemes() {
        try (BloomFilter mapsketch = BloomFilter.builder()
                        .expectedItems(100)
                        .falsePositiveRate(0.01)
                        .createAnonymous(OpenMode.EXCLUSIVE);
                BloomFilter guava = foreign(BloomProbing.GUAVA_LONG, 0);
                BloomFilter spark = foreign(BloomProbing.SPARK_V2, 7)) {
            refused(() -> mapsketch.merge(guava), "XXH3_64", "GUAVA_MURMUR3_128");
            refused(() -> guava.merge(spark), "GUAVA_MURMUR3_128", "SPARK_MURMUR3_32");
            refused(() -> spark.merge(mapsketch), "SPARK_MURMUR3_32", "XXH3_64");
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void filtersOfOneSchemeMergeOnlyWithTheSameFunnelVersionAndSeed() throws java.io.IOException {
        try (BloomFilter utf8 = foreign(BloomProbing.GUAVA_UTF8, 0);
                BloomFilter longs = foreign(BloomProbing.GUAVA_LONG, 0);
                BloomFilter v1 = foreign(BloomProbing.SPARK_V1, 0);
                BloomFilter v2 = foreign(BloomProbing.SPARK_V2, 0);
                BloomFilter v2Seeded = foreign(BloomProbing.SPARK_V2, 9)) {
            refused(() -> utf8.merge(longs), "probe variant", "1", "2");
            refused(() -> v1.merge(v2), "probe variant", "1", "2");
            refused(() -> v2.merge(v2Seeded), "hash seed", "0", "9");
            longs.add(42L);
            BloomFilter other = foreign(BloomProbing.GUAVA_LONG, 0);
            other.merge(longs);
            assertTrue(other.mightContain(42L));
            other.close();
        }
    }

    @Test
    void aCountMinSketchOfAnotherSchemeOrSeedIsRefused() {
        try (CountMinSketch mapsketch = CountMinSketch.builder()
                        .dimensions(50, 4)
                        .counterBits(64)
                        .createAnonymous(OpenMode.EXCLUSIVE);
                CountMinSketch spark = sparkSketch(1);
                CountMinSketch otherSeed = sparkSketch(2)) {
            refused(() -> mapsketch.merge(spark), "XXH3_64", "SPARK_MURMUR3_32");
            refused(() -> spark.merge(otherSeed), "hash seed", "1", "2");
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static CountMinSketch sparkSketch(int seed) {
        return CountMinSketch.builder()
                .dimensions(50, 4)
                .counterBits(64)
                .sparkHashing(seed)
                .createAnonymous(OpenMode.EXCLUSIVE);
    }

    private static BloomFilter foreign(BloomProbing probing, long seed) {
        return BloomFilter.builder()
                .foreignImage(probing, 3, new long[4])
                .seed(seed)
                .createAnonymous(OpenMode.EXCLUSIVE);
    }

    private static void refused(Runnable merge, String... named) {
        String message =
                assertThrows(IncompatibleSketchException.class, merge::run).getMessage();
        for (String name : named) {
            assertTrue(message.contains(name), message + " does not name " + name);
        }
    }
}
