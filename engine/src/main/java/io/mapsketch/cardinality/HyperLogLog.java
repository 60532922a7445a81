package io.mapsketch.cardinality;

import static io.mapsketch.cardinality.HyperLogLogLayout.foldedValue;
import static io.mapsketch.cardinality.HyperLogLogLayout.maxRank;
import static io.mapsketch.cardinality.HyperLogLogLayout.payloadBytes;
import static io.mapsketch.cardinality.HyperLogLogLayout.rank;
import static io.mapsketch.cardinality.HyperLogLogLayout.registerIndex;

import io.mapsketch.internal.HeaderFields;
import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.Sketch;
import io.mapsketch.SketchBuilder;
import io.mapsketch.SketchSizing;
import io.mapsketch.internal.KeyedSketch;
import io.mapsketch.kernels.RegisterKernels;
import io.mapsketch.memory.CorruptSketchFileException;
import io.mapsketch.memory.OpenMode;
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
 * <p>Keys arrive in {@linkplain io.mapsketch##keys every key form}, and the same bytes count as the
 * same key in any form.
 *
 * <p>Concurrency: a {@code SHARED} writer raises a register with a compare-and-set of the aligned
 * 32-bit word that holds it, retried only while the register is still below the new rank, so any
 * number of threads and processes adding at once leave the registers byte for byte as sequential
 * adds would (maximum is commutative and idempotent). The {@code EXCLUSIVE} writer stores plainly,
 * with no fence: a caller's loop of single-key adds compiles with no call, fence or locked
 * instruction in it. Its batch adds hash with the SIMD kernel and then raise registers in a tight
 * scalar loop (no vector kernel fits a scatter of byte maxima), and its merges use the SIMD
 * register-max kernel. An {@code EXCLUSIVE} sketch takes adds from one thread at a time (hand it
 * from thread to thread with the usual happens-before, a lock or a queue); any thread may estimate
 * while it adds. Readers in any process may estimate while writers add, and the estimate counts every
 * add that completed before the call began.
 *
 * <p>The estimate kept up to date: a file of format version 2 or later (every file this build creates) keeps,
 * in its header's summary line, the three numbers the estimators need (empty and saturated registers
 * and the power sum) and a change guard (drawn in {@code docs/file-format.md}). {@code SHARED}
 * writers update the line with each register they raise. The {@code EXCLUSIVE} writer holds one change
 * in flight from its open to its close, keeps the numbers in its own memory meanwhile, and stores
 * them in the line when it closes. An estimate reads the line when the guard shows no change in flight
 * and does not move while it reads, and otherwise summarises the registers in one pass, which gives
 * the same numbers; so the answer is the same, bit for bit, either way. Each open sketch caches its
 * last estimate with the guard it was computed at: asking again while the registers are unchanged
 * costs a load of the guard and a compare. The {@code EXCLUSIVE} writer's own sketch estimates from
 * the numbers it keeps, caching the result until its next raise; a thread other than the one that
 * added last takes the pass instead, since it might see those plainly stored numbers in the middle of
 * a raise. (A thread that added earlier and estimates while another thread adds cannot tell that it is
 * no longer the last to add, and may be answered, until the next raise, from numbers caught in the
 * middle of one: off by the share of the registers being raised at that moment.) A writer killed
 * while it holds the line, or in the middle of a raise, leaves it untrusted (estimates then take the
 * pass) until a writer that opens the file as its only writer recomputes it; a file that was closed
 * cleanly and whose line disagrees with its registers is refused on open. Files of format version 1
 * have no line; they are read and written as before and every estimate takes the pass.
 *
 * <p>Cost: an add is one hash and, once the sketch has seen a few times m keys, almost always only
 * a load of the register; a raise adds a store and a few additions in memory ({@code EXCLUSIVE}) or
 * three to four atomic additions to the line ({@code SHARED}). An estimate with nothing raised since
 * the last one is a few loads; after a raise it is four loads and O(64) arithmetic; without trusted
 * numbers (another process's or thread's estimate while an {@code EXCLUSIVE} writer holds the file)
 * it is one pass of the register summary kernel over the m registers (16 KiB at p = 14, about a
 * microsecond).
 */
// The mechanics every sketch shares sit in the unexported package; their public methods are this type's.
@SuppressWarnings("exports")
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
     * Whether this sketch is the {@code EXCLUSIVE} writer of a file with a summary line: it keeps the
     * line's numbers in its own memory ({@link HyperLogLogSummaryLine#attach}).
     */
    private final boolean soleWriter;
    /**
     * The last estimate computed from a trusted line, with its guard; replaced, never changed. Published
     * by compare-and-set. Not used by the sole writer.
     */
    @SuppressWarnings("unused")
    private Snapshot cached;
    /**
     * The sole writer's snapshot of the numbers it keeps, or {@code null} once a change has made it
     * stale: made at the open, then by the thread that made the last change; read by any thread.
     */
    private Snapshot kept;
    /** The id of the thread that made the sole writer's last change. */
    private long changer;

    private HyperLogLog(SketchRegion region, int precision) {
        super(region);
        this.precision = precision;
        this.registers = 1 << precision;
        this.registerBytes = payload.segment();
        this.line = summaryLine(region, precision);
        this.soleWriter = line != null && region.mode() == OpenMode.EXCLUSIVE;
        if (soleWriter) {
            line.attach();
            long[] summary = new long[RegisterKernels.SUMMARY_LENGTH];
            kept = line.readKept(summary) ? snapshotOf(HyperLogLogSummaryLine.UNTRUSTED, summary) : null;
        }
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
     * Opens a HyperLogLog file; the precision comes from its header. A file of format version 2 or later has its
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
    public static HyperLogLog open(Path file, OpenMode mode) throws IOException {
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
        int precision = (int) HeaderFields.parameter(region, PRECISION, "precision", MIN_PRECISION, MAX_PRECISION);
        HeaderFields.requirePayload(region, payloadBytes(precision), "2^precision one-byte registers, rounded up to 64 bytes");
        return precision;
    }

    /**
     * Raises the key's register to its rank if it is lower; returns whether it was. The {@code EXCLUSIVE}
     * writer's raise is written out here, with no call that is not inlined whatever the profile says:
     * a register load and compare, then, rarely, a plain store and plain arithmetic on the numbers it
     * keeps. So a caller's loop of adds compiles with no call, fence or locked instruction in it, even
     * when the JIT compiler has seen raises become rare, and keeps the sketch's fields in registers.
     * Shared writers, once the plain load shows the register lower (registers only grow, so a higher
     * value read is final), compare-and-set the aligned 32-bit word that holds it ({@link #raiseShared}).
     */
    @Override
    protected boolean addHash(long hash) {
        long index = registerIndex(hash, precision);
        int value = rank(hash, precision);
        int current = registerBytes.get(ValueLayout.JAVA_BYTE, index);
        if (current >= value) {
            return false;
        }
        if (sharedWriters) {
            return raiseShared(index, value);
        }
        registerBytes.set(ValueLayout.JAVA_BYTE, index, (byte) value);
        if (line != null) {
            line.addKept(line.countsDelta(current, value), line.powerSumDelta(current, value));
            noteChange();
        }
        return true;
    }

    /**
     * Reads the numbers the {@code EXCLUSIVE} writer keeps in place of the file's summary line into
     * {@code summary} (the layout of {@link HyperLogLogSummaryLine#read}), from the thread that changed
     * them last; returns whether they may be trusted ({@code false} in other modes).
     */
    boolean readKept(long[] summary) {
        return soleWriter && line.readKept(summary);
    }

    /** Whether the key's rank exceeds its register: one load and a compare, in either mode. */
    private boolean mayChange(long hash) {
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
    protected void addHashes(long[] hashes, int from, int count) {
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
     * Records a change of the sole writer's registers and numbers: the kept snapshot no longer describes
     * them, and by whom (see {@link #keptSnapshot}). Plain stores, as the raise's.
     */
    private void noteChange() {
        kept = null;
        changer = Thread.currentThread().threadId();
    }

    /** Starts a change of many registers or of a shared word: the line's, and for the sole writer a noted one. */
    private void beginChange() {
        line.begin();
        if (soleWriter) {
            noteChange();
        }
    }

    /**
     * A {@code SHARED} writer's raise of register {@code index} to {@code value}: a read of the aligned
     * 32-bit word that holds it and, only if the register is lower, a compare-and-set of the word with
     * the line's deltas, as one change; returns whether it changed.
     */
    private boolean raiseShared(long index, int value) {
        long word = index & -Integer.BYTES;
        int shift = (int) (index & (Integer.BYTES - 1)) * Byte.SIZE;
        int current = payload.getInt(word);
        return ((current >>> shift) & 0xFF) < value && raiseSharedWord(word, current, value << shift);
    }

    /**
     * Raises the registers of the word at {@code word}, last read as {@code current}, to the bytes of
     * {@code floor} ({@link #raiseWord}) with the line's deltas, as one change; returns whether it changed.
     */
    private boolean raiseSharedWord(long word, int current, int floor) {
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
     * <p>Cost: with nothing changed since this sketch's last estimate, the cached estimate: two loads for
     * the {@code EXCLUSIVE} writer, which clears it when it raises a register, and a load of the line's
     * guard and a compare for the others; after a change, four loads and O(64) arithmetic; without
     * trusted numbers (a file of format version 1, a change in flight, a writer that died, another
     * process's or thread's estimate while an {@code EXCLUSIVE} writer holds the file), one pass of the
     * register summary kernel over the registers (about a microsecond at p = 14 with 512-bit vectors).
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
     * The estimator inputs now. The sole writer reuses its kept snapshot until a change clears it, then
     * takes a new one ({@link #keptSnapshot}); other sketches reuse the cached snapshot while the line's
     * guard has not moved, else take a new one ({@link #snapshot}).
     */
    private Snapshot current() {
        if (soleWriter) {
            Snapshot last = kept;
            return last != null ? last : keptSnapshot();
        }
        Snapshot last = (Snapshot) CACHED.getAcquire(this);
        if (last != null && line.guard() == last.stamp()) {
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
            return pass();
        }
        Snapshot snapshot = snapshotOf(guard, summary);
        CACHED.compareAndSet(this, seen, snapshot);
        return snapshot;
    }

    /**
     * The sole writer's inputs once a change has cleared its kept snapshot. (Any thread may take a kept
     * snapshot, as {@link #current} does: it is immutable and describes a state the numbers had, and a
     * thread that the writer's changes happen before sees the clear they made.) The thread that made the
     * last change reads the numbers, its own stores in its own order, and keeps the result; any other
     * thread passes over the registers, since it might see the plainly stored numbers in the middle of
     * a raise; so does every thread while a merge of damaged registers has left the numbers untrusted.
     */
    private Snapshot keptSnapshot() {
        if (isClosed()) {
            throw new IllegalStateException(describe() + " is closed");
        }
        long[] summary = new long[RegisterKernels.SUMMARY_LENGTH];
        if (changer != Thread.currentThread().threadId() || !line.readKept(summary)) {
            return pass();
        }
        Snapshot snapshot = snapshotOf(HyperLogLogSummaryLine.UNTRUSTED, summary);
        kept = snapshot;
        return snapshot;
    }

    /** Summarises the registers in one pass, refusing registers above the largest rank. */
    private Snapshot pass() {
        long[] summary = summary(registerBytes, precision);
        if (summary[RegisterKernels.ABOVE_TOP] != 0) {
            throw new IllegalStateException(describe() + " has " + summary[RegisterKernels.ABOVE_TOP]
                    + " registers above the largest rank 65 - precision = " + maxRank(precision)
                    + "; the file was corrupted while open");
        }
        return snapshotOf(HyperLogLogSummaryLine.UNTRUSTED, summary);
    }

    private Snapshot snapshotOf(long stamp, long[] summary) {
        return new Snapshot(stamp, summary[RegisterKernels.ZEROS], summary[RegisterKernels.AT_TOP],
                summary[RegisterKernels.POWER_SUM], improved(summary, precision));
    }

    /**
     * What both estimators need, taken at one moment, with the improved estimate of it.
     *
     * @param stamp the summary line's guard it was read at, which identifies that state of the line; or
     *     {@link HyperLogLogSummaryLine#UNTRUSTED} if it comes from a pass over the registers or from the
     *     numbers the sole writer keeps (whose cache a raise clears instead)
     */
    private record Snapshot(long stamp, long zeros, long saturated, long powerSum, double estimate) {
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
     * Closes the sketch as every sketch closes ({@link Sketch#close()}). The {@code EXCLUSIVE} writer first
     * stores the summary line's numbers it kept and ends its change, so that later readers read the line.
     * The cached estimate is dropped, so that an estimate after the close fails as the sketch's other
     * accesses do.
     *
     * @throws IOException if releasing the file lock or closing the file fails
     */
    @Override
    public void close() throws IOException {
        if (soleWriter && !isClosed()) {
            line.detach();
        }
        CACHED.setVolatile(this, null);
        kept = null;
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
        protected Builder self() {
            return this;
        }

        @Override
        protected SketchKind kind() {
            return SketchKind.HYPERLOGLOG;
        }

        @Override
        protected long[] parameters() {
            requireSet("precision", precision != 0);
            return new long[] {precision};
        }

        @Override
        protected long payloadBytes() {
            requireSet("precision", precision != 0);
            return HyperLogLogLayout.payloadBytes(precision);
        }

        @Override
        protected HyperLogLog wrap(SketchRegion region) throws IOException {
            return read(region);
        }
    }
}
