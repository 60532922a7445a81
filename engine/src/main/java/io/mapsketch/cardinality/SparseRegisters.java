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
 * The sparse registers of a key of a HyperLogLog table: a chain of chunks in the table's heap whose 64-bit
 * words pack {@code 64 / (p + 6)} entries {@code (register << 6) | value} of {@code p + 6} bits each (three
 * at p = 14), filled in order by compare-and-set of their word, so that a register has at most one entry
 * whatever writers in whatever processes add at once. A chunk is {@code +0} the next chunk's reference (0:
 * none), then its words: {@value #FIRST_WORDS} in chunk 0, which lies in the key's record, {@code 16 * 2^k}
 * in chunk k from 1 on. The chain ends where it would pass half of the dense block's bytes
 * ({@link #chainLength}). The protocol is in {@code docs/design/tables.md}.
 *
 * <p>Cost: a raise scans the entries up to the register's own or the first empty one (at most 3,000 at
 * p = 14), a vector of words per step ({@link RegisterKernels#firstEntryOf}); a chunk more is an allocation
 * and a compare-and-set.
 */
final class SparseRegisters {

    /** Words of chunk 0, the one in a key's record. */
    static final int FIRST_WORDS = 8;
    /** Where a chunk's words start. */
    static final long ENTRIES = 8;
    /** What {@link #raise} returns when the register was raised. */
    static final int RAISED = 1;
    /** What {@link #raise} returns when the register was at least the value. */
    static final int UNCHANGED = 0;
    /** What {@link #raise} returns when the register has no entry and the chain is at its end. */
    static final int FULL = -1;

    private static final int VALUE_BITS = RegisterKernels.ENTRY_VALUE_BITS;
    private static final long VALUE_MASK = (1L << VALUE_BITS) - 1;

    private final AtomicSegment words;
    private final MemorySegment bytes;
    private final TableHeap heap;
    private final int chunks;
    private final boolean sole;
    private final int entryBits;
    private final int perWord;
    private final long entryMask;

    /**
     * Views the chains of a table's heap.
     *
     * @param sole whether this is the table's only writer ({@code EXCLUSIVE}, one thread at a time), which
     *     writes words with release stores; {@code SHARED} writers claim and raise entries by compare-and-set
     */
    SparseRegisters(TableHeap heap, int precision, boolean sole) {
        this.heap = heap;
        this.words = heap.bytes();
        this.bytes = words.segment();
        this.chunks = chainLength(precision);
        this.sole = sole;
        this.entryBits = precision + VALUE_BITS;
        this.perWord = Long.SIZE / entryBits;
        this.entryMask = (1L << entryBits) - 1;
    }

    /** The words of chunk k. */
    static int chunkWords(int k) {
        return k == 0 ? FIRST_WORDS : 16 << k;
    }

    /** The bytes of chunk k. */
    static long chunkBytes(int k) {
        return ENTRIES + (long) Long.BYTES * chunkWords(k);
    }

    /** The chunks a chain holds at most at precision p: while their words take at most 2^p / 2 bytes (at least 1). */
    static int chainLength(int precision) {
        long held = FIRST_WORDS;
        int k = 1;
        while ((long) Long.BYTES * (held + chunkWords(k)) <= (1L << precision) / 2) {
            held += chunkWords(k);
            k++;
        }
        return k;
    }

    /** Entry j of a word. */
    private long entry(long word, int j) {
        return word >>> (j * entryBits) & entryMask;
    }

    /** A word with entry j set to {@code entry}. */
    private long with(long word, int j, long entry) {
        int shift = j * entryBits;
        return word & ~(entryMask << shift) | entry << shift;
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
        long wanted = (long) register << VALUE_BITS | value;
        for (int k = 0; ; k++) {
            int count = chunkWords(k);
            long first = chunk + ENTRIES;
            for (int i = candidate(first, 0, count, register);
                    i < count * perWord;
                    i = candidate(first, i / perWord + 1, count, register)) {
                long at = first + (long) Long.BYTES * (i / perWord);
                long word = words.getLongAcquire(at);
                for (int j = i % perWord; j < perWord; j++) {
                    long entry = entry(word, j);
                    while (entry == 0 || entry >>> VALUE_BITS == register) {
                        if (entry != 0 && (entry & VALUE_MASK) >= value) {
                            return UNCHANGED;
                        }
                        long raised = with(word, j, wanted);
                        if (sole) {
                            words.putLongRelease(at, raised);
                            return RAISED;
                        }
                        if (words.compareAndSetLong(at, word, raised)) {
                            return RAISED;
                        }
                        word = words.getLongAcquire(at);
                        entry = entry(word, j);
                    }
                }
            }
            chunk = grow(chunk, k);
            if (chunk < 0) {
                return FULL;
            }
        }
    }

    /**
     * The index of the first entry, from word {@code from} on of the {@code count} words at {@code first},
     * that is empty or holds {@code register}, or {@code count * perWord}. An entry seen holding another
     * register holds it for good, so a scan resumed after it skips it whatever writers do meanwhile.
     */
    private int candidate(long first, int from, int count, int register) {
        return from * perWord
                + RegisterKernels.firstEntryOf(
                        bytes, first + (long) Long.BYTES * from, count - from, entryBits, register);
    }

    /**
     * Raises each of {@code count} registers listed in {@code registers} to its value in {@code pending} in one
     * walk of the chain at {@code chunk}, as {@link #raise} of each would: at its register's entry, else at an
     * empty entry, claimed only after every entry before it was seen not to hold that register (so a register
     * keeps at most one entry whatever other writers do meanwhile). {@code pending} holds a value for each
     * listed register and zero elsewhere; each register raised here, or found at least its value, has its
     * value set back to zero, so that the ones left are those the chain could not take. Cost: one walk of
     * this chain up to its first empty entry, against a walk per register; the sole writer stores each word
     * it changes once and reads no word past the first empty entry.
     *
     * @return {@code false} if some register has no entry and the chain cannot grow (those stay in
     *     {@code pending})
     * @throws io.mapsketch.TableFullException if the heap has no room for a chunk more
     */
    boolean raiseAll(long chunk, int[] registers, int count, byte[] pending) {
        int remaining = count;
        int claim = 0;
        boolean emptySeen = false;
        for (int k = 0; remaining > 0; k++) {
            int length = chunkWords(k);
            for (int w = 0; w < length && remaining > 0; w++) {
                long at = chunk + ENTRIES + (long) Long.BYTES * w;
                // No other writer: entries fill in order, so every word after an empty entry is empty.
                long word = sole && emptySeen ? 0 : words.getLongAcquire(at);
                long read = word;
                for (int j = 0; j < perWord && remaining > 0; j++) {
                    while (true) {
                        long entry = entry(word, j);
                        int register;
                        if (entry == 0) {
                            emptySeen = true;
                            while (pending[registers[claim]] == 0) {
                                claim++;
                            }
                            register = registers[claim];
                        } else {
                            register = (int) (entry >>> VALUE_BITS);
                        }
                        int value = pending[register] & 0xFF;
                        if (value == 0) {
                            break;
                        }
                        if (entry == 0 || (entry & VALUE_MASK) < value) {
                            long raised = with(word, j, (long) register << VALUE_BITS | value);
                            if (!sole && !words.compareAndSetLong(at, word, raised)) {
                                word = words.getLongAcquire(at);
                                continue;
                            }
                            word = raised;
                        }
                        pending[register] = 0;
                        remaining--;
                        break;
                    }
                }
                if (sole && word != read) {
                    words.putLongRelease(at, word);
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
            int length = chunkWords(k);
            for (int w = 0; w < length; w++) {
                long word = words.getLongAcquire(chunk + ENTRIES + (long) Long.BYTES * w);
                for (int j = 0; j < perWord; j++) {
                    long entry = entry(word, j);
                    if (entry == 0) {
                        return count;
                    }
                    int register = (int) (entry >>> VALUE_BITS);
                    int value = (int) (entry & VALUE_MASK);
                    int held = pending[register] & 0xFF;
                    if (held == 0) {
                        registers[count++] = register;
                    }
                    if (value > held) {
                        pending[register] = (byte) value;
                    }
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
            int length = chunkWords(k);
            for (int w = 0; w < length; w++) {
                long word = words.getLongAcquire(chunk + ENTRIES + (long) Long.BYTES * w);
                for (int j = 0; j < perWord; j++) {
                    long entry = entry(word, j);
                    if (entry == 0) {
                        return;
                    }
                    sink.accept((int) (entry >>> VALUE_BITS), (int) (entry & VALUE_MASK));
                }
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
     * {@link #chainLength}, an entry after an empty one, a word with bits set above its entries, an entry of
     * a value outside [1, 65 - p], a register with two entries. Entries that writers fill while it runs are
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
                forEach(chunk, (register, value) -> seen[register] = 0);
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
        int emptyEntry = 0;
        for (int k = 0; ; k++) {
            int length = chunkWords(k);
            for (int w = 0; w < length; w++) {
                long at = chunk + ENTRIES + (long) Long.BYTES * w;
                long word = words.getLongAcquire(at);
                if (perWord * entryBits < Long.SIZE && word >>> (perWord * entryBits) != 0) {
                    return "a sparse word with bits set above its " + perWord + " entries of " + entryBits + " bits";
                }
                for (int j = 0; j < perWord; j++) {
                    long entry = entry(word, j);
                    if (entry == 0) {
                        if (emptyAt < 0) {
                            emptyAt = at;
                            emptyEntry = j;
                        }
                    } else if (emptyAt >= 0) {
                        // Entries fill in order: the empty one is filled by now unless the file was written so.
                        return entry(words.getLongAcquire(emptyAt), emptyEntry) == 0
                                ? "a sparse entry after an empty one"
                                : null;
                    } else {
                        int register = (int) (entry >>> VALUE_BITS);
                        int value = (int) (entry & VALUE_MASK);
                        if (value < 1 || value > top) {
                            return "a sparse entry of register " + register + " and value " + value
                                    + ", expected a value in [1, " + top + "]";
                        }
                        if (seen[register] != 0) {
                            return "two sparse entries of register " + register;
                        }
                        seen[register] = 1;
                    }
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
