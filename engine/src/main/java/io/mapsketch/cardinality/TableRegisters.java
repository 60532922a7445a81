package io.mapsketch.cardinality;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.internal.HeapPieces;
import io.mapsketch.internal.KeyIndex;
import io.mapsketch.internal.TableHeap;
import io.mapsketch.kernels.RegisterKernels;
import io.mapsketch.memory.AtomicSegment;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * The registers of every key of a HyperLogLog table, addressed by the key's record: the register-wise
 * maximum of its sparse chain ({@link SparseRegisters}, chunk 0 in the record) and, once it has one, a
 * dense block of 2^p registers in the heap that the record's dense word refers to. Dense blocks grow
 * through {@link HyperLogLogRegisters}, as a {@link HyperLogLog}'s registers do (without a summary line);
 * estimates are {@link HyperLogLogEstimator#improved} of the same summary a {@link HyperLogLog} of the
 * same items has. The layout is in {@code docs/design/tables.md}.
 *
 * <p>Cost: an add to a sparse key walks its chain; to a dense key, as {@link HyperLogLog#add(long)}. An
 * estimate of a sparse key reads its entries; of a dense key, gathers 2^p registers and summarises them.
 */
final class TableRegisters {

    /** The dense word's offset in a record. */
    static final long DENSE = KeyIndex.VALUE;
    /** Chunk 0's offset in a record. */
    static final long CHUNK = KeyIndex.VALUE + Long.BYTES;
    /** The value area of a record: the dense word and chunk 0. */
    static final int VALUE_BYTES = (int) (Long.BYTES + SparseRegisters.chunkBytes(0));

    private final TableHeap heap;
    private final AtomicSegment words;
    private final MemorySegment bytes;
    private final SparseRegisters sparse;
    private final int precision;
    private final long denseBytes;
    private final boolean shared;

    TableRegisters(TableHeap heap, int precision, boolean shared) {
        this.heap = heap;
        this.words = heap.bytes();
        this.bytes = words.segment();
        this.sparse = new SparseRegisters(heap, precision, !shared);
        this.precision = precision;
        this.denseBytes = HyperLogLogLayout.payloadBytes(precision);
        this.shared = shared;
    }

    /** Adds the item of a hash to the key of {@code record}; returns whether a register grew. */
    boolean add(long record, long hash) {
        long dense = words.getLongAcquire(record + DENSE);
        if (dense != 0) {
            return dense(dense).add(hash);
        }
        int register = (int) HyperLogLogLayout.registerIndex(hash, precision);
        int value = HyperLogLogLayout.rank(hash, precision);
        int raised = sparse.raise(record + CHUNK, register, value);
        return raised == SparseRegisters.FULL ? dense(makeDense(record)).add(hash) : raised == SparseRegisters.RAISED;
    }

    /** Raises register {@code register} of the key of {@code record} to {@code value}, as an add of that rank. */
    void raise(long record, int register, int value) {
        add(record, HyperLogLogLayout.hashOf(register, value, precision));
    }

    /** Whether the key of {@code record} has a dense block. */
    boolean isDense(long record) {
        return words.getLongAcquire(record + DENSE) != 0;
    }

    /** Raises each of {@code registers} (2^p bytes) to the key's register where it is lower. */
    void gather(long record, MemorySegment registers) {
        long dense = words.getLongAcquire(record + DENSE);
        if (dense != 0) {
            RegisterKernels.maxUnsignedBytes(registers, 0, bytes, TableHeap.offset(dense), 1L << precision);
        }
        sparse.gather(record + CHUNK, registers);
    }

    /** The key's 2^p registers, a new array. */
    byte[] registers(long record) {
        byte[] registers = new byte[1 << precision];
        gather(record, MemorySegment.ofArray(registers));
        return registers;
    }

    /**
     * The key's estimate, Ertl's improved estimator of its register summary: from the entries of a sparse
     * key, from its gathered registers for a dense one.
     *
     * @throws IllegalStateException if a register holds more than the largest rank (the file was damaged
     *     after it was opened)
     */
    double estimate(long record, String table) {
        long[] summary = isDense(record)
                ? HyperLogLogEstimates.summary(MemorySegment.ofArray(registers(record)), precision, top())
                : sparse.summary(record + CHUNK, precision);
        return estimate(summary, table);
    }

    /** The estimate of a register summary; refuses one that counts registers above the largest rank. */
    double estimate(long[] summary, String table) {
        if (summary[RegisterKernels.ABOVE_TOP] != 0) {
            throw new IllegalStateException(table + " holds " + summary[RegisterKernels.ABOVE_TOP]
                    + " registers above the largest rank " + top() + ": it was damaged after it was opened");
        }
        return HyperLogLogEstimates.improved(summary, precision);
    }

    /** The largest register value, 65 - p. */
    int top() {
        return HyperLogLogLayout.maxRank(precision);
    }

    /**
     * The scratch of a table merge: 2^p bytes of zeros where the union of the sources' registers is gathered,
     * and the registers it lists.
     */
    record MergeScratch(byte[] pending, int[] union) {}

    /** A scratch for merging keys of a table of this precision, one merging thread at a time. */
    MergeScratch mergeScratch() {
        return new MergeScratch(new byte[1 << precision], new int[1 << precision]);
    }

    /**
     * Merges the key of {@code sourceRecords[s]} in {@code sources[s]} (-1: the source has not the key), for
     * every s, into the key of {@code record}: the union of the sparse sources' entries, register by register
     * their maximum, in one walk of this key's chain ({@link SparseRegisters#raiseAll}), or into its dense
     * block where it has one or the chain is full; each dense source gathered and merged into this key's dense
     * block (made dense first) with the register-max kernel.
     */
    void mergeAll(long record, TableRegisters[] sources, long[] sourceRecords, MergeScratch scratch) {
        byte[] pending = scratch.pending;
        int[] union = scratch.union;
        int count = 0;
        try {
            for (int s = 0; s < sources.length; s++) {
                long from = sourceRecords[s];
                if (from < 0) {
                    continue;
                }
                TableRegisters source = sources[s];
                if (source.isDense(from)) {
                    long dense = words.getLongAcquire(record + DENSE);
                    dense(dense != 0 ? dense : makeDense(record)).merge(MemorySegment.ofArray(source.registers(from)));
                } else {
                    count = source.sparse.gatherListed(from + CHUNK, pending, union, count);
                }
            }
            if (count > 0 && (isDense(record) || !sparse.raiseAll(record + CHUNK, union, count, pending))) {
                for (int u = 0; u < count; u++) {
                    int value = pending[union[u]];
                    if (value != 0) {
                        raise(record, union[u], value);
                    }
                }
            }
        } finally {
            for (int u = 0; u < count; u++) {
                pending[union[u]] = 0;
            }
        }
    }

    /** The dense block of the key of {@code record}, allocated and published if it has none; returns its reference. */
    private long makeDense(long record) {
        long block = heap.allocate(denseBytes, 64);
        if (words.compareAndSetLong(record + DENSE, 0, TableHeap.reference(block))) {
            return TableHeap.reference(block);
        }
        heap.giveBack(block, denseBytes);
        return words.getLongAcquire(record + DENSE);
    }

    /** The registers of the dense block of a reference, as a {@link HyperLogLog}'s without a summary line. */
    private HyperLogLogRegisters dense(long reference) {
        MemorySegment block = bytes.asSlice(TableHeap.offset(reference), denseBytes);
        return new HyperLogLogRegisters(new AtomicSegment(block), precision, shared, null, false, null);
    }

    /**
     * Refuses the storage of the key of {@code record} where a reader could misread it or a writer write over
     * another piece: its sparse chain ({@link SparseRegisters#validate}), a dense block outside the heap or
     * not 64-byte aligned, past the cursor or sharing a byte with another piece ({@link HeapPieces#mark}), a
     * dense register above 65 - p. {@code seen} is 2^p bytes of zeros, handed back so.
     */
    void validate(long record, byte[] seen, HeapPieces pieces, Path file) throws CorruptSketchFileException {
        sparse.validate(record, record + CHUNK, precision, seen, pieces, file);
        long dense = words.getLongAcquire(record + DENSE);
        if (dense == 0) {
            return;
        }
        long offset = TableHeap.offset(dense);
        if (offset % 64 != 0 || offset < 0 || offset > heap.size() - denseBytes) {
            throw new CorruptSketchFileException(
                    file,
                    HeapPieces.KEY + " " + record + " has a dense block at heap offset " + offset
                            + ", expected a multiple of 64 within the heap of " + heap.size() + " bytes");
        }
        // A block is handed out before its reference is published, and the cursor never moves back past it.
        pieces.mark(offset, denseBytes, "dense block", HeapPieces.KEY, record);
        long[] summary = HyperLogLogEstimates.summary(bytes.asSlice(offset, denseBytes), precision, top());
        if (summary[RegisterKernels.ABOVE_TOP] != 0) {
            throw new CorruptSketchFileException(
                    file,
                    HeapPieces.KEY + " " + record + " has " + summary[RegisterKernels.ABOVE_TOP]
                            + " dense registers above the largest rank " + top());
        }
    }
}
