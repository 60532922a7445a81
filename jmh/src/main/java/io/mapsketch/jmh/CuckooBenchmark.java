package io.mapsketch.jmh;

import static io.mapsketch.jmh.BenchmarkSettings.CUCKOO_FALSE_POSITIVE_RATE;
import static io.mapsketch.jmh.BenchmarkSettings.SKETCH_SEED;

import io.mapsketch.OpenMode;
import io.mapsketch.membership.CuckooFilter;
import io.mapsketch.membership.CuckooSizing;
import org.fastfilter.cuckoo.Cuckoo16;
import org.openjdk.jmh.annotations.Param;

/**
 * Cuckoo filters with 16-bit fingerprints in buckets of four: mapsketch's {@link CuckooFilter} (in
 * {@code EXCLUSIVE} and {@code SHARED} mode) against fastfilter's {@code Cuckoo16}, with the same number
 * of buckets, so the same memory, load and false-positive rate. Scores are keys per second.
 *
 * <p><b>Sizes.</b> mapsketch's filter is built for {@code items} keys at a rate of
 * {@value BenchmarkSettings#CUCKOO_FALSE_POSITIVE_RATE}, which takes 16-bit fingerprints and the power of two of buckets that
 * holds the items in at most 90% of the slots; the sizes are chosen at exactly 90%: 943,718 keys in
 * 2^18 buckets (2 MiB) and 60,397,977 keys in 2^24 buckets (128 MiB, beyond the caches). fastfilter's
 * filter is built with {@code new Cuckoo16(capacity)} for the same number of slots, which gives it the
 * same number of buckets (its own {@code construct} sizes for 95% load instead).
 *
 * <p><b>Keys and lookups.</b> As {@link BloomBenchmark}: key {@code i} is {@link KeyStreams#key}, the
 * filter under a lookup holds keys {@code 0 .. items - 1}, and lookups walk {@link LookupProbes} (half
 * present, half absent, shuffled) with a cursor, {@value #BATCH} keys per call, storing each answer.
 * The lookup setup checks that every present probe is found and prints the measured rate over the
 * absent half, as a line starting with {@code cuckoo-fpr}.
 *
 * <p><b>Adds.</b> {@value #BATCH} fresh keys per call, one at a time (neither library has a batch add
 * that differs from the loop); the call after which one more batch would take a filter past
 * {@code items} keys replaces it with an empty one (part of the score), so an add score is the mean cost of filling a filter from empty to 90%
 * load, moves included.
 */
public class CuckooBenchmark extends FilterBenchmark {

    /** Implementation: {@code mapsketch}, {@code mapsketch-shared} or {@code fastfilter-cuckoo16}. */
    @Param({"mapsketch", "mapsketch-shared", "fastfilter-cuckoo16"})
    public String impl;

    /** Keys the filter is sized for (and, for lookups, holds): 90% of 2^18 or 2^24 buckets of four. */
    @Param({"943718", "60397977"})
    public int items;

    /**
     * The rate mapsketch's filter is built for: {@value BenchmarkSettings#CUCKOO_FALSE_POSITIVE_RATE} (16-bit
     * fingerprints) unless {@code -p falsePositiveRate=0.002} asks for 12-bit ones, some of which straddle two
     * words; the bucket count does not depend on it, and fastfilter's filter keeps 16 bits.
     */
    @Param({"" + CUCKOO_FALSE_POSITIVE_RATE})
    public double falsePositiveRate;

    /** Creates the state; JMH calls this once per fork. */
    public CuckooBenchmark() {}

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
        return "cuckoo-fpr";
    }

    @Override
    Filter newFilter() {
        return switch (impl) {
            case "mapsketch" -> mapsketch(OpenMode.EXCLUSIVE);
            case "mapsketch-shared" -> mapsketch(OpenMode.SHARED);
            case "fastfilter-cuckoo16" -> new FastFilter(items);
            default -> throw new IllegalArgumentException("unknown impl " + impl);
        };
    }

    private Filter mapsketch(OpenMode mode) {
        return new MapsketchFilter(CuckooFilter.builder()
                .expectedItems(items)
                .falsePositiveRate(falsePositiveRate)
                .seed(SKETCH_SEED)
                .createAnonymous(mode));
    }

    private static final class FastFilter implements Filter {

        private final Cuckoo16 filter;

        /** The same slots as mapsketch's filter for these items, so the same buckets. */
        FastFilter(int items) {
            filter = new Cuckoo16(Math.toIntExact(CuckooSizing.buckets(items) * CuckooSizing.BUCKET_SIZE));
        }

        @Override
        public void add(long key) {
            filter.insert(key);
        }

        @Override
        public boolean mightContain(long key) {
            return filter.mayContain(key);
        }
    }
}
