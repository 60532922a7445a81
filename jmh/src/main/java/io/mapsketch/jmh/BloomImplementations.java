package io.mapsketch.jmh;

import static io.mapsketch.jmh.BenchmarkSettings.BLOOM_FALSE_POSITIVE_RATE;
import static io.mapsketch.jmh.BenchmarkSettings.SKETCH_SEED;

import com.google.common.hash.Funnels;
import io.mapsketch.OpenMode;
import io.mapsketch.jmh.FilterBenchmark.Filter;
import io.mapsketch.jmh.FilterBenchmark.MapsketchFilter;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BloomFilter;
import org.apache.datasketches.filters.bloomfilter.BloomFilterBuilder;
import org.fastfilter.bloom.BlockedBloom;

/**
 * The Bloom filters that {@link BloomBenchmark} times, each behind
 * {@link Filter} over its library's own API, all at a 1% false-positive rate; {@link BloomBenchmark}'s
 * class comment says how each is configured.
 */
final class BloomImplementations {

    private BloomImplementations() {}

    /**
     * Creates an empty filter of one implementation, sized for {@code items} keys.
     *
     * @param impl {@code mapsketch-blocked}, {@code mapsketch-blocked-shared}, {@code mapsketch-classic},
     *     {@code mapsketch-classic-shared}, {@code guava}, {@code datasketches}, {@code fastfilter-blocked}
     *     or {@code spark}
     * @param items the keys the filter is sized for
     * @param placement where mapsketch's filter is created
     * @return the filter
     * @throws IllegalArgumentException if {@code impl} names no implementation
     * @throws ArithmeticException if {@code items} passes 2^31 - 1 for fastfilter, whose sizes are {@code int}
     * @throws java.io.UncheckedIOException if mapsketch's file cannot be created
     */
    static Filter create(String impl, long items, SketchPlacement placement) {
        return switch (impl) {
            case "mapsketch-blocked" -> blocked(items, OpenMode.EXCLUSIVE, placement);
            case "mapsketch-blocked-shared" -> blocked(items, OpenMode.SHARED, placement);
            case "mapsketch-classic" -> classic(items, OpenMode.EXCLUSIVE, placement);
            case "mapsketch-classic-shared" -> classic(items, OpenMode.SHARED, placement);
            case "guava" -> new Guava(items);
            case "datasketches" -> new DataSketches(items);
            case "fastfilter-blocked" -> new FastFilter(items);
            case "spark" -> new Spark(items);
            default -> throw new IllegalArgumentException("unknown impl " + impl);
        };
    }

    /**
     * The words of a filter's bit array ({@link FilterWords}), for mapsketch's filters, Guava's and
     * fastfilter's.
     *
     * @param filter a filter made by {@link #create}
     * @return its words
     * @throws IllegalArgumentException if the filter is DataSketches' or Spark's
     */
    static FilterWords words(Filter filter) {
        return switch (filter) {
            case MapsketchFilter mapsketch -> FilterWords.of(mapsketch.membership());
            case Guava guava -> FilterWords.of(guava.filter);
            case FastFilter fastFilter -> FilterWords.of(fastFilter.filter);
            default ->
                throw new IllegalArgumentException(
                        "no word access to " + filter.getClass().getSimpleName());
        };
    }

    private static Filter blocked(long items, OpenMode mode, SketchPlacement placement) {
        return new MapsketchFilter(placement.create(
                BlockedBloomFilter.builder()
                        .expectedItems(items)
                        .falsePositiveRate(BLOOM_FALSE_POSITIVE_RATE)
                        .seed(SKETCH_SEED),
                mode));
    }

    private static Filter classic(long items, OpenMode mode, SketchPlacement placement) {
        return new MapsketchFilter(placement.create(
                BloomFilter.builder()
                        .expectedItems(items)
                        .falsePositiveRate(BLOOM_FALSE_POSITIVE_RATE)
                        .seed(SKETCH_SEED),
                mode));
    }

    private static final class Guava implements Filter {

        private final com.google.common.hash.BloomFilter<Long> filter;

        Guava(long items) {
            filter = com.google.common.hash.BloomFilter.create(Funnels.longFunnel(), items, BLOOM_FALSE_POSITIVE_RATE);
        }

        @Override
        public void add(long key) {
            filter.put(key);
        }

        @Override
        public boolean mightContain(long key) {
            return filter.mightContain(key);
        }
    }

    private static final class DataSketches implements Filter {

        private final org.apache.datasketches.filters.bloomfilter.BloomFilter filter;

        DataSketches(long items) {
            filter = BloomFilterBuilder.createByAccuracy(items, BLOOM_FALSE_POSITIVE_RATE, SKETCH_SEED);
        }

        @Override
        public void add(long key) {
            filter.update(key);
        }

        @Override
        public boolean mightContain(long key) {
            return filter.query(key);
        }
    }

    private static final class FastFilter implements Filter {

        private final BlockedBloom filter;

        FastFilter(long items) {
            filter = PeerConstructors.fastfilterBlockedBloom(Math.toIntExact(items));
        }

        @Override
        public void add(long key) {
            filter.add(key);
        }

        @Override
        public boolean mightContain(long key) {
            return filter.mayContain(key);
        }
    }

    private static final class Spark implements Filter {

        private final org.apache.spark.util.sketch.BloomFilter filter;

        Spark(long items) {
            filter = org.apache.spark.util.sketch.BloomFilter.create(items, BLOOM_FALSE_POSITIVE_RATE);
        }

        @Override
        public void add(long key) {
            filter.putLong(key);
        }

        @Override
        public boolean mightContain(long key) {
            return filter.mightContainLong(key);
        }
    }
}
