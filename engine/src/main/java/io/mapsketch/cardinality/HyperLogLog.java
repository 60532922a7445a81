package io.mapsketch.cardinality;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.Mergeable;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.internal.KeyedSketch;
import io.mapsketch.memory.HashScheme;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * HyperLogLog: "how many distinct keys?" in {@code m = 2^p} one-byte registers, for a precision
 * {@code p} from 4 to 18 (p = 10 is 1 KiB and 3.25% relative standard error, p = 14 is 16 KiB and
 * 0.81%), or to 21 for a sketch that hashes as DataSketches does. A key's hash picks a register and a
 * rank; the register keeps the largest rank it was given. The layout is drawn in
 * {@code docs/file-format.md}.
 *
 * <p>Error direction: both ways, with relative standard error about {@link #relativeStandardError()} =
 * {@code 1.04 / sqrt(m)} (less below about {@code m} keys). That figure is one standard deviation, not a
 * maximum: one estimate in three lies further off, one in twenty more than twice as far.
 * {@link #lowerBound} and {@link #upperBound} give intervals of a chosen width. Adding a key again never
 * changes the sketch. Keys arrive in {@linkplain io.mapsketch##keys every key form}, and the same bytes
 * count as the same key in any form.
 *
 * <p>Hash schemes ({@link #estimator()} says which estimate answers): the native one (XXH3, Ertl's improved
 * estimator, nearly unbiased from 0 to beyond 10^9 keys); Redis's ({@link HyperLogLogBuilder#redisHashing()},
 * {@link io.mapsketch.interop.RedisHyperLogLog}), which raises the registers {@code PFADD} raises and
 * answers {@code PFCOUNT}; DataSketches' ({@link HyperLogLogBuilder#dataSketchesHashing()},
 * {@link io.mapsketch.interop.DataSketchesHll}), which raises the registers {@code HllSketch.update} raises
 * (values to 63) and answers its HIP estimate while its {@code EXCLUSIVE} writer has kept the accumulator in
 * order, its composite estimate otherwise. Sketches merge only within one scheme and seed.
 *
 * <p>Concurrency: any number of {@code SHARED} writers in any number of processes leave the registers
 * byte for byte as sequential adds would (each raise is a compare-and-set of the word that holds the
 * register). The {@code EXCLUSIVE} writer stores plainly and takes adds from one thread at a time
 * (hand it from thread to thread with the usual happens-before); any thread may estimate while it
 * adds, though a thread that added earlier may then be answered from numbers caught in the middle
 * of a raise, off by the registers being raised. Readers in any process may estimate while writers
 * add, and the estimate counts every add that completed before the call began.
 *
 * <p>Cost: an add is one hash and, once the sketch has seen a few times m keys, almost always only
 * a load of the register; a raise adds a store and a few additions ({@code EXCLUSIVE}) or three to
 * four atomic additions ({@code SHARED}). An estimate reads a few words of the header's summary line
 * (format version 2 on), not the registers, and gives the same answer bit for bit: see
 * {@link #estimate()}, and {@code docs/design/cardinality.md} for the protocol.
 */
// The mechanics every sketch shares sit in the unexported package; their public methods are this type's.
@SuppressWarnings("exports")
public final class HyperLogLog extends KeyedSketch implements Mergeable<HyperLogLog> {

    /** The smallest precision. */
    public static final int MIN_PRECISION = 4;
    /** The largest precision of the native and Redis's hash schemes. */
    public static final int MAX_PRECISION = 18;
    /** The largest precision of a sketch that hashes as DataSketches does: DataSketches' largest lgK. */
    public static final int MAX_DATASKETCHES_PRECISION = 21;
    /** The seed Redis hashes its HyperLogLog's keys with ({@link HyperLogLogBuilder#redisHashing()}). */
    public static final long REDIS_SEED = 0xadc83b19L;
    /** The seed DataSketches hashes its HLL sketches' keys with ({@link HyperLogLogBuilder#dataSketchesHashing()}). */
    public static final long DATASKETCHES_SEED = 9001L;

    private final HyperLogLogFormat format;
    private final int precision;
    private final HyperLogLogEstimates estimates;
    private final HyperLogLogRegisters registers;
    private final CardinalityEstimator estimator;
    /** Whether this sketch is the {@code EXCLUSIVE} writer of a file with a summary line. */
    private final boolean soleWriter;
    /**
     * The sole writer's snapshot of the numbers it keeps, or {@code null} once a change has made it stale:
     * made at the open, then by the thread that made the last change; read by any thread.
     */
    private HyperLogLogEstimates.Snapshot kept;
    /** The id of the thread that made the sole writer's last change. */
    private long changer;

    private HyperLogLog(SketchRegion region, HyperLogLogFormat format) {
        super(region);
        HashScheme scheme = region.header().hashScheme();
        this.estimator = switch (scheme) {
            case REDIS_HLL -> CardinalityEstimator.REDIS_PFCOUNT;
            case DATASKETCHES_MURMUR3_128 -> CardinalityEstimator.DATASKETCHES_HIP;
            default -> CardinalityEstimator.IMPROVED;
        };
        this.format = format;
        this.precision = format.precision();
        HyperLogLogSummaryLine line = HyperLogLogSummaryLine.of(region, precision);
        this.soleWriter = line != null && mode() == OpenMode.EXCLUSIVE;
        this.registers = scheme == HashScheme.DATASKETCHES_MURMUR3_128
                ? DataSketchesRegisters.create(payload, precision, sharedWriters, line, soleWriter, this)
                : new HyperLogLogRegisters(payload, precision, sharedWriters, line, soleWriter, this);
        this.estimates =
                new HyperLogLogEstimates(region, describe(), precision, line, soleWriter, estimator, registers);
        this.kept = soleWriter ? estimates.keptSnapshot(true) : null;
    }

    /**
     * Starts a builder; {@code precision} is required.
     *
     * @return a new builder
     */
    public static HyperLogLogBuilder builder() {
        return new HyperLogLogBuilder();
    }

    /**
     * Opens a HyperLogLog file; the precision comes from its header. A file of format version 2 or later
     * has its summary line checked against the registers; an opener that is the only writer recomputes
     * a line left untrusted (a writer killed in a raise) or, in a file not closed cleanly, one that
     * disagrees. Cost: one pass over the registers; other writers wait for it before they open the file.
     *
     * @param file the sketch file
     * @param mode read-only, shared writer or exclusive writer
     * @return the open sketch
     * @throws CorruptSketchFileException if the precision is outside [4, 21], the payload is not
     *     the size it implies, a register holds more than the largest rank ({@code 65 - p}; 63 for
     *     DataSketches' scheme), the summary
     *     line's reserved bytes are not zero, or the line disagrees with the registers while no change
     *     is in flight (unless this opener is the only writer and the file was not closed cleanly)
     * @throws io.mapsketch.SketchFileException if the file is not a valid HyperLogLog file, its hash
     *     scheme does not run at its precision (XXH3_64 above 18), or it is locked against this mode
     * @throws IOException if the file cannot be read
     */
    public static HyperLogLog open(Path file, OpenMode mode) throws IOException {
        return open(file, mode, SketchKind.HYPERLOGLOG, HyperLogLogEstimates::checkOnOpen, HyperLogLog::read);
    }

    static HyperLogLog read(SketchRegion region) throws IOException {
        return new HyperLogLog(region, HyperLogLogFormat.read(HeaderReader.of(region)));
    }

    @Override
    protected HyperLogLogFormat format() {
        return format;
    }

    /** Raises the key's register to its rank if it is lower ({@link HyperLogLogRegisters#add}). */
    @Override
    protected boolean addHash(long hash) {
        return registers.add(hash);
    }

    /** Raises the batch's registers ({@link HyperLogLogRegisters#addAll}). */
    @Override
    protected void addHashes(long[] hashes, int from, int count) {
        registers.addAll(hashes, from, count);
    }

    /**
     * Reads the numbers the {@code EXCLUSIVE} writer keeps in place of the file's summary line into
     * {@code summary} (the layout of {@link HyperLogLogSummaryLine#read}), from the thread that changed
     * them last; returns whether they may be trusted ({@code false} in other modes).
     */
    boolean readKept(long[] summary) {
        return estimates.readKept(summary);
    }

    /**
     * Merges another sketch into this one by register maximum: afterwards this sketch (and its summary
     * line) is, byte for byte, that of the union of both key sets. For a higher precision, {@link #mergeFolded}.
     *
     * <p>Cost: a SIMD scan for the first register that would grow (a merge that raises nothing stops
     * there and keeps the cached estimate); then the SIMD register-max kernel and one summary pass
     * ({@code EXCLUSIVE}), or a compare-and-set of each 32-bit word that grows ({@code SHARED}).
     *
     * @param other a sketch with the same precision, hash scheme and seed; not modified
     * @throws IncompatibleSketchException naming the parameter that differs (for the hash scheme, both)
     * @throws IllegalStateException if this sketch is read-only or either is closed
     */
    @Override
    public void merge(HyperLogLog other) {
        Objects.requireNonNull(other, "other");
        requireWritable();
        requireCompatible(other, HyperLogLogFormat.SHAPE);
        registers.merge(other.registers.bytes());
        countItems(other.itemsAdded());
    }

    /**
     * Folds a sketch of the same or a higher precision down to this one's and merges it: afterwards
     * this sketch is, byte for byte, the sketch of precision {@link #precision()} built from both key
     * sets; folding loses the other sketch's extra accuracy, never correctness. To fold a sketch into
     * a new one, create an empty sketch of the lower precision and the same seed and call this. Cost:
     * one scalar pass over the other sketch's registers.
     *
     * @param other a sketch with precision at least this one's, the same hash scheme and seed; not
     *     modified
     * @throws IncompatibleSketchException if the kind, hash scheme or seed differ
     * @throws IllegalArgumentException if the other sketch's precision is lower than this one's
     * @throws IllegalStateException if this sketch is read-only or either is closed
     */
    public void mergeFolded(HyperLogLog other) {
        Objects.requireNonNull(other, "other");
        requireWritable();
        requireCompatible(other, List.of());
        if (other.precision < precision) {
            throw new IllegalArgumentException("cannot fold precision " + other.precision + " up to " + precision
                    + ": a sketch folds only to an equal or lower precision");
        }
        registers.fold(other.registers);
        countItems(other.itemsAdded());
    }

    /**
     * Estimates the number of distinct keys in the union of several sketches without modifying any
     * of them. Sketches of higher precision are folded to the lowest precision among them, so the
     * answer is {@link #estimate()} of the merge of all of them at that precision (of a single sketch, its
     * own {@link #estimate()}).
     *
     * Cost: a heap scratch of the lowest precision's m bytes, one pass over every sketch's registers
     * (SIMD for those at the lowest precision) and one summary pass.
     *
     * @param sketches at least one sketch; all of the same hash scheme and seed
     * @return the estimated number of distinct keys added to any of them, by the sketches' {@link #estimator()}
     * @throws IllegalArgumentException if no sketch is given
     * @throws IncompatibleSketchException if the kinds, hash schemes or seeds differ
     * @throws IllegalStateException if a sketch is closed
     */
    public static double estimateUnion(HyperLogLog... sketches) {
        if (sketches.length == 0) {
            throw new IllegalArgumentException("sketches is empty; the union needs at least one sketch");
        }
        if (sketches.length == 1) {
            return Objects.requireNonNull(sketches[0], "sketch").estimate();
        }
        HyperLogLogRegisters[] sources = new HyperLogLogRegisters[sketches.length];
        for (int s = 0; s < sketches.length; s++) {
            sketches[0].requireCompatible(Objects.requireNonNull(sketches[s], "sketch"), List.of());
            sources[s] = sketches[s].registers;
        }
        return HyperLogLogEstimates.union(sources, sketches[0].estimator);
    }

    /**
     * Estimates the number of distinct keys added (0 for an empty sketch) by {@link #estimator()}: Ertl's
     * improved estimator (no bias tables, no switch), the same bit for bit from the summary line or a pass
     * over the registers; Redis's {@code PFCOUNT}, an integer, from a histogram pass at every call; or
     * DataSketches' estimate, a kept number or a histogram pass.
     *
     * <p>Cost: with nothing changed since this sketch's last estimate, a load or two and a compare; after
     * a change, four loads and O(64) arithmetic; without trusted numbers (format version 1, a change in
     * flight, a writer that died, another process's or thread's estimate while an {@code EXCLUSIVE}
     * writer holds the file), one SIMD pass over the m registers (about a microsecond at p = 14).
     *
     * @return the estimate, at least 0
     * @throws IllegalStateException if the sketch is closed, or the pass finds a register holding an
     *     impossible rank (the file was corrupted after it was opened)
     */
    public double estimate() {
        return current().estimate();
    }

    /**
     * Returns the estimator that answers {@link #estimate()}, the one the sketch's hash scheme calls for
     * (for DataSketches' scheme, the one its state calls for now).
     *
     * @return {@link CardinalityEstimator#REDIS_PFCOUNT} for a sketch that hashes as Redis does,
     *     {@link CardinalityEstimator#DATASKETCHES_HIP} or {@link CardinalityEstimator#DATASKETCHES_COMPOSITE}
     *     for one that hashes as DataSketches does, {@link CardinalityEstimator#IMPROVED} otherwise
     * @throws IllegalStateException if a sketch that hashes as DataSketches does is closed
     */
    public CardinalityEstimator estimator() {
        return estimator == CardinalityEstimator.DATASKETCHES_HIP ? current().estimator() : estimator;
    }

    /**
     * Returns DataSketches' HIP accumulator of a sketch that hashes as DataSketches does: the
     * {@code EXCLUSIVE} writer's own, any other sketch's the one the file holds (as its last exclusive writer
     * or its import left it). It answers {@link #estimate()} while {@link #estimator()} is
     * {@link CardinalityEstimator#DATASKETCHES_HIP}; an HLL_8 image carries it either way.
     *
     * @return the accumulator, or {@code NaN} for a sketch of another scheme
     * @throws IllegalStateException if the sketch is closed
     */
    public double hipAccumulator() {
        if (isClosed()) {
            throw new IllegalStateException(describe() + " is closed");
        }
        return registers.hipAccumulator();
    }

    /**
     * Estimates the number of distinct keys with the classic estimator of Flajolet et al. (raw
     * harmonic mean, linear counting while it is at most 2.5 m and a register is empty). It is kept
     * for comparison: it is biased by a few percent just above the switch and jumps there, which
     * {@link #estimate()} is not. Use {@link #estimate()}. Cost: as {@link #estimate()}.
     *
     * @return the classic estimate, at least 0
     * @throws IllegalStateException if the sketch is closed or a register holds an impossible rank
     */
    public double classicEstimate() {
        HyperLogLogEstimates.Snapshot snapshot = current();
        return HyperLogLogEstimator.classic(snapshot.zeros(), snapshot.saturated(), snapshot.powerSum(), precision);
    }

    /**
     * Returns a lower bound of the distinct count at {@code k} standard deviations: the estimate
     * divided by {@code 1 + k} {@link #relativeStandardError()}, but at least the number of non-empty
     * registers (each holds a distinct key) and at most the estimate. With {@code k = 2} the true
     * count lies below it in about 2.5% of sketches (normal approximation; below about {@code m} keys the
     * interval is conservative). Cost: as {@link #estimate()}.
     *
     * @param standardDeviations k, finite and at least 0
     * @return the lower bound
     * @throws IllegalArgumentException if k is negative or not finite
     * @throws IllegalStateException if the sketch is closed or a register holds an impossible rank
     */
    public double lowerBound(double standardDeviations) {
        double width = width(standardDeviations);
        HyperLogLogEstimates.Snapshot snapshot = current();
        double estimate = snapshot.estimate();
        return Math.min(estimate, Math.max(registerCount() - snapshot.zeros(), estimate / (1 + width)));
    }

    /**
     * Returns an upper bound of the distinct count at {@code k} standard deviations: the estimate
     * divided by {@code 1 - k} {@link #relativeStandardError()}, or positive infinity once that is
     * not positive. With {@code k = 2} the true count lies above it in about 2.5% of sketches. Cost: as
     * {@link #estimate()}.
     *
     * @param standardDeviations k, finite and at least 0
     * @return the upper bound
     * @throws IllegalArgumentException if k is negative or not finite
     * @throws IllegalStateException if the sketch is closed or a register holds an impossible rank
     */
    public double upperBound(double standardDeviations) {
        double width = width(standardDeviations);
        double estimate = estimate();
        return width < 1 ? estimate / (1 - width) : Double.POSITIVE_INFINITY;
    }

    private double width(double standardDeviations) {
        if (!(standardDeviations >= 0 && standardDeviations < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException(
                    "standardDeviations = " + standardDeviations + ", must be finite and >= 0");
        }
        return standardDeviations * relativeStandardError();
    }

    /**
     * Returns the relative standard error {@code 1.04 / sqrt(m)}: one standard deviation of
     * {@code estimate / n - 1}, not a maximum. p = 14 gives 0.8125%.
     *
     * @return the relative standard error
     */
    public double relativeStandardError() {
        return HyperLogLogSizing.relativeStandardError(precision);
    }

    /**
     * Returns the precision p.
     *
     * @return p, in [4, 18]; in [4, 21] for a sketch that hashes as DataSketches does
     */
    public int precision() {
        return precision;
    }

    /**
     * Returns the number of registers m = 2^p.
     *
     * @return m
     */
    public int registerCount() {
        return 1 << precision;
    }

    /** Raises the registers to {@code content}'s, a new file's initial registers ({@link HyperLogLogBuilder#registers}). */
    void raiseTo(MemorySegment content) {
        registers.merge(content);
    }

    /** Starts a new sketch's HIP accumulator, in order ({@link HyperLogLogBuilder#hipAccumulator}). */
    void resumeHip(double accumulator) {
        ((DataSketchesRegisters) registers).resume(accumulator);
        if (soleWriter) {
            noteChange();
        }
    }

    /**
     * Closes the sketch as every sketch closes ({@link io.mapsketch.Sketch#close()}). The {@code EXCLUSIVE} writer first
     * stores the summary line's numbers it kept, so that later readers read the line; an estimate after
     * the close fails as the sketch's other accesses do.
     *
     * @throws IOException if releasing the file lock or closing the file fails
     */
    @Override
    public void close() throws IOException {
        estimates.close();
        kept = null;
        super.close();
    }

    /** Records a change of the sole writer's: its kept snapshot is stale. Plain stores, as the raise's. */
    void noteChange() {
        kept = null;
        changer = Thread.currentThread().threadId();
    }

    /**
     * The estimator inputs now: the sole writer's kept snapshot until a change clears it, then a new one
     * ({@link HyperLogLogEstimates#keptSnapshot}) or a pass; other sketches ask their estimate sources.
     */
    private HyperLogLogEstimates.Snapshot current() {
        if (!soleWriter) {
            return estimates.current();
        }
        HyperLogLogEstimates.Snapshot last = kept;
        if (last != null) {
            return last;
        }
        HyperLogLogEstimates.Snapshot fresh =
                estimates.keptSnapshot(changer == Thread.currentThread().threadId());
        if (fresh == null) {
            return estimates.pass();
        }
        kept = fresh;
        return fresh;
    }

    /** A maximum of registers: merging the same sketch again changes nothing. */
    @Override
    public boolean mergeIsIdempotent() {
        return true;
    }

    /** Precision, memory, the estimate (rounded) and the relative standard error. */
    @Override
    protected void putFigures(Map<String, Object> figures) {
        figures.put("precision", precision);
        super.putFigures(figures);
        figures.put("estimate", Math.round(estimate()));
        figures.put("estimator", estimator());
        figures.put("relative standard error", relativeStandardError());
    }

    @Override
    public String toString() {
        return "HyperLogLog[" + describe() + ", precision " + precision + ", " + itemsAdded() + " items]";
    }
}
