package io.mapsketch.jmh;

import io.mapsketch.membership.MembershipFilter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * What the membership-filter benchmarks share ({@link BloomBenchmark}, {@link CuckooBenchmark}): the
 * filter under test behind one small interface, the lookup setup (fill with keys
 * {@code 0 .. items - 1}, check that every present probe of {@link LookupProbes} is found, print the
 * measured false-positive rate over the absent half, shuffle), and the single-key lookup and add
 * benchmarks. Adds use fresh keys (indices from 2^40 on, never repeated), {@value #BATCH} per call; the
 * call after which one more batch would take a filter past {@code items} keys replaces it by a new
 * empty one (part of the score), so an add score is the mean cost of filling filters from empty to
 * their capacity.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx4g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 1)
public abstract class FilterBenchmark {

    /** Keys per benchmark call. */
    static final int BATCH = 1024;
    /** Seed of every filter's hash. */
    private static final long SHUFFLE_SEED = 20_261_130L;

    private static final long FIRST_ADD_INDEX = 1L << 40;
    private static final int SETUP_CHUNK = 1 << 16;

    Filter filter;
    long[] probes;
    int cursor;
    final long[] batch = new long[BATCH];
    final boolean[] results = new boolean[BATCH];
    private long nextAddIndex = FIRST_ADD_INDEX;
    private long keysInFilter;

    /** Creates the state; JMH creates the concrete benchmarks once per fork. */
    protected FilterBenchmark() {}

    /** The operations the benchmarks need, over each library's own API. */
    interface Filter {

        void add(long key);

        boolean mightContain(long key);

        /** Adds {@code keys[0, count)}; a loop unless the library has a batch add. */
        default void addAll(long[] keys, int count) {
            for (int i = 0; i < count; i++) {
                add(keys[i]);
            }
        }

        /** Looks up every key of {@code keys}; a loop unless the library has a batch lookup. */
        default void mightContainAll(long[] keys, boolean[] answers) {
            for (int i = 0; i < keys.length; i++) {
                answers[i] = mightContain(keys[i]);
            }
        }

        default void close() {}
    }

    /** A new empty filter of the implementation and size under test. */
    abstract Filter newFilter();

    /** The implementation under test (its {@code impl} param). */
    abstract String impl();

    /** Keys a filter is sized for (its {@code items} param). */
    abstract int items();

    /** The first word of the line that reports the measured false-positive rate. */
    abstract String fprLabel();

    /**
     * Creates the filter; for the lookups, fills it with the present keys and builds the probes.
     *
     * @param params tells which benchmark method runs in this fork
     */
    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        filter = newFilter();
        String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
        if (method.startsWith("add")) {
            return;
        }
        fill(filter, items());
        SplittableRandom random = new SplittableRandom(SHUFFLE_SEED);
        probes = LookupProbes.halfPresent(items(), random);
        long falsePositives = 0;
        for (int i = 0; i < probes.length; i++) {
            boolean found = filter.mightContain(probes[i]);
            if (i < probes.length / 2 && !found) {
                throw new IllegalStateException(impl() + " lost present key " + probes[i]);
            }
            falsePositives += i >= probes.length / 2 && found ? 1 : 0;
        }
        System.out.printf(
                "%n%s impl=%s items=%d fpr=%.6f%n",
                fprLabel(), impl(), items(), falsePositives / (double) (probes.length / 2));
        KeyStreams.shuffle(probes, random);
    }

    /** Adds keys {@code 0 .. items - 1} of {@link KeyStreams#key} to {@code filter}, in batches. */
    static void fill(Filter filter, long items) {
        long[] chunk = new long[SETUP_CHUNK];
        for (long from = 0; from < items; from += SETUP_CHUNK) {
            int count = (int) Math.min(SETUP_CHUNK, items - from);
            for (int i = 0; i < count; i++) {
                chunk[i] = KeyStreams.key(from + i);
            }
            filter.addAll(chunk, count);
        }
    }

    /** Frees the filter. */
    @TearDown(Level.Trial)
    public void tearDown() {
        filter.close();
    }

    /**
     * Looks up the next {@value #BATCH} probes one key at a time, storing the answers (no branch on
     * an answer, so a lookup need not wait for the previous one's cache miss).
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
        long[] keys = nextAddBatch();
        for (int i = 0; i < BATCH; i++) {
            filter.add(keys[i]);
        }
        return afterAdds();
    }

    /** The next {@value #BATCH} fresh keys, in {@link #batch}. */
    final long[] nextAddBatch() {
        long index = nextAddIndex;
        for (int i = 0; i < BATCH; i++) {
            batch[i] = KeyStreams.key(index + i);
        }
        nextAddIndex = index + BATCH;
        return batch;
    }

    /** Counts the batch just added; replaces the filter by an empty one before it would pass {@code items} keys. */
    final Object afterAdds() {
        keysInFilter += BATCH;
        if (keysInFilter + BATCH > items()) {
            filter.close();
            filter = newFilter();
            keysInFilter = 0;
        }
        return filter;
    }

    /** mapsketch's filters, with their batch paths. */
    static final class MapsketchFilter implements Filter {

        private final MembershipFilter filter;

        MapsketchFilter(MembershipFilter filter) {
            this.filter = filter;
        }

        /** The filter under test. */
        MembershipFilter membership() {
            return filter;
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
        public void addAll(long[] keys, int count) {
            filter.addAll(count == keys.length ? keys : Arrays.copyOf(keys, count));
        }

        @Override
        public void mightContainAll(long[] keys, boolean[] answers) {
            filter.mightContainAll(keys, answers);
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
}
