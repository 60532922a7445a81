package io.mapsketch.engine;

import static io.mapsketch.engine.HyperLogLogLayout.foldedValue;
import static io.mapsketch.engine.HyperLogLogLayout.maxRank;
import static io.mapsketch.engine.HyperLogLogLayout.payloadBytes;
import static io.mapsketch.engine.HyperLogLogLayout.rank;
import static io.mapsketch.engine.HyperLogLogLayout.registerIndex;

import io.mapsketch.kernels.RegisterKernels;
import io.mapsketch.memory.AccessMode;
import io.mapsketch.memory.CorruptSketchFileException;
import io.mapsketch.memory.SketchFileLayout;
import io.mapsketch.memory.SketchKind;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Objects;

/**
 * HyperLogLog: "how many distinct keys?" in {@code m = 2^p} one-byte registers, for a precision
 * {@code p} from 4 to 18 (p = 10 is 1 KiB and 3.25% relative standard error, p = 14 is 16 KiB and
 * 0.81%). The key's 64-bit hash picks register {@code h >>> (64 - p)} with its first p bits; the
 * register keeps the largest rank seen, the number of leading zeros of the other {@code 64 - p}
 * bits plus one (at most {@code 65 - p}). The layout is drawn in {@code docs/file-format.md}.
 *
 * <p>Error direction: both ways. {@link #estimate()} is Ertl's improved estimator (2017), nearly
 * unbiased from 0 to beyond 10^9 distinct keys, with relative standard error about
 * {@link #relativeStandardError()} = {@code 1.04 / sqrt(m)} (and less below about {@code m} keys).
 * That figure is one standard deviation, not a maximum: one estimate in three lies further off, one
 * in twenty more than twice as far. {@link #lowerBound} and {@link #upperBound} give intervals of a
 * chosen width. Adding a key again never changes the sketch.
 *
 * <p>Keys arrive in the forms of the Bloom family, and the same bytes count as the same key in any
 * form: a {@code long} is its eight little-endian bytes, a {@code CharSequence} its UTF-8 bytes.
 *
 * <p>Concurrency: a {@code SHARED} writer raises a register with a compare-and-set of the aligned
 * 32-bit word that holds it, retried only while the register is still below the new rank, so any
 * number of threads and processes adding at once leave the registers byte for byte as sequential
 * adds would (maximum is commutative and idempotent). The {@code EXCLUSIVE} writer stores plainly;
 * its batch adds hash with the SIMD kernel and then raise registers in a tight scalar loop (no
 * vector kernel fits a scatter of byte maxima), and its merges use the SIMD register-max kernel.
 * Readers may estimate while writers add, and the estimate counts every add that completed before
 * the call began.
 *
 * <p>The estimate kept up to date: a file of format version 2 (every file this build creates) keeps,
 * in its header's summary line, the three numbers the estimators need (empty and saturated registers
 * and the power sum), which every writer updates with each register it raises, and a change guard
 * (drawn in {@code docs/file-format.md}). An estimate reads the line when the guard shows no change in
 * flight and does not move while it reads, and otherwise summarises the registers in one pass, which
 * gives the same numbers; so the answer is the same, bit for bit, either way. Each open sketch caches
 * its last estimate with the guard it was computed at: asking again while the registers are unchanged
 * costs a load of the guard and a compare. A writer killed in the middle of a raise leaves the line
 * untrusted (estimates then take the pass) until a writer that opens the file as its only writer
 * recomputes it; a file that was closed cleanly and whose line disagrees with its registers is
 * refused on open. Files of format version 1 have no line; they are read and written as before and
 * every estimate takes the pass.
 *
 * <p>Cost: an add is one hash and, once the sketch has seen a few times m keys, almost always only
 * a load of the register; a raise adds a few stores ({@code EXCLUSIVE}) or three to four atomic
 * additions ({@code SHARED}) to the line. An estimate with the line trusted and unchanged since the
 * last one is a few loads; after a change it is four loads and O(64) arithmetic; without a trusted
 * line it is one pass of the register summary kernel over the m registers (16 KiB at p = 14, about a
 * microsecond).
 */
public final class HyperLogLog extends KeyedSketch {

    /** The smallest precision. */
    public static final int MIN_PRECISION = 4;
    /** The largest precision. */
    public static final int MAX_PRECISION = 18;

    private static final int PRECISION = 0;
    /** Bytes of registers the {@code SHARED} merge raises together once one of them grows: a cache line. */
    private static final long BLOCK = 64;
    /** Four registers as the little-endian 32-bit word a {@code SHARED} writer compares and sets. */
    private static final ValueLayout.OfInt REGISTER_WORD =
            ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final String[] PARAMETER_NAMES = {"precision"};
    /** What {@link #raiseWord} returns when no register of the word was lower. */
    private static final long NOT_RAISED = -1;
    private static final VarHandle CACHED;

    static {
        try {
            CACHED = MethodHandles.lookup().findVarHandle(HyperLogLog.class, "cached", Snapshot.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int precision;
    private final int registers;
    private final MemorySegment registerBytes;
    /** The summary line, or {@code null} in a file of format version 1. */
    private final HyperLogLogSummaryLine line;
    /**
     * Whether this sketch is the {@code EXCLUSIVE} writer of a file with a summary line: the only one
     * that changes it, so it drops {@link #cached} at the start of every change and an estimate needs
     * no look at the line's guard.
     */
    private final boolean soleWriter;
    /**
     * The last estimate computed from a trusted line, with its guard; replaced, never changed. Published
     * by compare-and-set; the sole writer clears it (release) at the start of each change.
     */
    @SuppressWarnings("unused")
    private Snapshot cached;

    private HyperLogLog(SketchRegion region, int precision) {
        super(region);
        this.precision = precision;
        this.registers = 1 << precision;
        this.registerBytes = payload.segment();
        this.line = summaryLine(region, precision);
        this.soleWriter = line != null && region.mode() == AccessMode.EXCLUSIVE;
    }

    private static HyperLogLogSummaryLine summaryLine(SketchRegion region, int precision) {
        return region.header().hasSummaryLine() ? new HyperLogLogSummaryLine(region.summaryLine(),
                region.mode(), 1L << precision, maxRank(precision)) : null;
    }

    /**
     * Starts a builder; {@code precision} is required.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Opens a HyperLogLog file; the precision comes from its header. A file of format version 2 has its
     * summary line checked against the registers; a writer that finds itself the only one recomputes a
     * line that a writer left untrusted (killed in the middle of a raise), or that disagrees with the
     * registers in a file that was not closed cleanly. Files of format version 1 open as before.
     *
     * <p>Cost: one pass over the registers, which must all be valid ranks; other writers wait for it to
     * finish before they open the file.
     *
     * @param file the sketch file
     * @param mode read-only, shared writer or exclusive writer
     * @return the open sketch
     * @throws CorruptSketchFileException if the precision is outside [4, 18], the payload is not
     *     the size it implies, a register holds more than the largest rank {@code 65 - p}, the summary
     *     line's reserved bytes are not zero, or the line disagrees with the registers while no change
     *     is in flight (unless this opener is the only writer and the file was not closed cleanly)
     * @throws io.mapsketch.memory.SketchFileException if the file is not a valid HyperLogLog file or
     *     is locked against this mode
     * @throws IOException if the file cannot be read
     */
    public static HyperLogLog open(Path file, AccessMode mode) throws IOException {
        return open(file, mode, SketchKind.HYPERLOGLOG, HyperLogLog::check, HyperLogLog::read);
    }

    /** The open-time check of the registers and of the summary line; see {@link #open}. */
    private static void check(SketchRegion region, boolean soleWriter) throws IOException {
        int precision = precision(region);
        MemorySegment registers = region.payload().segment();
        Path file = region.file().orElse(null);
        HyperLogLogSummaryLine line = summaryLine(region, precision);
        if (line != null) {
            line.checkOnOpen(registers, soleWriter, region.wasCleanlyClosed(), file);
        } else {
            HyperLogLogLayout.requireValidRanks(summary(registers, precision), maxRank(precision), file);
        }
    }

    private static HyperLogLog read(SketchRegion region) throws IOException {
        return new HyperLogLog(region, precision(region));
    }

    private static int precision(SketchRegion region) throws CorruptSketchFileException {
        int precision = (int) parameter(region, PRECISION, "precision", MIN_PRECISION, MAX_PRECISION);
        requirePayload(region, payloadBytes(precision), "2^precision one-byte registers, rounded up to 64 bytes");
        return precision;
    }

    @Override
    boolean addHash(long hash) {
        return raise(registerIndex(hash, precision), rank(hash, precision));
    }

    /** Whether the key's rank exceeds its register: one load and a compare, in either mode. */
    @Override
    boolean mayChange(long hash) {
        return registerBytes.get(ValueLayout.JAVA_BYTE, registerIndex(hash, precision)) < rank(hash, precision);
    }

    /**
     * Raises the batch's registers in two scalar loops (no vector kernel fits a scatter of byte maxima):
     * the first keeps, at the front of the batch, the hashes whose rank exceeds their register
     * ({@link #mayChange}); the second raises those with {@link #addHash}. Once the sketch has seen a few
     * times m keys almost no key raises a register, and the first loop, which calls nothing, is the
     * whole cost.
     */
    @Override
    void addHashes(long[] hashes, int from, int count) {
        int raising = from;
        for (int i = from; i < from + count; i++) {
            long hash = hashes[i];
            if (mayChange(hash)) {
                hashes[raising++] = hash;
            }
        }
        for (int i = from; i < raising; i++) {
            addHash(hashes[i]);
        }
    }

    /**
     * Raises a register to {@code value} if it is lower; returns whether it was. Shared writers read
     * the aligned 32-bit word that holds the byte and, only if the register is lower, compare-and-set
     * the word ({@link #raiseShared}).
     */
    private boolean raise(long index, int value) {
        if (!sharedWriters) {
            int current = registerBytes.get(ValueLayout.JAVA_BYTE, index);
            if (current >= value) {
                return false;
            }
            storeRaise(index, current, value);
            return true;
        }
        long word = index & -Integer.BYTES;
        int shift = (int) (index & (Integer.BYTES - 1)) * Byte.SIZE;
        int current = payload.getInt(word);
        return ((current >>> shift) & 0xFF) < value && raiseShared(word, current, value << shift);
    }

    /**
     * Stores an {@code EXCLUSIVE} raise of a register from {@code current} to {@code value}, with the
     * line's deltas, as one change.
     */
    private void storeRaise(long index, int current, int value) {
        if (line == null) {
            registerBytes.set(ValueLayout.JAVA_BYTE, index, (byte) value);
            return;
        }
        beginChange();
        registerBytes.set(ValueLayout.JAVA_BYTE, index, (byte) value);
        line.add(line.countsDelta(current, value), line.powerSumDelta(current, value));
        line.end();
    }

    /**
     * Raises the registers of the word at {@code word}, last read as {@code current}, to the bytes of
     * {@code floor} ({@link #raiseWord}) with the line's deltas, as one change; returns whether it changed.
     */
    private boolean raiseShared(long word, int current, int floor) {
        if (line == null) {
            return raiseWord(word, current, floor) != NOT_RAISED;
        }
        beginChange();
        long before = raiseWord(word, current, floor);
        if (before != NOT_RAISED) {
            long after = RegisterKernels.maxOfUnsignedBytes(before, floor & 0xFFFF_FFFFL);
            line.add(line.countsDelta(before, after), line.powerSumDelta(before, after));
        }
        line.end();
        return before != NOT_RAISED;
    }

    /**
     * Raises each of the four registers of the aligned 32-bit word at {@code word}, last read as
     * {@code current}, to the matching byte of {@code floor} if it is lower, with a compare-and-set
     * retried while some register stays lower; returns the word's value that the compare-and-set
     * replaced (unsigned), or {@link #NOT_RAISED} if no register was lower.
     */
    private long raiseWord(long word, int current, int floor) {
        int seen = current;
        int raised;
        while ((raised = (int) RegisterKernels.maxOfUnsignedBytes(seen & 0xFFFF_FFFFL, floor & 0xFFFF_FFFFL))
                != seen) {
            if (payload.compareAndSetInt(word, seen, raised)) {
                return seen & 0xFFFF_FFFFL;
            }
            seen = payload.getIntAcquire(word);
        }
        return NOT_RAISED;
    }

    /**
     * Merges another sketch into this one by register maximum: afterwards this sketch is, byte for
     * byte, the sketch of the union of both key sets, and its summary line is the line of those
     * registers. To merge a sketch of higher precision, use {@link #mergeFolded}.
     *
     * <p>Cost: a SIMD scan of both register arrays for the first register that would grow; a merge that
     * raises nothing stops there and leaves the line and its cached estimate as they were. In
     * {@code EXCLUSIVE} mode the SIMD register-max kernel then runs from that register on, and one
     * summary pass recomputes the line (about a microsecond at p = 14). In {@code SHARED} mode the scan
     * goes on, and for each 64-byte block that holds a register that grows, each of its 32-bit words that
     * grows is compare-and-set; the line's deltas are summed and added once at the end.
     *
     * @param other a sketch with the same precision, hash scheme and seed; not modified
     * @throws IncompatibleSketchException naming the parameter that differs
     * @throws IllegalStateException if this sketch is read-only or either is closed
     */
    public void merge(HyperLogLog other) {
        Objects.requireNonNull(other, "other");
        requireWritable();
        requireCompatible(other, PARAMETER_NAMES);
        if (sharedWriters) {
            mergeShared(other.registerBytes);
        } else {
            mergeExclusive(other.registerBytes);
        }
        countItems(other.itemsAdded());
    }

    /**
     * Folds a sketch of the same or a higher precision down to this one's and merges it: afterwards
     * this sketch is, byte for byte, the sketch of precision {@link #precision()} built from both key
     * sets. Folding loses the other sketch's extra accuracy, never correctness, since the first p
     * bits of a hash pick the register at precision p whatever the precision it was added at. To
     * fold a sketch into a new one, create an empty sketch of the lower precision and the same seed
     * and call this.
     *
     * <p>Cost: one scalar pass over the other sketch's registers; a register of this sketch that
     * grows is stored plainly ({@code EXCLUSIVE}) or with a compare-and-set ({@code SHARED}), and the
     * line's deltas are summed and added once at the end.
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
        requireCompatible(other);
        requireFoldable(other.precision, precision);
        foldIn(other);
        countItems(other.itemsAdded());
    }

    /**
     * Merges registers of the same precision plainly: the kernel from the first register that grows,
     * then the line recomputed by one summary pass, all one change. A register above the largest rank
     * (a source damaged after it was opened) leaves the change in flight, so estimates read the
     * registers and report it.
     */
    private void mergeExclusive(MemorySegment source) {
        long first = RegisterKernels.firstRaised(registerBytes, 0, source, 0, registers);
        if (first == registers) {
            return;
        }
        if (line != null) {
            beginChange();
        }
        RegisterKernels.maxUnsignedBytes(registerBytes, first, source, first, registers - first);
        if (line != null) {
            long[] summary = summary(registerBytes, precision);
            if (summary[RegisterKernels.ABOVE_TOP] == 0) {
                line.replace(summary);
                line.end();
            }
        }
    }

    /**
     * Merges registers of the same precision atomically: the scan kernel skips every register already
     * at least the source's (registers only grow, so it stays so), and each 64-byte block where one
     * would grow is raised word by word with {@link #raiseWord}, all one change.
     */
    private void mergeShared(MemorySegment source) {
        Change change = new Change();
        long next = 0;
        while (next < registers) {
            long raised = next + RegisterKernels.firstRaised(registerBytes, next, source, next, registers - next);
            long blockEnd = Math.min((raised | (BLOCK - 1)) + 1, registers);
            for (long word = raised & -Integer.BYTES; word < blockEnd; word += Integer.BYTES) {
                change.raiseWord(word, source.get(REGISTER_WORD, word));
            }
            next = blockEnd;
        }
        change.end();
    }

    private void foldIn(HyperLogLog other) {
        int d = other.precision - precision;
        Change change = new Change();
        for (long register = 0; register < registers; register++) {
            int value = foldedValue(other.registerBytes, register << d, d);
            if (value != 0) {
                change.raise(register, value);
            }
        }
        change.end();
    }

    /**
     * One change of many registers (a merge or a fold): begun before its first raise, with the line's
     * deltas summed as registers grow and added when it ends. A register raised above the largest rank
     * (from a source damaged after it was opened) leaves the change in flight, so that the line is not
     * trusted and estimates read the registers, which report the damage.
     */
    private final class Change {

        private boolean begun;
        private boolean damaged;
        private long counts;
        private long powerSum;

        /** Raises register {@code index} to at least {@code value}, as an add of that rank would. */
        void raise(long index, int value) {
            if (!sharedWriters) {
                int current = registerBytes.get(ValueLayout.JAVA_BYTE, index);
                if (current < value) {
                    begin();
                    registerBytes.set(ValueLayout.JAVA_BYTE, index, (byte) value);
                    record(current, value);
                }
                return;
            }
            long word = index & -Integer.BYTES;
            raiseWord(word, value << (int) (index & (Integer.BYTES - 1)) * Byte.SIZE);
        }

        /** Raises the four registers of the aligned 32-bit word at {@code word} to the bytes of {@code floor}. */
        void raiseWord(long word, int floor) {
            int current = payload.getInt(word);
            if (RegisterKernels.maxOfUnsignedBytes(current & 0xFFFF_FFFFL, floor & 0xFFFF_FFFFL)
                    == (current & 0xFFFF_FFFFL)) {
                return;
            }
            begin();
            long before = HyperLogLog.this.raiseWord(word, current, floor);
            if (before != NOT_RAISED) {
                record(before, RegisterKernels.maxOfUnsignedBytes(before, floor & 0xFFFF_FFFFL));
            }
        }

        private void begin() {
            if (!begun && line != null) {
                beginChange();
            }
            begun = true;
        }

        private void record(long before, long after) {
            if (line != null) {
                counts += line.countsDelta(before, after);
                powerSum += line.powerSumDelta(before, after);
                damaged |= line.aboveTop(after);
            }
        }

        void end() {
            if (begun && line != null && !damaged) {
                line.add(counts, powerSum);
                line.end();
            }
        }
    }

    private static void requireFoldable(int from, int to) {
        if (from < to) {
            throw new IllegalArgumentException("cannot fold precision " + from + " up to " + to
                    + ": a sketch folds only to an equal or lower precision");
        }
    }

    /**
     * Estimates the number of distinct keys in the union of several sketches without modifying any
     * of them. Sketches of higher precision are folded to the lowest precision among them, so the
     * answer is {@link #estimate()} of the merge of all of them at that precision.
     *
     * <p>Cost: a scratch array of the lowest precision's m bytes on the heap, one pass over every
     * sketch's registers (SIMD for those at the lowest precision) and one summary pass.
     *
     * @param sketches at least one sketch; all of the same hash scheme and seed
     * @return the estimated number of distinct keys added to any of them
     * @throws IllegalArgumentException if no sketch is given
     * @throws IncompatibleSketchException if the kinds, hash schemes or seeds differ
     * @throws IllegalStateException if a sketch is closed
     */
    public static double estimateUnion(HyperLogLog... sketches) {
        if (sketches.length == 0) {
            throw new IllegalArgumentException("sketches is empty; the union needs at least one sketch");
        }
        int precision = MAX_PRECISION;
        for (HyperLogLog sketch : sketches) {
            sketches[0].requireCompatible(Objects.requireNonNull(sketch, "sketch"));
            precision = Math.min(precision, sketch.precision);
        }
        int m = 1 << precision;
        MemorySegment union = MemorySegment.ofArray(new byte[m]);
        for (HyperLogLog sketch : sketches) {
            int d = sketch.precision - precision;
            if (d == 0) {
                RegisterKernels.maxUnsignedBytes(union, 0, sketch.registerBytes, 0, m);
                continue;
            }
            for (long register = 0; register < m; register++) {
                int value = foldedValue(sketch.registerBytes, register << d, d);
                if (value > union.get(ValueLayout.JAVA_BYTE, register)) {
                    union.set(ValueLayout.JAVA_BYTE, register, (byte) value);
                }
            }
        }
        long[] summary = summary(union, precision);
        if (summary[RegisterKernels.ABOVE_TOP] != 0) {
            throw new IllegalStateException("the union has " + summary[RegisterKernels.ABOVE_TOP]
                    + " registers above the largest rank 65 - precision = " + maxRank(precision)
                    + "; a sketch's file was corrupted while open");
        }
        return improved(summary, precision);
    }

    /**
     * Estimates the number of distinct keys added, with Ertl's improved estimator: no bias tables,
     * no switch between estimators, relative standard error about {@link #relativeStandardError()}.
     * Returns 0 for an empty sketch. The answer is the same, bit for bit, whether it comes from the
     * summary line or from a pass over the registers.
     *
     * <p>Cost: with the summary line trusted and unchanged since this sketch's last estimate, the cached
     * estimate: two loads for the {@code EXCLUSIVE} writer, which clears it when it changes the line, and a
     * load of the line's guard and a compare for the others; after a change, four loads and O(64) arithmetic;
     * without a trusted line (a file of format version 1, a change in flight, a writer that died), one
     * pass of the register summary kernel over the registers (about a microsecond at p = 14 with
     * 512-bit vectors).
     *
     * @return the estimate, at least 0
     * @throws IllegalStateException if the sketch is closed, or the pass finds a register holding an
     *     impossible rank (the file was corrupted after it was opened)
     */
    public double estimate() {
        return current().estimate();
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
        Snapshot snapshot = current();
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
        Snapshot snapshot = current();
        double estimate = snapshot.estimate();
        return Math.min(estimate, Math.max(registers - snapshot.zeros(), estimate / (1 + width)));
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
            throw new IllegalArgumentException("standardDeviations = " + standardDeviations
                    + ", must be finite and >= 0");
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
        return SketchSizing.hyperLogLogRelativeStandardError(precision);
    }

    /**
     * Returns the precision p.
     *
     * @return p, in [4, 18]
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
        return registers;
    }

    /**
     * Starts a change of the registers and the line. The sole writer then clears the cached estimate,
     * after the line's guard has moved, so that no snapshot taken before the change is confirmed after it
     * ({@link #publish}).
     */
    private void beginChange() {
        line.begin();
        if (soleWriter) {
            CACHED.setRelease(this, null);
        }
    }

    /**
     * The estimator inputs now: the cached snapshot if the line has not changed since it was taken (for
     * the sole writer, if it is there and confirmed; for others, if the line's guard has not moved), else a
     * new one ({@link #snapshot}).
     */
    private Snapshot current() {
        Snapshot last = (Snapshot) CACHED.getAcquire(this);
        if (last != null && (soleWriter ? last.confirmed() : line.guard() == last.guard())) {
            return last;
        }
        return snapshot(last);
    }

    /**
     * Reads the summary line if it may be trusted, and caches the result in place of {@code seen}, the
     * cache's content before; otherwise summarises the registers in one pass. Both give the same numbers,
     * so the same estimate.
     */
    private Snapshot snapshot(Snapshot seen) {
        long[] summary = new long[RegisterKernels.SUMMARY_LENGTH];
        long guard = line == null ? HyperLogLogSummaryLine.UNTRUSTED : line.read(summary);
        if (guard == HyperLogLogSummaryLine.UNTRUSTED) {
            summary = summary(registerBytes, precision);
            if (summary[RegisterKernels.ABOVE_TOP] != 0) {
                throw new IllegalStateException(describe() + " has " + summary[RegisterKernels.ABOVE_TOP]
                        + " registers above the largest rank 65 - precision = " + maxRank(precision)
                        + "; the file was corrupted while open");
            }
        }
        Snapshot snapshot = new Snapshot(guard, summary[RegisterKernels.ZEROS], summary[RegisterKernels.AT_TOP],
                summary[RegisterKernels.POWER_SUM], improved(summary, precision), false);
        if (guard != HyperLogLogSummaryLine.UNTRUSTED) {
            publish(seen, snapshot);
        }
        return snapshot;
    }

    /**
     * Caches a snapshot taken at a trusted guard in place of {@code seen}. Other sketches compare the
     * guard on every estimate, so it goes in as it is. Estimates of the sole writer's sketch trust a
     * confirmed snapshot without a look at the guard, so it goes in unconfirmed and is confirmed only if
     * the guard has not moved since it was taken: a clear by the writer ({@link #beginChange}) that comes
     * before the first compare-and-set is seen by it, with the moved guard; one that comes after makes
     * the confirmation fail.
     */
    private void publish(Snapshot seen, Snapshot taken) {
        if (!CACHED.compareAndSet(this, seen, taken) || !soleWriter) {
            return;
        }
        CACHED.compareAndSet(this, taken, line.guard() == taken.guard() ? taken.confirm() : null);
    }

    /**
     * What both estimators need, taken at one moment, with the improved estimate of it.
     *
     * @param guard the summary line's guard it was read at, or {@link HyperLogLogSummaryLine#UNTRUSTED}
     *     if it comes from a pass over the registers
     * @param confirmed whether the sole writer's sketch may trust it without a look at the guard
     */
    private record Snapshot(long guard, long zeros, long saturated, long powerSum, double estimate,
            boolean confirmed) {

        Snapshot confirm() {
            return new Snapshot(guard, zeros, saturated, powerSum, estimate, true);
        }
    }

    /**
     * Summarises 2^p registers with the largest rank as {@code top}: empty and saturated registers, the
     * registers above the largest rank (a corrupt file), and the power sum of the others.
     */
    private static long[] summary(MemorySegment registers, int precision) {
        long[] summary = new long[RegisterKernels.SUMMARY_LENGTH];
        RegisterKernels.summary(registers, 0, 1L << precision, maxRank(precision), summary);
        return summary;
    }

    private static double improved(long[] summary, int precision) {
        return HyperLogLogEstimator.improved(summary[RegisterKernels.ZEROS], summary[RegisterKernels.AT_TOP],
                summary[RegisterKernels.POWER_SUM], precision);
    }

    /**
     * Closes the sketch as every sketch closes ({@link Sketch#close()}), and drops its cached estimate,
     * so that an estimate after the close fails as the sketch's other accesses do.
     *
     * @throws IOException if releasing the file lock or closing the file fails
     */
    @Override
    public void close() throws IOException {
        CACHED.setVolatile(this, null);
        super.close();
    }

    @Override
    public String toString() {
        return "HyperLogLog[" + describe() + ", precision " + precision + ", " + itemsAdded() + " items]";
    }

    /** Builds a HyperLogLog sketch from its precision. */
    public static final class Builder extends SketchBuilder<Builder, HyperLogLog> {

        private int precision;

        private Builder() {
        }

        /**
         * Sets the precision p: m = 2^p registers of one byte, relative standard error
         * {@code 1.04 / sqrt(m)}. Required.
         *
         * @param precision p, in [4, 18]; 14 gives 16 KiB and 0.81%
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder precision(int precision) {
            SketchSizing.hyperLogLogRegisters(precision);
            this.precision = precision;
            return this;
        }

        @Override
        Builder self() {
            return this;
        }

        @Override
        SketchKind kind() {
            return SketchKind.HYPERLOGLOG;
        }

        @Override
        long[] parameters() {
            requireSet("precision", precision != 0);
            return new long[] {precision};
        }

        @Override
        long payloadBytes() {
            requireSet("precision", precision != 0);
            return HyperLogLogLayout.payloadBytes(precision);
        }

        /** Version 2: the header keeps the summary line. */
        @Override
        int formatVersion() {
            return SketchFileLayout.SUMMARY_LINE_VERSION;
        }

        @Override
        HyperLogLog wrap(SketchRegion region) throws IOException {
            return read(region);
        }
    }
}
