package io.mapsketch.jmh;

import static io.mapsketch.jmh.BenchmarkSettings.BLOOM_FALSE_POSITIVE_RATE;
import static io.mapsketch.jmh.BenchmarkSettings.CUCKOO_FALSE_POSITIVE_RATE;
import static io.mapsketch.jmh.BenchmarkSettings.FASTFILTER_BITS_PER_KEY;
import static io.mapsketch.jmh.BenchmarkSettings.SKETCH_SEED;

import com.google.common.hash.Funnels;
import io.mapsketch.OpenMode;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.CuckooFilter;
import io.mapsketch.membership.CuckooSizing;
import java.io.IOException;
import org.apache.datasketches.filters.bloomfilter.BloomFilterBuilder;
import org.fastfilter.bloom.BlockedBloom;
import org.fastfilter.cuckoo.Cuckoo16;

/** The membership rows of {@link MemoryFootprint}: the Bloom filters and the cuckoo filters. */
final class MembershipFootprint {

    private static final String QUESTION = "membership";
    private static final int BLOOM_ITEMS = 1_000_000;
    private static final int CUCKOO_ITEMS = 943_718;

    private MembershipFootprint() {}

    /**
     * Measures every filter at the Bloom and the cuckoo benchmarks' settings.
     *
     * @param recorder where the rows go
     * @throws IOException if a sketch file cannot be created, measured or deleted
     */
    static void measure(FootprintRecorder recorder) throws IOException {
        String setting = "1,000,000 keys at 1% FPR";
        long[] keys = FootprintRecorder.keys(0, BLOOM_ITEMS);
        recorder.mapsketch(
                QUESTION,
                setting,
                "mapsketch-blocked",
                file -> BlockedBloomFilter.builder()
                        .expectedItems(BLOOM_ITEMS)
                        .falsePositiveRate(BLOOM_FALSE_POSITIVE_RATE)
                        .seed(SKETCH_SEED)
                        .create(file, OpenMode.EXCLUSIVE),
                filter -> filter.addAll(keys));
        recorder.mapsketch(
                QUESTION,
                setting,
                "mapsketch-classic",
                file -> BloomFilter.builder()
                        .expectedItems(BLOOM_ITEMS)
                        .falsePositiveRate(BLOOM_FALSE_POSITIVE_RATE)
                        .seed(SKETCH_SEED)
                        .create(file, OpenMode.EXCLUSIVE),
                filter -> filter.addAll(keys));

        com.google.common.hash.BloomFilter<Long> guava =
                com.google.common.hash.BloomFilter.create(Funnels.longFunnel(), BLOOM_ITEMS, BLOOM_FALSE_POSITIVE_RATE);
        for (long key : keys) {
            guava.put(key);
        }
        recorder.add(
                QUESTION, setting, "guava", FootprintRecorder.written(guava::writeTo), "writeTo: serialized bytes", "");

        org.apache.datasketches.filters.bloomfilter.BloomFilter datasketches =
                BloomFilterBuilder.createByAccuracy(BLOOM_ITEMS, BLOOM_FALSE_POSITIVE_RATE, SKETCH_SEED);
        for (long key : keys) {
            datasketches.update(key);
        }
        recorder.add(
                QUESTION,
                setting,
                "datasketches",
                datasketches.getSerializedSizeBytes(),
                "getSerializedSizeBytes()",
                "");

        BlockedBloom fastfilter = PeerConstructors.fastfilterBlockedBloom(BLOOM_ITEMS);
        for (long key : keys) {
            fastfilter.add(key);
        }
        recorder.add(
                QUESTION,
                setting,
                "fastfilter-blocked",
                fastfilter.getBitCount() / Byte.SIZE,
                "getBitCount() / 8 (no serializer)",
                FASTFILTER_BITS_PER_KEY + " bits per key, the fewest that keep it at or below 1%");

        org.apache.spark.util.sketch.BloomFilter spark =
                org.apache.spark.util.sketch.BloomFilter.create(BLOOM_ITEMS, BLOOM_FALSE_POSITIVE_RATE);
        for (long key : keys) {
            spark.putLong(key);
        }
        recorder.add(
                QUESTION, setting, "spark", FootprintRecorder.written(spark::writeTo), "writeTo: serialized bytes", "");

        String cuckoo = "cuckoo: 943,718 keys at 0.1% FPR (90% of 2^18 buckets of four)";
        long[] cuckooKeys = FootprintRecorder.keys(0, CUCKOO_ITEMS);
        recorder.mapsketch(
                QUESTION,
                cuckoo,
                "mapsketch",
                file -> CuckooFilter.builder()
                        .expectedItems(CUCKOO_ITEMS)
                        .falsePositiveRate(CUCKOO_FALSE_POSITIVE_RATE)
                        .seed(SKETCH_SEED)
                        .create(file, OpenMode.EXCLUSIVE),
                filter -> filter.addAll(cuckooKeys));
        Cuckoo16 cuckoo16 =
                new Cuckoo16(Math.toIntExact(CuckooSizing.buckets(CUCKOO_ITEMS) * CuckooSizing.BUCKET_SIZE));
        for (long key : cuckooKeys) {
            cuckoo16.insert(key);
        }
        recorder.add(
                QUESTION,
                cuckoo,
                "fastfilter-cuckoo16",
                cuckoo16.getBitCount() / Byte.SIZE,
                "getBitCount() / 8 (no serializer)",
                "new Cuckoo16(slots): the same buckets as mapsketch's");
    }
}
