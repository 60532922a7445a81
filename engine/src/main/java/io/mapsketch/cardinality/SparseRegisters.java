package io.mapsketch.cardinality;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.internal.HeapPieces;
import io.mapsketch.internal.TableHeap;
import io.mapsketch.kernels.RegisterKernels;
import io.mapsketch.memory.AtomicSegment;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The sparse registers of a key of a HyperLogLog table: a chain of chunks in the table's heap, chunk k of
 * {@code 16 * 2^k} int32 entries {@code (register << 8) | value}, filled in order by compare-and-set, so
 * that a register has at most one entry whatever writers in whatever processes add at once. A chunk is
 * {@code +0} the next chunk's reference (0: none), then its entries; chunk 0 lies in the key's record. The
 * chain ends where it would pass half of the dense block's bytes ({@link #chainLength}). The protocol is
 * in {@code docs/design/tables.md}.
 *
 * <p>Cost: a raise scans the entries up to the register's own or the first empty one (at most 2,032 at
 * p = 14), a vector of them per step ({@link RegisterKernels#firstEntryOf}); a chunk more is an allocation
 * and a compare-and-set.
 */
final class SparseRegisters {

    /** Entries of chunk 0. */
    static final int FIRST_ENTRIES = 16;
    /** Where a chunk's entries start. */
    static final long ENTRIES = 8;
    /** What {@link #raise} returns when the register was raised. */
    static final int RAISED = 1;
    /** What {@link #raise} returns when the register was at least the value. */
    static final int UNCHANGED = 0;
    /** What {@link #raise} returns when the register has no entry and the chain is at its end. */
    static final int FULL = -1;

    private final AtomicSegment words;
    private final MemorySegment bytes;
    private final TableHeap heap;
    private final int chunks;
    private final boolean sole;

    /**
     * Views the chains of a table's heap.
     *
     * @param sole whether this is the table's only writer ({@code EXCLUSIVE}, one thread at a time), which
     *     writes entries with release stores; {@code SHARED} writers claim and raise them by compare-and-set
     */
    SparseRegisters(TableHeap heap, int precision, boolean sole) {
        this.heap = heap;
        this.words = heap.bytes();
        this.bytes = words.segment();
        this.chunks = chainLength(precision);
        this.sole = sole;
    }

    /** The chunks a chain holds at most at precision p: while their entries take at most 2^p / 2 bytes (at least 1). */
    static int chainLength(int precision) {
        int k = 1;
        while (Integer.BYTES * FIRST_ENTRIES * ((1L << (k + 1)) - 1) <= (1L << precision) / 2) {
            k++;
        }
        return k;
    }

    /** The bytes of chunk k. */
    static long chunkBytes(int k) {
        return ENTRIES + (long) Integer.BYTES * (FIRST_ENTRIES << k);
    }

    /**
     * Raises {@code register} to {@code value} in the chain at {@code chunk}: its entry if it has one, else
     * the first empty entry, linking a chunk more where the last is full.
     *
     * @return {@link #RAISED}, {@link #UNCHANGED}, or {@link #FULL} when the register has no entry and the
     *     chain cannot grow
     * @throws io.mapsketch.TableFullException if the heap has no room for a chunk more (nothing changed)
     */
    int raise(long chunk, int register, int value) {
        int wanted = register << Byte.SIZE | value;
        for (int k = 0; ; k++) {
            int entries = FIRST_ENTRIES << k;
            long first = chunk + ENTRIES;
            for (int i = candidate(first, 0, entries, register);
                    i < entries;
                    i = candidate(first, i + 1, entries, register)) {
                long at = first + (long) Integer.BYTES * i;
                int entry = words.getIntAcquire(at);
                while (entry == 0 || entry >>> Byte.SIZE == register) {
                    if (entry != 0 && (entry & 0xFF) >= value) {
                        return UNCHANGED;
                    }
                    if (store(at, entry, wanted)) {
                        return RAISED;
                    }
                    entry = words.getIntAcquire(at);
                }
            }
            chunk = grow(chunk, k);
            if (chunk < 0) {
                return FULL;
            }
        }
    }

    /**
     * The first entry from {@code from} on of the chunk whose entries start at {@code first} that is empty
     * or holds {@code register}, or {@code entries}. An entry seen holding another register holds it for
     * good, so a scan resumed after it skips it whatever writers do meanwhile.
     */
    private int candidate(long first, int from, int entries, int register) {
        return from
                + RegisterKernels.firstEntryOf(bytes, first + (long) Integer.BYTES * from, entries - from, register);
    }

    /**
     * Raises each of {@code count} registers listed in {@code registers} to its value in {@code pending} in one
     * walk of the chain at {@code chunk}, as {@link #raise} of each would: at its register's entry, else at an
     * empty entry, claimed only after every entry before it was seen not to hold that register (so a register
     * keeps at most one entry whatever other writers do meanwhile). {@code pending} holds a value for each
     * listed register and zero elsewhere; each register raised here, or found at least its value, has its
     * value set back to zero, so that the ones left are those the chain could not take. Cost: one walk of
     * this chain up to its first empty entry, against a walk per register.
     *
     * @return {@code false} if some register has no entry and the chain cannot grow (those stay in
     *     {@code pending})
     * @throws io.mapsketch.TableFullException if the heap has no room for a chunk more
     */
    boolean raiseAll(long chunk, int[] registers, int count, byte[] pending) {
        int remaining = count;
        int claim = 0;
        for (int k = 0; remaining > 0; k++) {
            int length = FIRST_ENTRIES << k;
            for (int i = 0; i < length && remaining > 0; i++) {
                long at = chunk + ENTRIES + (long) Integer.BYTES * i;
                int entry = words.getIntAcquire(at);
                if (entry == 0 && sole) {
                    // No other writer: entries fill in order, so every entry from here on is empty.
                    for (; i < length && remaining > 0; i++, remaining--) {
                        while (pending[registers[claim]] == 0) {
                            claim++;
                        }
                        int register = registers[claim];
                        words.putIntRelease(
                                chunk + ENTRIES + (long) Integer.BYTES * i,
                                register << Byte.SIZE | pending[register] & 0xFF);
                        pending[register] = 0;
                    }
                    break;
                }
                while (true) {
                    int register;
                    if (entry == 0) {
                        while (pending[registers[claim]] == 0) {
                            claim++;
                        }
                        register = registers[claim];
                    } else {
                        register = entry >>> Byte.SIZE;
                    }
                    int value = pending[register] & 0xFF;
                    if (value == 0) {
                        break;
                    }
                    if ((entry != 0 && (entry & 0xFF) >= value) || store(at, entry, register << Byte.SIZE | value)) {
                        pending[register] = 0;
                        remaining--;
                        break;
                    }
                    entry = words.getIntAcquire(at);
                }
            }
            if (remaining == 0) {
                return true;
            }
            chunk = grow(chunk, k);
            if (chunk < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Raises {@code pending} (2^p bytes) to the chain's entries where they are higher, listing in
     * {@code registers} from {@code count} on each register that was zero there; returns the new count.
     */
    int gatherListed(long chunk, byte[] pending, int[] registers, int count) {
        for (int k = 0; ; k++) {
            int entries = FIRST_ENTRIES << k;
            for (int i = 0; i < entries; i++) {
                int entry = words.getIntAcquire(chunk + ENTRIES + (long) Integer.BYTES * i);
                if (entry == 0) {
                    return count;
                }
                int register = entry >>> Byte.SIZE;
                int value = entry & 0xFF;
                int held = pending[register] & 0xFF;
                if (held == 0) {
                    registers[count++] = register;
                }
                if (value > held) {
                    pending[register] = (byte) value;
                }
            }
            long next = words.getLongAcquire(chunk);
            if (next == 0 || k + 1 == chunks) {
                return count;
            }
            chunk = TableHeap.offset(next);
        }
    }

    /**
     * Writes an entry that held {@code seen}: the sole writer's release store (no other writer can have
     * changed it), or a {@code SHARED} writer's compare-and-set; returns whether it was written.
     */
    private boolean store(long at, int seen, int entry) {
        if (sole) {
            words.putIntRelease(at, entry);
            return true;
        }
        return words.compareAndSetInt(at, seen, entry);
    }

    /**
     * The chunk after chunk k at {@code chunk}, linked first if there is none and the chain can grow; -1 at
     * the chain's end.
     *
     * @throws io.mapsketch.TableFullException if the heap has no room for a chunk more
     */
    private long grow(long chunk, int k) {
        long next = words.getLongAcquire(chunk);
        if (next == 0) {
            if (k + 1 == chunks) {
                return -1;
            }
            next = link(chunk, k + 1);
        }
        return TableHeap.offset(next);
    }

    /** Links chunk k after {@code chunk}, or finds the one another writer linked first; returns its reference. */
    private long link(long chunk, int k) {
        long length = chunkBytes(k);
        long made = heap.allocate(length, Long.BYTES);
        if (words.compareAndSetLong(chunk, 0, TableHeap.reference(made))) {
            return TableHeap.reference(made);
        }
        heap.giveBack(made, length);
        return words.getLongAcquire(chunk);
    }

    /** Receives one entry. */
    @FunctionalInterface
    interface EntrySink {
        void accept(int register, int value);
    }

    /** Hands every entry of the chain at {@code chunk} to {@code sink}, in order. */
    void forEach(long chunk, EntrySink sink) {
        for (int k = 0; ; k++) {
            int entries = FIRST_ENTRIES << k;
            for (int i = 0; i < entries; i++) {
                int entry = words.getIntAcquire(chunk + ENTRIES + (long) Integer.BYTES * i);
                if (entry == 0) {
                    return;
                }
                sink.accept(entry >>> Byte.SIZE, entry & 0xFF);
            }
            long next = words.getLongAcquire(chunk);
            if (next == 0 || k + 1 == chunks) {
                return;
            }
            chunk = TableHeap.offset(next);
        }
    }

    /** Raises each register of {@code registers} (2^p bytes) to its entry's value, where it is lower. */
    void gather(long chunk, MemorySegment registers) {
        forEach(chunk, (register, value) -> {
            if (registers.get(ValueLayout.JAVA_BYTE, register) < value) {
                registers.set(ValueLayout.JAVA_BYTE, register, (byte) value);
            }
        });
    }

    /**
     * The register summary ({@link RegisterKernels#summary} of the registers the entries hold, with
     * {@code top = 65 - p}), computed from the entries alone: equal to the kernel's of the gathered registers.
     */
    long[] summary(long chunk, int precision) {
        int top = HyperLogLogLayout.maxRank(precision);
        long[] summary = new long[RegisterKernels.SUMMARY_LENGTH];
        summary[RegisterKernels.ZEROS] = 1L << precision;
        forEach(chunk, (register, value) -> {
            summary[RegisterKernels.ZEROS]--;
            if (value == top) {
                summary[RegisterKernels.AT_TOP]++;
            } else if (value > top) {
                summary[RegisterKernels.ABOVE_TOP]++;
            } else {
                summary[RegisterKernels.POWER_SUM] += 1L << (top - 1 - value);
            }
        });
        return summary;
    }

    /**
     * Refuses a chain a reader could misread or a writer write over another piece: a chunk outside the heap,
     * past its cursor or sharing a byte with another piece ({@link HeapPieces#mark}), a chain longer than
     * {@link #chainLength}, an entry after an empty one, an entry of a register {@code >= 2^p} or a value
     * outside [1, 65 - p], a register with two entries. Entries that writers fill while it runs are
     * accepted. {@code seen} is 2^p bytes of zeros, handed back so.
     *
     * @param record the key's record, which holds chunk 0 and names the key in a refusal
     * @param chunk chunk 0
     */
    void validate(long record, long chunk, int precision, byte[] seen, HeapPieces pieces, Path file)
            throws CorruptSketchFileException {
        String fault = null;
        try {
            fault = check(record, chunk, precision, seen, pieces);
        } finally {
            try {
                forEach(chunk, (register, value) -> seen[Math.min(register, seen.length - 1)] = 0);
                seen[seen.length - 1] = 0;
            } catch (IndexOutOfBoundsException outside) {
                Arrays.fill(seen, (byte) 0);
            }
        }
        if (fault != null) {
            throw new CorruptSketchFileException(file, HeapPieces.KEY + " " + record + " has " + fault);
        }
    }

    /** The first fault of the chain at {@code chunk}, or {@code null}; marks each register in {@code seen}. */
    private String check(long record, long chunk, int precision, byte[] seen, HeapPieces pieces)
            throws CorruptSketchFileException {
        int top = HyperLogLogLayout.maxRank(precision);
        long emptyAt = -1;
        for (int k = 0; ; k++) {
            int entries = FIRST_ENTRIES << k;
            for (int i = 0; i < entries; i++) {
                long at = chunk + ENTRIES + (long) Integer.BYTES * i;
                int entry = words.getIntAcquire(at);
                if (entry == 0) {
                    emptyAt = emptyAt < 0 ? at : emptyAt;
                } else if (emptyAt >= 0) {
                    // Entries fill in order: the empty one is filled by now unless the file was written so.
                    return words.getIntAcquire(emptyAt) == 0 ? "a sparse entry after an empty one" : null;
                } else {
                    int register = entry >>> Byte.SIZE;
                    int value = entry & 0xFF;
                    if (register >= seen.length || value < 1 || value > top) {
                        return "a sparse entry of register " + register + " and value " + value
                                + ", expected a register below " + seen.length + " and a value in [1, " + top + "]";
                    }
                    if (seen[register] != 0) {
                        return "two sparse entries of register " + register;
                    }
                    seen[register] = 1;
                }
            }
            long next = words.getLongAcquire(chunk);
            if (next == 0) {
                return null;
            }
            long offset = TableHeap.offset(next);
            if (k + 1 == chunks) {
                return "a sparse chain longer than " + chunks + " chunks";
            }
            if (offset < 0 || offset > heap.size() - chunkBytes(k + 1)) {
                return "a sparse chunk at heap offset " + offset + ", past the heap of " + heap.size() + " bytes";
            }
            // A chunk is handed out before it is linked, and the cursor never moves back past it.
            pieces.mark(offset, chunkBytes(k + 1), "sparse chunk", HeapPieces.KEY, record);
            chunk = offset;
        }
    }
}
