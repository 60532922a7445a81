package io.mapsketch.jmh;

import io.mapsketch.jmh.FilterBenchmark.Filter;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;

/**
 * The latency of single-key Bloom filter calls: percentiles of one {@code mightContain} or one
 * {@code add}, in nanoseconds ({@link LatencyBenchmark}: {@code SampleTime}, one call per invocation),
 * for mapsketch's blocked and classic filters in {@code EXCLUSIVE} and {@code SHARED} mode and in
 * {@code SHARED} mode while a second JVM adds to the same file flat out ({@code -shared-writer}),
 * against Guava, DataSketches and fastfilter's {@code BlockedBloom}, configured as in
 * {@link BloomBenchmark} ({@link BloomImplementations}; 1% false-positive rate, sized for
 * {@code items} keys).
 *
 * <p><b>Sizes.</b> 100,000 keys (mapsketch's blocked filter: 123 KiB, in the L2 and L3 caches) for
 * the in-cache targets, and 50M keys (about 60 MiB, beyond the caches) in the full profile.
 *
 * <p><b>State.</b> The setup fills every filter with keys {@code 0 .. items - 1} of
 * {@link KeyStreams#key} and nothing ever adds another key: {@link #mightContain} walks, with a
 * cursor, the {@link LookupProbes} array (2^24 keys, half present, half absent, shuffled);
 * {@link #add} adds again the keys of an array of 2^24 keys drawn among the present ones; the writer JVM
 * cycles through the present keys in a random order ({@link SharedFileWriter.Keys#present}). So every
 * implementation and mode is measured on the same filter at its capacity, and that filter does not
 * change during the trial. That is the only way to keep the fill comparable with and without the
 * writer: an in-cache filter fed new keys flat out (tens of millions a second) passes its capacity
 * within milliseconds and saturates, after which its absent lookups answer yes and no add sets a
 * bit, which is neither the filter a user runs nor the same filter in every row. The cost: an add
 * here never sets a new bit. mapsketch's {@code SHARED} add then tests the key's bits with plain
 * loads and skips the atomic OR (it still counts the item with an atomic add in the header), and
 * the writer's adds do the same, so what the writer contends for is the header's items counter and
 * the shared caches, not the filter's lines. The throughput of adds of new keys is
 * {@link BloomBenchmark}'s.
 */
public class BloomLatencyBenchmark extends LatencyBenchmark {

    /**
     * Implementation: mapsketch's {@code mapsketch-blocked}, {@code mapsketch-classic}, each also
     * {@code -shared} and {@code -shared-writer}; {@code guava}, {@code datasketches},
     * {@code fastfilter-blocked} (or any other of {@link BloomImplementations}).
     */
    @Param({
        "mapsketch-blocked",
        "mapsketch-blocked-shared",
        "mapsketch-blocked-shared-writer",
        "mapsketch-classic",
        "mapsketch-classic-shared",
        "mapsketch-classic-shared-writer",
        "guava",
        "datasketches",
        "fastfilter-blocked"
    })
    public String impl;

    /** Keys the filter is sized for and holds. */
    @Param({"100000", "50000000"})
    public int items;

    private static final long PROBE_SEED = 20_261_201L;

    private Filter filter;
    private long[] keys;
    private int cursor;

    /** Creates the state; JMH calls this once per fork. */
    public BloomLatencyBenchmark() {}

    @Override
    String impl() {
        return impl;
    }

    @Override
    void prepare(String created, Path file, String method) {
        filter = BloomImplementations.create(created, items, SketchPlacement.inFile(file));
        FilterBenchmark.fill(filter, items);
        SplittableRandom random = new SplittableRandom(PROBE_SEED);
        keys = method.equals("add") ? LookupProbes.allPresent(items, random) : LookupProbes.halfPresent(items, random);
        KeyStreams.shuffle(keys, random);
    }

    @Override
    SharedFileWriter.Keys writerKeys() {
        return SharedFileWriter.Keys.present(items);
    }

    @Override
    void closeSketch() {
        filter.close();
    }

    /**
     * Looks up the next probe.
     *
     * @return the answer
     */
    @Benchmark
    public boolean mightContain() {
        int at = cursor;
        cursor = (at + 1) & (LookupProbes.PROBES - 1);
        return filter.mightContain(keys[at]);
    }

    /**
     * Adds the next key (one already present).
     *
     * @return the filter, so the work is not dead
     */
    @Benchmark
    public Object add() {
        int at = cursor;
        cursor = (at + 1) & (LookupProbes.PROBES - 1);
        filter.add(keys[at]);
        return filter;
    }
}
