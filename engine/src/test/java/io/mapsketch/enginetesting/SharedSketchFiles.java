package io.mapsketch.enginetesting;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchBuilder;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.internal.RegionSketch;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.CountingBloomFilter;
import io.mapsketch.membership.MembershipFilter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The five sketch files that the {@link ReliabilityScenarios} have child JVMs fill: classic, blocked and counting Bloom filters, a plain Count-Min sketch and a HyperLogLog,
 * with the keys and counts of every batch, and the one way to add a batch to all five.
 */
public record SharedSketchFiles(
        BloomFilter classic,
        BlockedBloomFilter blocked,
        CountingBloomFilter counting,
        CountMinSketch countMin,
        HyperLogLog hyperLogLog)
        implements AutoCloseable {

    public static final int BATCH = 512;
    private static final long CAPACITY = 1_000_000;

    /** The five sketches, created in {@code dir} or, when it is {@code null}, anonymous. */
    public static SharedSketchFiles create(Path dir, OpenMode mode) throws IOException {
        return new SharedSketchFiles(
                make(BloomFilter.builder().expectedItems(CAPACITY).falsePositiveRate(0.01), dir, "classic", mode),
                make(
                        BlockedBloomFilter.builder().expectedItems(CAPACITY).falsePositiveRate(0.01),
                        dir,
                        "blocked",
                        mode),
                make(
                        CountingBloomFilter.builder().expectedItems(CAPACITY).falsePositiveRate(0.01),
                        dir,
                        "counting",
                        mode),
                make(CountMinSketch.builder().epsilon(0.001).delta(0.01), dir, "countmin", mode),
                make(HyperLogLog.builder().precision(14), dir, "hll", mode));
    }

    private static <S extends Sketch> S make(SketchBuilder<?, S> builder, Path dir, String name, OpenMode mode)
            throws IOException {
        builder.seed(3);
        return dir == null ? builder.createAnonymous(mode) : builder.create(dir.resolve(name + ".sketch"), mode);
    }

    public static SharedSketchFiles open(Path dir, OpenMode mode) throws IOException {
        return new SharedSketchFiles(
                BloomFilter.open(dir.resolve("classic.sketch"), mode),
                BlockedBloomFilter.open(dir.resolve("blocked.sketch"), mode),
                CountingBloomFilter.open(dir.resolve("counting.sketch"), mode),
                CountMinSketch.open(dir.resolve("countmin.sketch"), mode),
                HyperLogLog.open(dir.resolve("hll.sketch"), mode));
    }

    public List<MembershipFilter> filters() {
        return List.of(classic, blocked, counting);
    }

    public List<RegionSketch> all() {
        return List.of(classic, blocked, counting, countMin, hyperLogLog);
    }

    /** The keys of batch {@code batch}: distinct across batches (a bijection of the key's index). */
    public static long[] keys(long batch) {
        long[] keys = new long[BATCH];
        for (int i = 0; i < BATCH; i++) {
            long z = (batch * BATCH + i + 1) * 0x9E37_79B9_7F4A_7C15L;
            z = (z ^ z >>> 30) * 0xBF58_476D_1CE4_E5B9L;
            z = (z ^ z >>> 27) * 0x94D0_49BB_1331_11EBL;
            keys[i] = z ^ z >>> 31;
        }
        return keys;
    }

    /**
     * Adds batch {@code batch} to all five: its keys one at a time when the batch number is even,
     * through the batch methods when it is odd; each key {@link #count(int)} times to Count-Min.
     */
    public void add(long batch) {
        long[] keys = keys(batch);
        boolean singly = batch % 2 == 0;
        for (MembershipFilter filter : filters()) {
            if (singly) {
                for (long key : keys) {
                    filter.add(key);
                }
            } else {
                filter.addAll(keys);
            }
        }
        for (int i = 0; i < keys.length; i++) {
            countMin.add(keys[i], count(i));
        }
        if (singly) {
            for (long key : keys) {
                hyperLogLog.add(key);
            }
        } else {
            hyperLogLog.addAll(keys);
        }
    }

    /** The count the Count-Min sketch adds for key {@code i} of a batch. */
    public static long count(int i) {
        return 1 + i % 5;
    }

    @Override
    public void close() throws IOException {
        for (RegionSketch sketch : all()) {
            sketch.close();
        }
    }
}
