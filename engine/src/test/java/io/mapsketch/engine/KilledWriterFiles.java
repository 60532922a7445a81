package io.mapsketch.engine;

import io.mapsketch.memory.AccessMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The five sketch files that {@link KilledWriterTest} has its child writers fill and kills them
 * over: classic, blocked and counting Bloom filters, a plain Count-Min sketch and a HyperLogLog,
 * with the keys and counts of every batch.
 */
record KilledWriterFiles(BloomFilter classic, BlockedBloomFilter blocked, CountingBloomFilter counting,
        CountMinSketch countMin, HyperLogLog hyperLogLog) implements AutoCloseable {

    static final int BATCH = 512;
    private static final long CAPACITY = 1_000_000;

    static KilledWriterFiles create(Path dir) throws IOException {
        BloomFilter.builder().expectedItems(CAPACITY).falsePositiveRate(0.01).seed(3)
                .create(dir.resolve("classic.sketch"), AccessMode.EXCLUSIVE).close();
        BlockedBloomFilter.builder().expectedItems(CAPACITY).falsePositiveRate(0.01).seed(3)
                .create(dir.resolve("blocked.sketch"), AccessMode.EXCLUSIVE).close();
        CountingBloomFilter.builder().expectedItems(CAPACITY).falsePositiveRate(0.01).seed(3)
                .create(dir.resolve("counting.sketch"), AccessMode.EXCLUSIVE).close();
        CountMinSketch.builder().epsilon(0.001).delta(0.01).seed(3)
                .create(dir.resolve("countmin.sketch"), AccessMode.EXCLUSIVE).close();
        HyperLogLog.builder().precision(14).seed(3)
                .create(dir.resolve("hll.sketch"), AccessMode.EXCLUSIVE).close();
        return open(dir, AccessMode.READ_ONLY);
    }

    static KilledWriterFiles open(Path dir, AccessMode mode) throws IOException {
        return new KilledWriterFiles(BloomFilter.open(dir.resolve("classic.sketch"), mode),
                BlockedBloomFilter.open(dir.resolve("blocked.sketch"), mode),
                CountingBloomFilter.open(dir.resolve("counting.sketch"), mode),
                CountMinSketch.open(dir.resolve("countmin.sketch"), mode),
                HyperLogLog.open(dir.resolve("hll.sketch"), mode));
    }

    List<MembershipFilter> filters() {
        return List.of(classic, blocked, counting);
    }

    List<RegionSketch> all() {
        return List.of(classic, blocked, counting, countMin, hyperLogLog);
    }

    /** The keys of batch {@code batch}: distinct across batches (a bijection of the key's index). */
    static long[] keys(long batch) {
        long[] keys = new long[BATCH];
        for (int i = 0; i < BATCH; i++) {
            long z = (batch * BATCH + i + 1) * 0x9E37_79B9_7F4A_7C15L;
            z = (z ^ z >>> 30) * 0xBF58_476D_1CE4_E5B9L;
            z = (z ^ z >>> 27) * 0x94D0_49BB_1331_11EBL;
            keys[i] = z ^ z >>> 31;
        }
        return keys;
    }

    /** The count the Count-Min sketch adds for key {@code i} of a batch. */
    static long count(int i) {
        return 1 + i % 5;
    }

    @Override
    public void close() throws IOException {
        for (RegionSketch sketch : all()) {
            sketch.close();
        }
    }
}
