package io.mapsketch.membership;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.TableFullException;
import io.mapsketch.internal.HeapPieces;
import io.mapsketch.internal.KeyIndex;
import io.mapsketch.internal.RacingWriters;
import io.mapsketch.internal.TableHeap;
import io.mapsketch.kernels.BitSetKernels;
import io.mapsketch.kernels.BlockedBloomKernels;
import io.mapsketch.memory.AtomicSegment;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * The blocked Bloom filters of every key of a {@link BloomTable}, addressed by the key's record: a
 * record's value area is one word, 0 while the key has no filter, else the reference of its filter of B
 * 64-byte blocks in the filter area. A filter is handed out from the filter area (a {@link TableHeap}
 * whose cursor is word {@value #CURSOR} of the table line) at a key's first add and published in the
 * record by compare-and-set; the loser of a race gives its filter back. The blocks are probed by the
 * {@link BlockedBloomKernels}, as a {@link BlockedBloomFilter}'s are, so a key's filter holds the bits a
 * standalone filter of B blocks would for the same items. The layout is in {@code docs/design/tables.md}.
 *
 * <p>Cost: an add or a lookup reads the record's word and one block; a key's first add also allocates.
 */
final class TableFilters {

    /** The filter word's offset in a record. */
    static final long FILTER = KeyIndex.VALUE;
    /** The value area of a record: the filter word. */
    static final int VALUE_BYTES = Long.BYTES;
    /** The filter area's cursor in the table line: bytes of the filter area handed out. */
    static final long CURSOR = 16;
    /** The spare words of the table line: 0, or a filter handed out that no key holds, to hand out again. */
    static final long FIRST_SPARE = 24;
    /** The spare words' count: words 24 to 56 of the table line. */
    static final int SPARES = 5;
    /** What a filter is called in a refusal. */
    private static final String FILTER_PIECE = "filter";

    private final AtomicSegment records;
    private final AtomicSegment line;
    private final TableHeap area;
    private final AtomicSegment words;
    private final MemorySegment filters;
    private final long blocks;
    private final int bitsPerKey;
    private final long filterBytes;
    private final boolean shared;

    /**
     * Views the filters.
     *
     * @param heap the heap of the key records
     * @param line the table line, whose word {@value #CURSOR} is the filter area's cursor
     * @param filterArea N filters of {@code format.filterBytes()}, 64-byte aligned
     * @param format the filters' shape
     * @param shared whether other writers may add at once (atomic ORs)
     * @param table what to call the table in a refusal
     */
    TableFilters(
            TableHeap heap,
            AtomicSegment line,
            AtomicSegment filterArea,
            BloomTableFormat format,
            boolean shared,
            String table) {
        this.records = heap.bytes();
        this.line = line;
        this.area = new TableHeap(line, CURSOR, filterArea, table, "filter area", "a larger capacity");
        this.words = filterArea;
        this.filters = filterArea.segment();
        this.blocks = format.blocksPerKey();
        this.bitsPerKey = format.bitsPerKey();
        this.filterBytes = format.filterBytes();
        this.shared = shared;
    }

    /** Adds the item of a hash to the filter of the key of {@code record}, handing one out if it has none. */
    boolean add(long record, long hash) {
        long filter = filterOf(record);
        if (filter < 0) {
            filter = makeFilter(record);
        }
        return shared
                ? BlockedBloomKernels.addOneAtomic(filters, filter, blocks, bitsPerKey, hash)
                : BlockedBloomKernels.addOne(filters, filter, blocks, bitsPerKey, hash);
    }

    /** Whether every bit of a hash is set in the key's filter; {@code false} for a key with none. */
    boolean mightContain(long record, long hash) {
        long filter = filterOf(record);
        return filter >= 0 && BlockedBloomKernels.mightContainOne(filters, filter, blocks, bitsPerKey, hash);
    }

    /**
     * ORs the filter of the key of {@code sourceRecord} in {@code source} into the key of {@code record}:
     * the SIMD OR kernel for the exclusive writer, atomic ORs of the words that gain bits for shared ones.
     */
    void or(long record, TableFilters source, long sourceRecord) {
        long from = source.filterOf(sourceRecord);
        if (from < 0) {
            return;
        }
        long into = filterOf(record);
        if (into < 0) {
            into = makeFilter(record);
        }
        if (!shared) {
            BitSetKernels.or(filters, into, source.filters, from, filterBytes / Long.BYTES);
            return;
        }
        for (long at = 0; at < filterBytes; at += Long.BYTES) {
            long incoming = source.words.getLongAcquire(from + at);
            if ((incoming & ~words.getLong(into + at)) != 0) {
                words.getAndOrLong(into + at, incoming);
            }
        }
    }

    /** The key's filter as B x 8 words, all zero for a key with none; a new array. */
    long[] words(long record) {
        long[] bits = new long[(int) (filterBytes / Long.BYTES)];
        long filter = filterOf(record);
        for (int w = 0; filter >= 0 && w < bits.length; w++) {
            bits[w] = words.getLongAcquire(filter + (long) w * Long.BYTES);
        }
        return bits;
    }

    /** Whether the key of {@code record} has a filter. */
    boolean hasFilter(long record) {
        return filterOf(record) >= 0;
    }

    /** The filter area's bytes handed out: the keys' filters, the spare ones and any lost. */
    long areaBytesUsed() {
        return area.used();
    }

    /** The filter's offset in the filter area, or -1 for a key with none. */
    private long filterOf(long record) {
        long word = records.getLongAcquire(record + FILTER);
        return word == 0 ? -1 : TableHeap.offset(word);
    }

    /**
     * The key's filter, published if it has none: a spare filter if a word of the table line holds one,
     * else one handed out from the area. Returns its offset. With the area used up, a writer racing this
     * one for the same key may hold the key's filter, or one it gives back, for a moment: this writer waits
     * for either ({@link RacingWriters}).
     *
     * @throws io.mapsketch.TableFullException if the area has no room once that wait is over (only once
     *     writers killed in flight, or more than five racing at once, lost filters)
     */
    private long makeFilter(long record) {
        long filter = takeSpare();
        if (filter < 0) {
            try {
                filter = area.allocate(filterBytes, BlockedBloomKernels.BLOCK_BYTES);
            } catch (TableFullException full) {
                long published = Long.MAX_VALUE; // no filter's offset
                filter = RacingWriters.await(() -> filterOf(record) >= 0 ? published : takeSpare(), () -> full);
                if (filter == published) {
                    return filterOf(record);
                }
            }
        }
        if (records.compareAndSetLong(record + FILTER, 0, TableHeap.reference(filter))) {
            return filter;
        }
        release(filter);
        return filterOf(record);
    }

    private long takeSpare() {
        for (int s = 0; s < SPARES; s++) {
            long at = FIRST_SPARE + (long) s * Long.BYTES;
            long word = line.getLongAcquire(at);
            if (word != 0 && line.compareAndSetLong(at, word, 0)) {
                return TableHeap.offset(word);
            }
        }
        return -1;
    }

    /** Gives back a filter no key holds, zero: to the area if it is the last handed out, else to a spare word. */
    private void release(long filter) {
        if (area.giveBack(filter, filterBytes)) {
            return;
        }
        for (int s = 0; s < SPARES; s++) {
            if (line.compareAndSetLong(FIRST_SPARE + (long) s * Long.BYTES, 0, TableHeap.reference(filter))) {
                return;
            }
        }
    }

    /**
     * Refuses a filter area whose cursor a writer could misuse (past the area, or not a whole number of
     * filters); returns the map of the filters handed out, one bit per filter, for {@link #check}.
     */
    HeapPieces validateArea(Path file) throws CorruptSketchFileException {
        long used = area.used();
        if (used < 0 || used > area.size() || used % filterBytes != 0) {
            throw new CorruptSketchFileException(
                    file,
                    "filter cursor = " + used + ", expected a multiple of " + filterBytes + " in 0.." + area.size());
        }
        return new HeapPieces(area, used, filterBytes, "filter area", file);
    }

    /**
     * The check of the filter words on open, marking the filters in {@code handedOut}: refuses a spare word
     * or a key's filter word that refers to a filter not handed out, not at a multiple of B x 64, or held by
     * another word too (two keys would share bits, or a writer would hand a key's filter to another); a spare
     * word whose filter holds bits.
     */
    KeyIndex.RecordCheck check(HeapPieces handedOut, Path file) {
        return new KeyIndex.RecordCheck() {
            @Override
            public void begin() throws CorruptSketchFileException {
                for (int s = 0; s < SPARES; s++) {
                    long word = line.getLongAcquire(FIRST_SPARE + (long) s * Long.BYTES);
                    if (word != 0) {
                        handedOut.mark(TableHeap.offset(word), filterBytes, FILTER_PIECE, "spare word", s);
                        if (holdsBits(TableHeap.offset(word))) {
                            throw new CorruptSketchFileException(
                                    file,
                                    "spare word " + s + " refers to a filter holding bits; a spare filter is zero");
                        }
                    }
                }
            }

            @Override
            public void check(long record, HeapPieces heap) throws CorruptSketchFileException {
                long word = records.getLongAcquire(record + FILTER);
                if (word != 0) {
                    handedOut.mark(TableHeap.offset(word), filterBytes, FILTER_PIECE, HeapPieces.KEY, record);
                }
            }
        };
    }

    private boolean holdsBits(long filter) {
        for (long at = 0; at < filterBytes; at += Long.BYTES) {
            if (words.getLong(filter + at) != 0) {
                return true;
            }
        }
        return false;
    }
}
