package io.mapsketch.cardinality;

import static io.mapsketch.cardinality.HyperLogLogLayout.rank;
import static io.mapsketch.cardinality.HyperLogLogLayout.registerIndex;

import io.mapsketch.kernels.RegisterKernels;
import io.mapsketch.memory.AtomicSegment;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The registers of one open HyperLogLog and every way they grow: a key's raise, a batch of raises, a
 * merge and a fold, each with the summary line's deltas. A register only grows. A {@code SHARED} writer
 * raises with a compare-and-set of the aligned 32-bit word that holds the register, retried only while
 * it is still lower, so concurrent writers leave the registers as sequential adds would; the
 * {@code EXCLUSIVE} writer stores plainly and keeps the line's numbers in its own memory. The proofs
 * are in {@code docs/design/cardinality.md}.
 *
 * <p>Cost: an add that raises nothing is one load and a compare; a raise adds a store and a few
 * additions ({@code EXCLUSIVE}) or a compare-and-set and three to four atomic additions to the line
 * ({@code SHARED}).
 *
 * <p>The registers of DataSketches' scheme, whose hashes are coupons and whose sole writer keeps a HIP
 * accumulator, are the one subclass ({@link DataSketchesRegisters}), loaded only when such a sketch is
 * opened, so that while none is, every call here compiles as a direct one.
 */
sealed class HyperLogLogRegisters permits DataSketchesRegisters {

    /** Bytes of registers the {@code SHARED} merge raises together once one of them grows: a cache line. */
    private static final long BLOCK = 64;
    /** Four registers as the little-endian 32-bit word a {@code SHARED} writer compares and sets. */
    private static final ValueLayout.OfInt REGISTER_WORD =
            ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** What {@link #raiseWord} returns when no register of the word was lower. */
    private static final long NOT_RAISED = -1;

    private final AtomicSegment words;
    final MemorySegment bytes;
    final int precision;
    final int registers;
    /** Updates must be hardware atomics: other writers may raise the same registers concurrently. */
    final boolean shared;
    /** The summary line, or {@code null} in a file of format version 1. */
    final HyperLogLogSummaryLine line;
    /** Whether this is the {@code EXCLUSIVE} writer of a file with a summary line. */
    final boolean soleWriter;
    /** Told of the sole writer's changes, which make its kept snapshot stale. */
    final HyperLogLog sketch;

    HyperLogLogRegisters(
            AtomicSegment words,
            int precision,
            boolean shared,
            HyperLogLogSummaryLine line,
            boolean soleWriter,
            HyperLogLog sketch) {
        this.words = words;
        this.bytes = words.segment();
        this.precision = precision;
        this.registers = 1 << precision;
        this.shared = shared;
        this.line = line;
        this.soleWriter = soleWriter;
        this.sketch = sketch;
    }

    /** The 2^p registers, one byte each. */
    MemorySegment bytes() {
        return bytes;
    }

    /** The precision p. */
    int precision() {
        return precision;
    }

    /**
     * Raises the hash's register to its rank if it is lower; returns whether it was. The
     * {@code EXCLUSIVE} raise is written out here with no call that is not inlined whatever the profile
     * says (a register load and compare, then, rarely, a plain store and plain arithmetic), so a caller's
     * loop of adds compiles with no call, fence or locked instruction in it. A shared writer, once the
     * plain load shows the register lower (a higher value read is final), raises with
     * {@link #raiseShared}.
     */
    boolean add(long hash) {
        long index = registerIndex(hash, precision);
        int value = rank(hash, precision);
        int current = bytes.get(ValueLayout.JAVA_BYTE, index);
        if (current >= value) {
            return false;
        }
        if (shared) {
            return raiseShared(index, value);
        }
        bytes.set(ValueLayout.JAVA_BYTE, index, (byte) value);
        if (line != null) {
            int top = line.top();
            line.addKept(RegisterDeltas.counts(current, value, top), RegisterDeltas.powerSum(current, value, top));
            sketch.noteChange();
        }
        return true;
    }

    /**
     * Raises the registers of {@code hashes[from, from + count)} in two scalar loops (no vector kernel
     * fits a scatter of byte maxima): the first keeps at the front of the range the hashes whose rank
     * exceeds their register, calling nothing; the second raises those with {@link #add}. Overwrites
     * the range.
     */
    void addAll(long[] hashes, int from, int count) {
        int raising = from;
        for (int i = from; i < from + count; i++) {
            long hash = hashes[i];
            if (bytes.get(ValueLayout.JAVA_BYTE, registerIndex(hash, precision)) < rank(hash, precision)) {
                hashes[raising++] = hash;
            }
        }
        for (int i = from; i < raising; i++) {
            add(hashes[i]);
        }
    }

    /** Starts a change of many registers or of a shared word: the line's, and for the sole writer a noted one. */
    private void beginChange() {
        line.begin();
        changing();
        if (soleWriter) {
            sketch.noteChange();
        }
    }

    /** Told, inside the change, that a merge, a fold or a {@code SHARED} raise is changing registers. */
    void changing() {}

    /**
     * The value register {@code register} of precision {@code precision} takes when this sketch's registers
     * ({@code view}, of that precision or a higher one) are folded down to it ({@link HyperLogLogLayout#foldedValue}).
     */
    int foldedValue(MemorySegment view, long register, int precision) {
        int d = this.precision - precision;
        return HyperLogLogLayout.foldedValue(view, register << d, d);
    }

    /** The registers a merge, fold or union reads from this sketch: its own (DataSketches' coupons raise a copy). */
    MemorySegment view() {
        return bytes;
    }

    /** The estimate inputs of DataSketches' coupon modes, or {@code null} when the registers answer (always here). */
    HyperLogLogEstimates.Snapshot couponSnapshot() {
        return null;
    }

    /** DataSketches' coupon table while in a coupon mode, or {@code null} (always here). */
    int[] couponTable() {
        return null;
    }

    /** The largest register value of this scheme at precision p ({@link HyperLogLogLayout#maxRank(int)}). */
    int top(int precision) {
        return HyperLogLogLayout.maxRank(precision);
    }

    /** Before the sole writer detaches from the line: stores what it keeps beside the line's numbers (nothing here). */
    void storeKept() {}

    /**
     * The estimate of a foreign scheme's sketch: here Redis's {@code PFCOUNT} of the registers, the one
     * foreign scheme these registers run. {@code kept} tells that the caller reads as the sole writer's
     * changing thread, {@code lineTrusted} that the summary line was trusted at the caller's read of it.
     */
    ForeignEstimate foreignEstimate(boolean kept, boolean lineTrusted) {
        return new ForeignEstimate(CardinalityEstimator.REDIS_PFCOUNT, RedisCountEstimator.count(bytes, 0));
    }

    /** The classic estimate of the registers a snapshot summarises ({@link HyperLogLog#classicEstimate()}). */
    double classicEstimate(HyperLogLogEstimates.Snapshot snapshot) {
        return HyperLogLogEstimator.classic(snapshot.zeros(), snapshot.saturated(), snapshot.powerSum(), precision);
    }

    /** DataSketches' HIP accumulator, or {@code NaN} for the schemes that keep none (these). */
    double hipAccumulator() {
        return Double.NaN;
    }

    /** An estimate and the estimator that made it. */
    record ForeignEstimate(CardinalityEstimator estimator, double estimate) {}

    /**
     * A {@code SHARED} writer's raise of register {@code index} to {@code value}: a read of the aligned
     * 32-bit word that holds it and, only if the register is lower, a compare-and-set of the word with
     * the line's deltas, as one change; returns whether it changed.
     */
    final boolean raiseShared(long index, int value) {
        long word = index & -Integer.BYTES;
        int shift = (int) (index & (Integer.BYTES - 1)) * Byte.SIZE;
        int current = words.getInt(word);
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
            int top = line.top();
            line.add(RegisterDeltas.counts(before, after, top), RegisterDeltas.powerSum(before, after, top));
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
        while ((raised = (int) RegisterKernels.maxOfUnsignedBytes(seen & 0xFFFF_FFFFL, floor & 0xFFFF_FFFFL)) != seen) {
            if (words.compareAndSetInt(word, seen, raised)) {
                return seen & 0xFFFF_FFFFL;
            }
            seen = words.getIntAcquire(word);
        }
        return NOT_RAISED;
    }

    /** Merges another sketch's registers of this precision ({@link #merge(MemorySegment)}); a scheme may merge more. */
    boolean merge(HyperLogLogRegisters source) {
        return merge(source.view());
    }

    /**
     * Raises every register to at least the matching one of {@code source}, of the same precision, as one
     * change; returns whether a register grew. A merge that raises nothing leaves the line and the cached
     * estimates as they were.
     */
    boolean merge(MemorySegment source) {
        return shared ? mergeShared(source) : mergeExclusive(source);
    }

    /**
     * Merges plainly: the register-max kernel from the first register that grows, then the line
     * recomputed by one summary pass. A register above the largest rank (a source damaged after it was
     * opened) leaves the change in flight, so estimates read the registers and report it.
     */
    private boolean mergeExclusive(MemorySegment source) {
        long first = RegisterKernels.firstRaised(bytes, 0, source, 0, registers);
        if (first == registers) {
            return false;
        }
        if (line != null) {
            beginChange();
        }
        RegisterKernels.maxUnsignedBytes(bytes, first, source, first, registers - first);
        if (line != null) {
            long[] summary = HyperLogLogEstimates.summary(bytes, precision, line.top());
            if (summary[RegisterKernels.ABOVE_TOP] == 0) {
                line.replace(summary);
                line.end();
            }
        }
        return true;
    }

    /**
     * Merges atomically: the scan kernel skips every register already at least the source's (registers
     * only grow, so it stays so), and each 64-byte block where one would grow is raised word by word.
     */
    private boolean mergeShared(MemorySegment source) {
        Change change = new Change();
        long next = 0;
        while (next < registers) {
            long raised = next + RegisterKernels.firstRaised(bytes, next, source, next, registers - next);
            long blockEnd = Math.min((raised | (BLOCK - 1)) + 1, registers);
            for (long word = raised & -Integer.BYTES; word < blockEnd; word += Integer.BYTES) {
                change.raiseWord(word, source.get(REGISTER_WORD, word));
            }
            next = blockEnd;
        }
        return change.end();
    }

    /**
     * Folds {@code source}, of precision at least this one's, down to this precision and raises the
     * registers to it, as one change: a scalar pass over the source's registers. Returns whether a
     * register grew. The caller has checked the precisions ({@link HyperLogLog#requireFoldable}).
     */
    boolean fold(HyperLogLogRegisters source) {
        Change change = new Change();
        MemorySegment view = source.view();
        for (long register = 0; register < registers; register++) {
            int value = source.foldedValue(view, register, precision);
            if (value != 0) {
                change.raise(register, value);
            }
        }
        return change.end();
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
            if (!shared) {
                int current = bytes.get(ValueLayout.JAVA_BYTE, index);
                if (current < value) {
                    begin();
                    bytes.set(ValueLayout.JAVA_BYTE, index, (byte) value);
                    record(current, value);
                }
                return;
            }
            long word = index & -Integer.BYTES;
            raiseWord(word, value << (int) (index & (Integer.BYTES - 1)) * Byte.SIZE);
        }

        /** Raises the four registers of the aligned 32-bit word at {@code word} to the bytes of {@code floor}. */
        void raiseWord(long word, int floor) {
            int current = words.getInt(word);
            if (RegisterKernels.maxOfUnsignedBytes(current & 0xFFFF_FFFFL, floor & 0xFFFF_FFFFL)
                    == (current & 0xFFFF_FFFFL)) {
                return;
            }
            begin();
            long before = HyperLogLogRegisters.this.raiseWord(word, current, floor);
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
                int top = line.top();
                counts += RegisterDeltas.counts(before, after, top);
                powerSum += RegisterDeltas.powerSum(before, after, top);
                damaged |= RegisterDeltas.aboveTop(after, top);
            }
        }

        /** Ends the change; returns whether it raised a register. */
        boolean end() {
            if (begun && line != null && !damaged) {
                line.add(counts, powerSum);
                line.end();
            }
            return begun;
        }
    }
}
