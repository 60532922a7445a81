package io.mapsketch.jmh;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;

/**
 * Bloom filters at a 1% false-positive rate, mapsketch's blocked and classic filters (in
 * {@code EXCLUSIVE} and {@code SHARED} mode) against Guava's {@code BloomFilter<Long>}, DataSketches'
 * {@code BloomFilter}, fastfilter's {@code BlockedBloom} and Spark's {@code BloomFilter}, each sized for
 * {@code items} keys. Scores are keys per second.
 *
 * <p><b>Keys.</b> Key {@code i} is the {@code i}-th output of a SplitMix64 generator with a fixed
 * seed ({@link KeyStreams#key}); the generator is a bijection of {@code i}, so different indices give
 * different keys and a present key can be drawn without storing all of them. The filter under a
 * lookup holds keys {@code 0 .. items - 1}. Lookups walk, with a cursor, a probe array of 2^24 keys
 * (128 MiB): half of them drawn at random among the present keys, half absent keys (indices from
 * {@code items} on), shuffled with a fixed seed. At 50M keys every filter is larger than the L3 cache
 * and each lookup touches a cold line.
 *
 * <p><b>Lookups.</b> {@link #mightContain} asks one key at a time, {@value #BATCH} keys per call;
 * {@link #mightContainAll} copies the next {@value #BATCH} probes into a batch array and asks them
 * at once: mapsketch's {@code mightContainAll} (SIMD hashing, phased probing for the blocked
 * filter). The peers have no batch lookup, so for them {@code mightContainAll} is the loop a user
 * would write over the batch array (the same work as {@code mightContain}, plus the copy).
 *
 * <p><b>Adds.</b> {@link #add} and {@link #addAll} add fresh keys (indices from 2^40 on, never
 * repeated) {@value #BATCH} per call, key by key or with mapsketch's batch {@code addAll} (a loop for
 * the peers). So that a filter is never filled beyond what it was sized for, the call after which one
 * more batch would take a filter past {@code items} keys replaces it with a new empty one (close and
 * create: a zeroed
 * allocation of the filter's size, part of the score, at most a nanosecond per key); the filter
 * otherwise lives across iterations, so the score is the mean cost of filling filters from empty to
 * capacity.
 *
 * <p><b>Peers.</b> Guava: {@code BloomFilter.create(Funnels.longFunnel(), items, 0.01)}, boxed
 * {@code Long} keys as its API takes them. DataSketches: {@code
 * BloomFilterBuilder.createByAccuracy(items, 0.01, seed)}, {@code update(long)} and
 * {@code query(long)}. fastfilter: {@code BlockedBloom} with {@value BenchmarkSettings#FASTFILTER_BITS_PER_KEY} bits
 * per key, the least that keeps its rate at or below 1% (10 bits per key give about 1.3%); its only
 * public factory, {@code construct(keys, bitsPerKey)}, sizes the filter from a key array and adds
 * them, so the benchmark calls the constructor it uses, {@code (entryCount, bitsPerKey)}, by
 * reflection (it is package-private) and adds the keys itself. Spark ({@code spark-sketch} 4.2.0):
 * {@code BloomFilter.create(items, 0.01)}, {@code putLong(long)} and {@code mightContainLong(long)}, no
 * boxing. {@code create} makes the V2 format ({@code BloomFilterImplV2}; {@code writeTo} writes version
 * 2): {@code m = -n ln p / (ln 2)^2} bits rounded up to whole 64-bit words of a {@code long[]} (9.59
 * bits per key), {@code k = round(m / n ln 2)} = 7, seed 0 (this {@code create} takes none). The key is
 * hashed twice with 32-bit Murmur3 ({@code h1} seeded with 0, {@code h2} with {@code h1}), and probe
 * {@code i} (1 to k) reads bit {@code c mod m}, where {@code c = h1 (2^31 - 1) + i h2} in 64-bit
 * arithmetic, complemented when negative (V1 computed {@code h1 + i h2} in 32 bits, so it reached only
 * 2^31 bits): a 64-bit division per probe. A lookup stops at the first clear bit; an add reads each bit
 * before it sets it (it counts the set bits). The lookup setup checks that every present probe is found
 * and prints each filter's measured false-positive rate over the 2^23 absent probes, as a line starting
 * with {@code bloom-fpr}.
 */
public class BloomBenchmark extends FilterBenchmark {

    /**
     * Implementation: {@code mapsketch-blocked}, {@code mapsketch-blocked-shared},
     * {@code mapsketch-classic}, {@code mapsketch-classic-shared}, {@code guava},
     * {@code datasketches}, {@code fastfilter-blocked} or {@code spark}.
     */
    @Param({
        "mapsketch-blocked",
        "mapsketch-blocked-shared",
        "mapsketch-classic",
        "mapsketch-classic-shared",
        "guava",
        "datasketches",
        "fastfilter-blocked",
        "spark"
    })
    public String impl;

    /** Keys the filter is sized for (and, for lookups, holds). */
    @Param({"1000000", "50000000"})
    public int items;

    /** Creates the state; JMH calls this once per fork. */
    public BloomBenchmark() {}

    @Override
    String impl() {
        return impl;
    }

    @Override
    int items() {
        return items;
    }

    @Override
    String fprLabel() {
        return "bloom-fpr";
    }

    /**
     * Looks up the next {@value #BATCH} probes as one batch (a loop for the peers).
     *
     * @return the answers
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public boolean[] mightContainAll() {
        System.arraycopy(probes, cursor, batch, 0, BATCH);
        cursor = (cursor + BATCH) & (LookupProbes.PROBES - 1);
        filter.mightContainAll(batch, results);
        return results;
    }

    /**
     * Adds {@value #BATCH} fresh keys as one batch (a loop for the peers).
     *
     * @return the filter, so the work is not dead
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object addAll() {
        filter.addAll(nextAddBatch(), BATCH);
        return afterAdds();
    }

    @Override
    Filter newFilter() {
        return BloomImplementations.create(impl, items, SketchPlacement.ANONYMOUS);
    }
}
