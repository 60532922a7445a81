package io.mapsketch.jmh;

import io.mapsketch.jmh.FilterBenchmark.Filter;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The cost of a Bloom filter's single-key lookup and add as the filter grows from 64 KiB (in L2) to
 * 8 GiB (80 times the L3 cache): mapsketch's blocked and classic filters ({@code EXCLUSIVE}) against
 * Guava's {@code BloomFilter<Long>} and fastfilter's {@code BlockedBloom}, configured as in
 * {@link BloomBenchmark}, at a 1% false-positive rate. {@link MemoryFloorBenchmark} measures the
 * memory's own floors at the same sizes in the same run. Scores are keys per second.
 *
 * <p><b>Sizes.</b> {@link #size} is the bytes of the filter's bit array; each implementation is sized
 * for the keys that give it that many bytes at 1%: {@code items = size * 2^20 / b}, where {@code b} is
 * the bytes of the same implementation sized for 2^20 keys (its bits per key: mapsketch blocked 10.1,
 * classic 9.6, Guava 9.6, fastfilter 11), so every filter holds about {@code size} bytes (the setup
 * prints the exact count). fastfilter's {@code BlockedBloom} computes its bit count in an {@code int},
 * so it has no filter above 256 MiB: its setup refuses the larger sizes.
 *
 * <p><b>Design fill.</b> Lookups ask a filter holding its design count of keys; adds go into a filter
 * holding between half of it and all of it. Up to {@value #FILL_BY_ADDS_MAX} keys (32 MiB filters) the
 * keys are added ({@code fill=adds}). Above, adding them would take minutes per fork (1.7 billion keys
 * at 2 GiB), so the filter's bits are drawn instead ({@code fill=pattern}, {@link DesignFill}): each bit
 * set independently with the probability that the same implementation reaches with the same share of
 * its keys added (measured on a 2^20-key filter: about 0.55 for mapsketch's blocked filter, 0.52 for
 * the classic ones, 0.30 for fastfilter's, which sets fewer bits per key), written straight into the bit array: mapsketch's payload, Guava's
 * {@code AtomicLongArray} and fastfilter's {@code long[]} (by reflection; neither peer has a bulk
 * path). Then the present half of the probes is added for real, so that present keys are found; the
 * pattern's fill leaves room for them. At 32 MiB, where both are possible ({@code -p fill=adds,pattern},
 * three runs on a loaded 2-core machine), the two fills set the same fraction of bits to three
 * decimals, and the lookups on them differed by less than the runs' spread for mapsketch's filters
 * and fastfilter's; Guava's, which allocates 176 bytes per lookup, varied from run to run more than
 * the fills did (drawn over added: 1.6x, 2.4x and 0.88x), so its points above 32 MiB are the least
 * certain. {@code -p fill=adds} or {@code -p fill=pattern} forces either way at
 * every size, to compare the two at one size.
 *
 * <p><b>Lookups</b> ({@link #mightContain}): {@link LookupProbes}' 2^24 probes, half present, half
 * absent, {@value #BATCH} per call, the answers stored. The setup checks a sample of the present
 * probes and prints the measured false-positive rate and fill, as a line starting with
 * {@code sweep-bloom}. <b>Adds</b> ({@link #add}): fresh keys (indices from 2^40 on), {@value #BATCH}
 * per call; once the filter reaches its design count it is put back to half of it, from a copy of its
 * words (filled by adds) or by drawing the pattern again, in the score (about 2.4 bytes written per key
 * added). Before either state is made, the setup adds 2^18 keys one at a time and clears the filter
 * again, so that {@code add} is compiled before JMH's warm-up begins (the lookups' setup check
 * compiles {@code mightContain} the same way).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx10g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
public class BloomSweepBenchmark {

    /** Keys per benchmark call. */
    static final int BATCH = 1024;
    /** The most keys a filter is filled with by adds under {@code fill=auto}. */
    static final long FILL_BY_ADDS_MAX = 1L << 25;
    /** fastfilter's largest filter: its bit count is an {@code int}. */
    static final long FASTFILTER_MAX_BYTES = 1L << 28;

    private static final long PROBE_SEED = 20_261_130L;
    private static final long PATTERN_SEED = 0x51_2E_5EEDL;
    private static final long FIRST_ADD_INDEX = 1L << 40;
    private static final int CHECK_EVERY = 64;
    private static final int COMPILE_ADDS = 1 << 18;
    private static final long COMPILE_FIRST_INDEX = 1L << 56;

    /**
     * Implementation: {@code mapsketch-blocked}, {@code mapsketch-classic}, {@code guava} or
     * {@code fastfilter-blocked} (up to 256 MiB).
     */
    @Param({"mapsketch-blocked", "mapsketch-classic", "guava", "fastfilter-blocked"})
    public String impl;

    /** Bytes of the filter's bit array. */
    @Param({"65536", "524288", "4194304", "33554432", "268435456", "2147483648", "8589934592"})
    public long size;

    /** How the filter reaches its design fill: {@code auto}, {@code adds} or {@code pattern}. */
    @Param({"auto"})
    public String fill;

    private Filter filter;
    private FilterWords words;
    private long items;
    private long[] probes;
    private int cursor;
    private final boolean[] results = new boolean[BATCH];
    private final long[] batch = new long[BATCH];
    private long nextAddIndex = FIRST_ADD_INDEX;
    private long room;
    private long added;
    private long[] snapshot;
    private double patternFill;

    /** Creates the state; JMH calls this once per fork. */
    public BloomSweepBenchmark() {}

    /**
     * Sizes the filter and brings it to its design fill (all of it for lookups, half for adds).
     *
     * @param params tells which benchmark method runs in this fork
     * @throws IllegalArgumentException for fastfilter above 256 MiB, or an unknown {@code fill}
     */
    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        if (impl.equals("fastfilter-blocked") && size > FASTFILTER_MAX_BYTES) {
            throw new IllegalArgumentException("size = " + size + ": fastfilter's BlockedBloom computes its bit count"
                    + " in an int, so it has no filter above " + FASTFILTER_MAX_BYTES + " bytes");
        }
        items = items(impl, size);
        filter = BloomImplementations.create(impl, items, SketchPlacement.ANONYMOUS);
        words = BloomImplementations.words(filter);
        boolean byAdds = switch (fill) {
            case "auto" -> items <= FILL_BY_ADDS_MAX;
            case "adds" -> true;
            case "pattern" -> false;
            default -> throw new IllegalArgumentException("fill = " + fill + ", must be auto, adds or pattern");
        };
        if (params.getBenchmark().endsWith(".add")) {
            compileAdd();
            prepareAdds(byAdds);
        } else {
            prepareLookups(byAdds);
        }
    }

    /**
     * Keys of {@code impl} whose filter at 1% takes {@code size} bytes: linear in the bytes of a
     * filter sized for {@value DesignFill#REFERENCE_ITEMS} keys.
     */
    static long items(String impl, long size) {
        Filter reference = BloomImplementations.create(impl, DesignFill.REFERENCE_ITEMS, SketchPlacement.ANONYMOUS);
        try {
            long bytes = BloomImplementations.words(reference).count() * Long.BYTES;
            return (long) ((double) size * DesignFill.REFERENCE_ITEMS / bytes);
        } finally {
            reference.close();
        }
    }

    private void prepareLookups(boolean byAdds) {
        SplittableRandom random = new SplittableRandom(PROBE_SEED);
        probes = LookupProbes.halfPresent(items, random);
        int present = LookupProbes.PROBES / 2;
        if (byAdds) {
            FilterBenchmark.fill(filter, items);
        } else {
            // The present probes, drawn with replacement, hold items * (1 - e^(-present / items)) distinct keys:
            // the pattern stands for the rest.
            patternFill = DesignFill.measure(impl, Math.exp(-(double) present / items));
            DesignFill.draw(words, patternFill, PATTERN_SEED);
            filter.addAll(probes, present);
        }
        long falsePositives = 0;
        for (int i = 0; i < present; i += CHECK_EVERY) {
            if (!filter.mightContain(probes[i])) {
                throw new IllegalStateException(impl + " lost present key " + probes[i]);
            }
            falsePositives += filter.mightContain(probes[present + i]) ? 1 : 0;
        }
        System.out.printf(
                "%nsweep-bloom impl=%s size=%d items=%d bytes=%d fill=%s bits-set=%.4f fpr=%.5f%n",
                impl,
                size,
                items,
                words.count() * Long.BYTES,
                byAdds ? "adds" : "pattern",
                words.fill(),
                falsePositives / (present / (double) CHECK_EVERY));
        KeyStreams.shuffle(probes, random);
    }

    /**
     * Adds {@value #COMPILE_ADDS} keys one at a time, so that the JIT has compiled {@code add} before
     * JMH's warm-up (a short warm-up would otherwise time its compilation); the state made next
     * overwrites their bits.
     */
    private void compileAdd() {
        for (int i = 0; i < COMPILE_ADDS; i++) {
            filter.add(KeyStreams.key(COMPILE_FIRST_INDEX + i));
        }
    }

    private void prepareAdds(boolean byAdds) {
        long half = items / 2;
        room = items - half;
        if (byAdds) {
            for (long i = 0; i < words.count(); i++) {
                words.set(i, 0);
            }
            FilterBenchmark.fill(filter, half);
            snapshot = new long[Math.toIntExact(words.count())];
            for (int i = 0; i < snapshot.length; i++) {
                snapshot[i] = words.get(i);
            }
        } else {
            patternFill = DesignFill.measure(impl, 0.5);
            DesignFill.draw(words, patternFill, PATTERN_SEED);
        }
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
        Filter target = filter;
        int from = cursor;
        for (int i = 0; i < BATCH; i++) {
            answers[i] = target.mightContain(keys[from + i]);
        }
        cursor = (from + BATCH) & (LookupProbes.PROBES - 1);
        return answers;
    }

    /**
     * Adds {@value #BATCH} fresh keys one at a time; puts the filter back to half its design count
     * once it reaches the whole.
     *
     * @return the filter, so the work is not dead
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object add() {
        long index = nextAddIndex;
        for (int i = 0; i < BATCH; i++) {
            batch[i] = KeyStreams.key(index + i);
        }
        nextAddIndex = index + BATCH;
        Filter target = filter;
        for (int i = 0; i < BATCH; i++) {
            target.add(batch[i]);
        }
        added += BATCH;
        if (added + BATCH > room) {
            restoreHalfFill();
            added = 0;
        }
        return target;
    }

    private void restoreHalfFill() {
        if (snapshot != null) {
            for (int i = 0; i < snapshot.length; i++) {
                words.set(i, snapshot[i]);
            }
        } else {
            DesignFill.draw(words, patternFill, PATTERN_SEED);
        }
    }
}
