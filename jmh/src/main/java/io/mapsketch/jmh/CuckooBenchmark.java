package io.mapsketch.jmh;

import io.mapsketch.engine.CuckooFilter;
import io.mapsketch.engine.SketchSizing;
import io.mapsketch.memory.AccessMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.fastfilter.cuckoo.Cuckoo16;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Cuckoo filters with 16-bit fingerprints in buckets of four: mapsketch's {@link CuckooFilter} (in
 * {@code EXCLUSIVE} and {@code SHARED} mode) against fastfilter's {@code Cuckoo16}, with the same number
 * of buckets, so the same memory, load and false-positive rate. Scores are keys per second.
 *
 * <p><b>Sizes.</b> mapsketch's filter is built for {@code items} keys at a rate of
 * {@value #FALSE_POSITIVE_RATE}, which takes 16-bit fingerprints and the power of two of buckets that
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
 * that differs from the loop); the call that brings a filter to {@code items} keys replaces it with an
 * empty one (part of the score), so an add score is the mean cost of filling a filter from empty to 90%
 * load, moves included.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "-Xmx4g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 1)
public class CuckooBenchmark {

    /** Keys per benchmark call. */
    static final int BATCH = 1024;

    private static final double FALSE_POSITIVE_RATE = 0.001;
    private static final long FILTER_SEED = 0x5EED_1234_5678_9ABCL;
    private static final long SHUFFLE_SEED = 20_261_130L;
    private static final long FIRST_ADD_INDEX = 1L << 40;

    /** Implementation: {@code mapsketch}, {@code mapsketch-shared} or {@code fastfilter-cuckoo16}. */
    @Param({"mapsketch", "mapsketch-shared", "fastfilter-cuckoo16"})
    public String impl;

    /** Keys the filter is sized for (and, for lookups, holds): 90% of 2^18 or 2^24 buckets of four. */
    @Param({"943718", "60397977"})
    public int items;

    private Filter filter;
    private long[] probes;
    private int cursor;
    private final long[] batch = new long[BATCH];
    private final boolean[] results = new boolean[BATCH];
    private long nextAddIndex = FIRST_ADD_INDEX;
    private long keysInFilter;

    /** Creates the state; JMH calls this once per fork. */
    public CuckooBenchmark() {
    }

    /**
     * Creates the filter; for the lookups, fills it with the present keys and builds the probes.
     *
     * @param params tells which benchmark method runs in this fork
     */
    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        filter = newFilter();
        if (params.getBenchmark().endsWith(".add")) {
            return;
        }
        for (long i = 0; i < items; i++) {
            filter.add(KeyStreams.key(i));
        }
        SplittableRandom random = new SplittableRandom(SHUFFLE_SEED);
        probes = LookupProbes.halfPresent(items, random);
        long falsePositives = 0;
        for (int i = 0; i < probes.length; i++) {
            boolean found = filter.mightContain(probes[i]);
            if (i < probes.length / 2 && !found) {
                throw new IllegalStateException(impl + " lost present key " + probes[i]);
            }
            falsePositives += i >= probes.length / 2 && found ? 1 : 0;
        }
        System.out.printf("%ncuckoo-fpr impl=%s items=%d fpr=%.6f%n", impl, items,
                falsePositives / (double) (probes.length / 2));
        KeyStreams.shuffle(probes, random);
    }

    /** Frees the filter. */
    @TearDown(Level.Trial)
    public void tearDown() {
        filter.close();
    }

    /**
     * Looks up the next {@value #BATCH} probes one key at a time, storing the answers.
     *
     * @return the answers
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public boolean[] mightContain() {
        long[] keys = probes;
        boolean[] answers = results;
        int from = cursor;
        for (int i = 0; i < BATCH; i++) {
            answers[i] = filter.mightContain(keys[from + i]);
        }
        cursor = (from + BATCH) & (LookupProbes.PROBES - 1);
        return answers;
    }

    /**
     * Adds {@value #BATCH} fresh keys one at a time.
     *
     * @return the filter, so the work is not dead
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object add() {
        long index = nextAddIndex;
        for (int i = 0; i < BATCH; i++) {
            filter.add(KeyStreams.key(index + i));
        }
        nextAddIndex = index + BATCH;
        keysInFilter += BATCH;
        if (keysInFilter + BATCH > items) {
            filter.close();
            filter = newFilter();
            keysInFilter = 0;
        }
        return filter;
    }

    private Filter newFilter() {
        return switch (impl) {
            case "mapsketch" -> new Mapsketch(items, AccessMode.EXCLUSIVE);
            case "mapsketch-shared" -> new Mapsketch(items, AccessMode.SHARED);
            case "fastfilter-cuckoo16" -> new FastFilter(items);
            default -> throw new IllegalArgumentException("unknown impl " + impl);
        };
    }

    /** The operations the benchmark needs, over each library's own API. */
    private interface Filter {

        void add(long key);

        boolean mightContain(long key);

        default void close() {
        }
    }

    private static final class Mapsketch implements Filter {

        private final CuckooFilter filter;

        Mapsketch(int items, AccessMode mode) {
            filter = CuckooFilter.builder().expectedItems(items).falsePositiveRate(FALSE_POSITIVE_RATE)
                    .seed(FILTER_SEED).createAnonymous(mode);
        }

        @Override
        public void add(long key) {
            filter.add(key);
        }

        @Override
        public boolean mightContain(long key) {
            return filter.mightContain(key);
        }

        @Override
        public void close() {
            try {
                filter.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static final class FastFilter implements Filter {

        private final Cuckoo16 filter;

        /** The same slots as mapsketch's filter for these items, so the same buckets. */
        FastFilter(int items) {
            filter = new Cuckoo16(Math.toIntExact(SketchSizing.cuckooBuckets(items) * SketchSizing.CUCKOO_BUCKET_SIZE));
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
