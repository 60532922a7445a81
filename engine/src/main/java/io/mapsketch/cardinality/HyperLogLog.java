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
 * estimator, nearly unbiased from 0 to beyond 10^9 keys); Redis's ({@link io.mapsketch.interop.RedisHyperLogLog}),
 * which raises the registers {@code PFADD} raises and answers {@code PFCOUNT}; DataSketches'
 * ({@link io.mapsketch.interop.DataSketchesHll}), which keeps DataSketches' LIST and SET coupons until it
 * promotes them where DataSketches does (its {@code EXCLUSIVE} writer, whose merges are DataSketches' union's;
 * a {@code SHARED} writer's add or merge promotes first), raises the registers {@code HllSketch.update} raises and answers its coupon, HIP or
 * composite estimate. Sketches merge only within one scheme and seed.
 *
 * <p>Concurrency: any number of {@code SHARED} writers in any number of processes leave the registers
 * byte for byte as sequential adds would. The {@code EXCLUSIVE} writer stores plainly and takes adds
 * from one thread at a time (handed on with the usual happens-before); any thread may estimate while it
 * adds, though a thread that added earlier may then be off by the registers being raised. Readers in
 * any process may estimate while writers add; the estimate counts every add completed before the call.
 *
 * <p>Cost: an add is one hash and, once the sketch has seen a few times m keys, almost always only a load
 * of the register; a raise adds a store and a few additions ({@code EXCLUSIVE}) or three to four atomic
 * additions ({@code SHARED}). An estimate reads a few words of the header's summary line, not the
 * registers ({@link #estimate()}; the protocol is in {@code docs/design/cardinality.md}).
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
    /** The registers; {@link HyperLogLogUnion} reads them, {@link HyperLogLogBuilder} fills a new file's. */
    final HyperLogLogRegisters registers;
    /** The estimator the hash scheme calls for; read by {@link HyperLogLogUnion}. */
    final CardinalityEstimator estimator;
    /** Whether this sketch is the {@code EXCLUSIVE} writer of a file with a summary line. */
    private final boolean soleWriter;
    /** The sole writer's snapshot of its kept numbers, {@code null} once a change made it stale; read by any thread. */
    private HyperLogLogEstimates.Snapshot kept;
    /** The id of the thread that made the sole writer's last change. */
    private long changer;

    private HyperLogLog(SketchRegion region, HyperLogLogFormat format) {
        super(region);
        HashScheme scheme = region.header().hashScheme();
        this.estimator = CardinalityEstimator.of(scheme);
        this.format = format;
        this.precision = format.precision();
        HyperLogLogSummaryLine line = HyperLogLogSummaryLine.of(region, precision);
        this.soleWriter = line != null && mode() == OpenMode.EXCLUSIVE;
        this.registers = scheme == HashScheme.DATASKETCHES_MURMUR3_128
                ? DataSketchesRegisters.create(
                        payload, precision, sharedWriters, line, soleWriter, this, format.couponArea())
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
     * Opens a HyperLogLog file; the precision comes from its header. The summary line (version 2 on) is
     * checked against the registers and recomputed by an only writer where it is untrusted or, in a file not
     * closed cleanly, disagrees. Cost: one pass over the registers, which other writers wait for.
     *
     * @param file the sketch file
     * @param mode read-only, shared writer or exclusive writer
     * @return the open sketch
     * @throws CorruptSketchFileException if the precision is outside [4, 21], the payload is not the size
     *     it implies, a register holds more than the largest rank ({@code 65 - p}; 63 for DataSketches'
     *     scheme), the summary line's reserved bytes are not zero, or the line disagrees with the registers
     *     while no change is in flight (unless this opener is the only writer and the file was not closed cleanly)
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

    /** Reads the sole writer's kept numbers ({@link HyperLogLogEstimates#readKept}); whether they may be trusted. */
    boolean readKept(long[] summary) {
        return estimates.readKept(summary);
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
     * Merges another sketch into this one by register maximum: afterwards this sketch (and its summary
     * line) is, byte for byte, that of the union of both key sets. For a higher precision, {@link #mergeFolded}.
     * The {@code EXCLUSIVE} writer of DataSketches' scheme merges as DataSketches' union of two sketches of one
     * lgK does: coupons stay coupons while the union's would, and its estimate is the union's.
     *
     * <p>Cost: a SIMD scan for the first register that would grow (a merge that raises nothing changes nothing),
     * then the register-max kernel and a summary pass ({@code EXCLUSIVE}) or a compare-and-set per word that grows.
     *
     * @param other a sketch with the same precision, hash scheme and seed; not modified
     * @throws IncompatibleSketchException naming the parameter that differs (for the hash scheme, both)
     * @throws IllegalStateException if this sketch is read-only or either is closed
     */
    @Override
    public void merge(HyperLogLog other) {
        requireWritable();
        requireMergeable(other);
        registers.merge(other.registers);
        countItems(other.itemsAdded());
    }

    /** The precision, hash scheme and seed, as {@link #merge} takes them. */
    @Override
    public void requireMergeable(HyperLogLog other) {
        requireCompatible(Objects.requireNonNull(other, "other"), HyperLogLogFormat.SHAPE);
    }

    /**
     * Folds a sketch of the same or a higher precision down to this one's and merges it: afterwards this sketch
     * is, byte for byte, the one of precision {@link #precision()} built from both key sets (folding loses
     * accuracy, never correctness). Cost: one scalar pass over the other's registers.
     *
     * @param other a sketch with precision at least this one's, the same hash scheme and seed; not modified
     * @throws IncompatibleSketchException if the kind, hash scheme or seed differ
     * @throws IllegalArgumentException if the other sketch's precision is lower than this one's
     * @throws IllegalStateException if this sketch is read-only or either is closed
     */
    public void mergeFolded(HyperLogLog other) {
        requireWritable();
        requireFoldable(other);
        registers.fold(other.registers);
        countItems(other.itemsAdded());
    }

    /**
     * Checks that {@link #mergeFolded} would take {@code other}, without merging. Cost: a comparison of headers.
     *
     * @param other a HyperLogLog
     * @throws IncompatibleSketchException if the kind, hash scheme or seed differ
     * @throws IllegalArgumentException if the other sketch's precision is lower than this one's
     */
    public void requireFoldable(HyperLogLog other) {
        requireSameHashing(Objects.requireNonNull(other, "other"));
        if (other.precision() < precision()) {
            throw new IllegalArgumentException("cannot fold precision " + other.precision() + " up to " + precision()
                    + ": a sketch folds only to an equal or lower precision");
        }
    }

    /** Refuses {@code other} if its kind, hash scheme or seed differ from this sketch's; its precision may. */
    void requireSameHashing(HyperLogLog other) {
        requireCompatible(other, List.of());
    }

    /**
     * Estimates the number of distinct keys in the union of several sketches without modifying any: the
     * {@link #estimate()} of their merge folded to the lowest precision among them (of one sketch, its own).
     * Cost: a heap scratch of m bytes, one pass over every sketch's registers and one summary pass.
     *
     * @param sketches at least one sketch; all of the same hash scheme and seed
     * @return the estimated number of distinct keys added to any of them, by the sketches' {@link #estimator()}
     * @throws IllegalArgumentException if no sketch is given
     * @throws IncompatibleSketchException if the kinds, hash schemes or seeds differ
     * @throws IllegalStateException if a sketch is closed
     */
    public static double estimateUnion(HyperLogLog... sketches) {
        return HyperLogLogUnion.estimate(sketches);
    }

    /**
     * Estimates the number of distinct keys added (0 for an empty sketch) by {@link #estimator()}: Ertl's
     * improved estimator, bit for bit the same from the summary line or the registers; Redis's {@code PFCOUNT}
     * from a histogram pass; or DataSketches' estimate, a kept number, its coupons or a histogram pass.
     *
     * <p>Cost: with nothing changed since the last estimate, a load or two; after a change, four loads and
     * O(64) arithmetic; without trusted numbers (version 1, a change in flight or left by a dead writer, an
     * estimate beside an {@code EXCLUSIVE} writer), one SIMD pass over the m registers (~1 us at p = 14).
     *
     * @return the estimate, at least 0
     * @throws IllegalStateException if the sketch is closed or a pass finds an impossible rank (the file was
     *     corrupted while open)
     */
    public double estimate() {
        return current().estimate();
    }

    /**
     * Returns the estimator that answers {@link #estimate()}, the one the sketch's hash scheme calls for
     * (for DataSketches' scheme, the one its state calls for now).
     *
     * @return {@link CardinalityEstimator#REDIS_PFCOUNT} for a sketch that hashes as Redis does,
     *     {@link CardinalityEstimator#DATASKETCHES_COUPON}, {@code _HIP} or {@code _COMPOSITE} for one that
     *     hashes as DataSketches does, {@link CardinalityEstimator#IMPROVED} otherwise
     * @throws IllegalStateException if a sketch that hashes as DataSketches does is closed
     */
    public CardinalityEstimator estimator() {
        return estimator == CardinalityEstimator.DATASKETCHES_HIP ? current().estimator() : estimator;
    }

    /**
     * Returns DataSketches' HIP accumulator of a sketch that hashes as DataSketches does: the {@code EXCLUSIVE}
     * writer's own, else the file's (0 before a promotion). It answers {@link #estimate()} while
     * {@link #estimator()} is {@link CardinalityEstimator#DATASKETCHES_HIP}; an HLL_8 image carries it.
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
     * Returns the coupon table of a sketch that hashes as DataSketches does while in DataSketches' LIST or SET
     * mode, as its updatable image holds it (a LIST's 8 entries in arrival order, a SET's {@code 2^lgArr}).
     *
     * @return a copy of the table; {@code null} once the registers answer, and for another scheme
     * @throws IllegalStateException if a sketch that hashes as DataSketches does is closed
     */
    public int[] dataSketchesCoupons() {
        return registers.couponTable();
    }

    /**
     * Estimates the number of distinct keys with the classic estimator of Flajolet et al. (raw harmonic mean,
     * linear counting while at most 2.5 m with a register empty), for comparison: biased by a few percent
     * above the switch. Use {@link #estimate()}, which costs the same (for DataSketches' scheme, a pass over the
     * registers).
     *
     * @return the classic estimate, at least 0
     * @throws IllegalStateException if the sketch is closed or a register holds an impossible rank
     */
    public double classicEstimate() {
        return registers.classicEstimate(current());
    }

    /**
     * Returns a lower bound of the distinct count at {@code k} standard deviations: the estimate divided by
     * {@code 1 + k} {@link #relativeStandardError()}, at least the non-empty registers, at most the estimate;
     * with {@code k = 2} the true count lies below it in about 2.5% of sketches. Cost: as {@link #estimate()}.
     *
     * @param standardDeviations k, finite and at least 0
     * @return the lower bound
     * @throws IllegalArgumentException if k is negative or not finite
     * @throws IllegalStateException if the sketch is closed or a register holds an impossible rank
     */
    public double lowerBound(double standardDeviations) {
        double width = HyperLogLogBounds.width(standardDeviations, relativeStandardError());
        HyperLogLogEstimates.Snapshot snapshot = current();
        return HyperLogLogBounds.lower(snapshot.estimate(), registerCount() - snapshot.zeros(), width);
    }

    /**
     * Returns an upper bound of the distinct count at {@code k} standard deviations: the estimate divided by
     * {@code 1 - k} {@link #relativeStandardError()}, or positive infinity once that is not positive. With
     * {@code k = 2} the true count lies above it in about 2.5% of sketches. Cost: as {@link #estimate()}.
     *
     * @param standardDeviations k, finite and at least 0
     * @return the upper bound
     * @throws IllegalArgumentException if k is negative or not finite
     * @throws IllegalStateException if the sketch is closed or a register holds an impossible rank
     */
    public double upperBound(double standardDeviations) {
        double width = HyperLogLogBounds.width(standardDeviations, relativeStandardError());
        return HyperLogLogBounds.upper(estimate(), width);
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

    /**
     * Closes the sketch as every sketch closes ({@link io.mapsketch.Sketch#close()}), the {@code EXCLUSIVE}
     * writer after storing its kept numbers in the summary line. An estimate then fails.
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
     * The estimator inputs now: DataSketches' coupons' while they answer; the sole writer's kept snapshot until
     * a change clears it, then a new one or a pass; other sketches ask their estimate sources.
     */
    private HyperLogLogEstimates.Snapshot current() {
        HyperLogLogEstimates.Snapshot coupons = registers.couponSnapshot();
        if (coupons != null || !soleWriter) {
            return coupons != null ? coupons : estimates.current();
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

    /** An image's summary line from its registers, with a guard of zero changes ({@link HyperLogLogSummaryLine#settleImage}). */
    @Override
    protected void settleImageSummaryLine(MemorySegment line, MemorySegment payload) {
        HyperLogLogSummaryLine.settleImage(line, payload, region.header().hashScheme(), precision);
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
