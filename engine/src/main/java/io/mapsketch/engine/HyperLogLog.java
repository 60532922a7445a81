package io.mapsketch.engine;

import static io.mapsketch.engine.HyperLogLogLayout.foldedValue;
import static io.mapsketch.engine.HyperLogLogLayout.maxRank;
import static io.mapsketch.engine.HyperLogLogLayout.payloadBytes;
import static io.mapsketch.engine.HyperLogLogLayout.rank;
import static io.mapsketch.engine.HyperLogLogLayout.registerIndex;

import io.mapsketch.kernels.RegisterKernels;
import io.mapsketch.memory.AccessMode;
import io.mapsketch.memory.CorruptSketchFileException;
import io.mapsketch.memory.SketchKind;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
 * Readers may estimate while writers add: each register is read once, at some value it held during
 * the call, so the estimate counts every add that completed before the call began.
 *
 * <p>Cost: an add is one hash and, once the sketch has seen a few times m keys, almost always only
 * a load of the register; an estimate is one pass of the register summary kernel over the m
 * registers (16 KiB at p = 14) and O(64) arithmetic.
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

    private final int precision;
    private final int registers;
    private final MemorySegment registerBytes;

    private HyperLogLog(SketchRegion region, int precision) {
        super(region);
        this.precision = precision;
        this.registers = 1 << precision;
        this.registerBytes = payload.segment();
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
     * Opens a HyperLogLog file; the precision comes from its header. Cost: one pass over the
     * registers, which must all be valid ranks.
     *
     * @param file the sketch file
     * @param mode read-only, shared writer or exclusive writer
     * @return the open sketch
     * @throws CorruptSketchFileException if the precision is outside [4, 18], the payload is not
     *     the size it implies or a register holds more than the largest rank {@code 65 - p}
     * @throws io.mapsketch.memory.SketchFileException if the file is not a valid HyperLogLog file or
     *     is locked against this mode
     * @throws IOException if the file cannot be read
     */
    public static HyperLogLog open(Path file, AccessMode mode) throws IOException {
        return open(file, mode, SketchKind.HYPERLOGLOG, HyperLogLog::read);
    }

    private static HyperLogLog read(SketchRegion region) throws IOException {
        int precision = (int) parameter(region, PRECISION, "precision", MIN_PRECISION, MAX_PRECISION);
        requirePayload(region, payloadBytes(precision), "2^precision one-byte registers, rounded up to 64 bytes");
        HyperLogLog sketch = new HyperLogLog(region, precision);
        long invalid = summary(sketch.registerBytes, precision)[RegisterKernels.ABOVE_TOP];
        if (invalid != 0) {
            throw new CorruptSketchFileException(region.file().orElse(null), invalid
                    + " registers hold more than the largest rank 65 - precision = " + maxRank(precision));
        }
        return sketch;
    }

    @Override
    boolean addHash(long hash) {
        return raise(registerIndex(hash, precision), rank(hash, precision));
    }

    /** Raises the batch's registers in a scalar loop: no vector kernel fits a scatter of byte maxima. */
    @Override
    void addHashes(long[] hashes, int from, int count) {
        for (int i = from; i < from + count; i++) {
            addHash(hashes[i]);
        }
    }

    /**
     * Raises a register to {@code value} if it is lower; returns whether it was. Shared writers read
     * the aligned 32-bit word that holds the byte and, only if the register is lower, compare-and-set
     * the word ({@link #raiseWord}).
     */
    private boolean raise(long index, int value) {
        if (!sharedWriters) {
            if (registerBytes.get(ValueLayout.JAVA_BYTE, index) >= value) {
                return false;
            }
            registerBytes.set(ValueLayout.JAVA_BYTE, index, (byte) value);
            return true;
        }
        long word = index & -Integer.BYTES;
        int shift = (int) (index & (Integer.BYTES - 1)) * Byte.SIZE;
        int current = payload.getInt(word);
        return ((current >>> shift) & 0xFF) < value && raiseWord(word, current, value << shift);
    }

    /**
     * Raises each of the four registers of the aligned 32-bit word at {@code word}, last read as
     * {@code current}, to the matching byte of {@code floor} if it is lower, with a compare-and-set
     * retried while some register stays lower; returns whether the word changed.
     */
    private boolean raiseWord(long word, int current, int floor) {
        int seen = current;
        int raised;
        while ((raised = (int) RegisterKernels.maxOfUnsignedBytes(seen & 0xFFFF_FFFFL, floor & 0xFFFF_FFFFL))
                != seen) {
            if (payload.compareAndSetInt(word, seen, raised)) {
                return true;
            }
            seen = payload.getIntAcquire(word);
        }
        return false;
    }

    /**
     * Merges another sketch into this one by register maximum: afterwards this sketch is, byte for
     * byte, the sketch of the union of both key sets. To merge a sketch of higher precision, use
     * {@link #mergeFolded}.
     *
     * <p>Cost: one pass over both register arrays: the SIMD register-max kernel in {@code EXCLUSIVE}
     * mode; in {@code SHARED} mode a SIMD scan for registers that would grow, and for each 64-byte block
     * that holds one, a compare-and-set of each of its 32-bit words that grows.
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
            RegisterKernels.maxUnsignedBytes(registerBytes, 0, other.registerBytes, 0, registers);
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
     * grows is stored plainly ({@code EXCLUSIVE}) or with a compare-and-set ({@code SHARED}).
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
     * Merges registers of the same precision atomically: the scan kernel skips every register already
     * at least the source's (registers only grow, so it stays so), and each 64-byte block where one
     * would grow is raised word by word with {@link #raiseWord}.
     */
    private void mergeShared(MemorySegment source) {
        long next = 0;
        while (next < registers) {
            long raised = next + RegisterKernels.firstRaised(registerBytes, next, source, next, registers - next);
            long blockEnd = Math.min((raised | (BLOCK - 1)) + 1, registers);
            for (long word = raised & -Integer.BYTES; word < blockEnd; word += Integer.BYTES) {
                raiseWord(word, payload.getInt(word), source.get(REGISTER_WORD, word));
            }
            next = blockEnd;
        }
    }

    private void foldIn(HyperLogLog other) {
        int d = other.precision - precision;
        for (long register = 0; register < registers; register++) {
            int value = foldedValue(other.registerBytes, register << d, d);
            if (value != 0) {
                raise(register, value);
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
     * Returns 0 for an empty sketch.
     *
     * <p>Cost: one pass of the register summary kernel over the registers (about a microsecond at
     * p = 14 with 512-bit vectors) and O(64) arithmetic.
     *
     * @return the estimate, at least 0
     * @throws IllegalStateException if the sketch is closed, or a register holds an impossible rank
     *     (the file was corrupted after it was opened)
     */
    public double estimate() {
        return improved(validSummary(), precision);
    }

    /**
     * Estimates the number of distinct keys with the classic estimator of Flajolet et al. (raw
     * harmonic mean, linear counting while it is at most 2.5 m and a register is empty). It is kept
     * for comparison: it is biased by a few percent just above the switch and jumps there, which
     * {@link #estimate()} is not. Use {@link #estimate()}.
     *
     * @return the classic estimate, at least 0
     * @throws IllegalStateException if the sketch is closed or a register holds an impossible rank
     */
    public double classicEstimate() {
        long[] summary = validSummary();
        return HyperLogLogEstimator.classic(summary[RegisterKernels.ZEROS], summary[RegisterKernels.AT_TOP],
                summary[RegisterKernels.POWER_SUM], precision);
    }

    /**
     * Returns a lower bound of the distinct count at {@code k} standard deviations: the estimate
     * divided by {@code 1 + k} {@link #relativeStandardError()}, but at least the number of non-empty
     * registers (each holds a distinct key) and at most the estimate. With {@code k = 2} the true
     * count lies below it in about 2.5% of sketches (normal approximation; below about m keys the
     * interval is conservative).
     *
     * @param standardDeviations k, finite and at least 0
     * @return the lower bound
     * @throws IllegalArgumentException if k is negative or not finite
     * @throws IllegalStateException if the sketch is closed or a register holds an impossible rank
     */
    public double lowerBound(double standardDeviations) {
        double width = width(standardDeviations);
        long[] summary = validSummary();
        double estimate = improved(summary, precision);
        return Math.min(estimate, Math.max(registers - summary[RegisterKernels.ZEROS], estimate / (1 + width)));
    }

    /**
     * Returns an upper bound of the distinct count at {@code k} standard deviations: the estimate
     * divided by {@code 1 - k} {@link #relativeStandardError()}, or positive infinity once that is
     * not positive. With {@code k = 2} the true count lies above it in about 2.5% of sketches.
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

    private long[] validSummary() {
        long[] summary = summary(registerBytes, precision);
        if (summary[RegisterKernels.ABOVE_TOP] != 0) {
            throw new IllegalStateException(describe() + " has " + summary[RegisterKernels.ABOVE_TOP]
                    + " registers above the largest rank 65 - precision = " + maxRank(precision)
                    + "; the file was corrupted while open");
        }
        return summary;
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

        @Override
        HyperLogLog wrap(SketchRegion region) throws IOException {
            return read(region);
        }
    }
}
