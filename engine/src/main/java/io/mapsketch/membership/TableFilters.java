package io.mapsketch.membership;

import io.mapsketch.internal.KeyPieceArea;
import io.mapsketch.internal.TableHeap;
import io.mapsketch.kernels.BitSetKernels;
import io.mapsketch.kernels.BlockedBloomKernels;
import io.mapsketch.memory.AtomicSegment;
import java.lang.foreign.MemorySegment;

/**
 * The blocked Bloom filters of every key of a {@link BloomTable}, addressed by the key's record: each key's
 * filter of B 64-byte blocks is its piece of the filter area ({@link KeyPieceArea}), handed out at its first
 * add. The blocks are probed by the {@link BlockedBloomKernels}, as a {@link BlockedBloomFilter}'s are, so a
 * key's filter holds the bits a standalone filter of B blocks would for the same items. The layout is in
 * {@code docs/design/tables.md}.
 *
 * <p>Cost: an add or a lookup reads the record's word and one block; a key's first add also allocates.
 */
final class TableFilters {

    private final KeyPieceArea area;
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
     * @param line the table line, which holds the filter area's cursor and spare words
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
        this.area = new KeyPieceArea(
                heap,
                line,
                filterArea,
                format.filterBytes(),
                BlockedBloomKernels.BLOCK_BYTES,
                "filter",
                "filter area",
                table);
        this.words = filterArea;
        this.filters = filterArea.segment();
        this.blocks = format.blocksPerKey();
        this.bitsPerKey = format.bitsPerKey();
        this.filterBytes = format.filterBytes();
        this.shared = shared;
    }

    /** The filter area, whose pieces are the keys' filters. */
    KeyPieceArea area() {
        return area;
    }

    /** Adds the item of a hash to the filter of the key of {@code record}, handing one out if it has none. */
    boolean add(long record, long hash) {
        long filter = area.pieceFor(record);
        return shared
                ? BlockedBloomKernels.addOneAtomic(filters, filter, blocks, bitsPerKey, hash)
                : BlockedBloomKernels.addOne(filters, filter, blocks, bitsPerKey, hash);
    }

    /** Whether every bit of a hash is set in the key's filter; {@code false} for a key with none. */
    boolean mightContain(long record, long hash) {
        long filter = area.pieceOf(record);
        return filter >= 0 && BlockedBloomKernels.mightContainOne(filters, filter, blocks, bitsPerKey, hash);
    }

    /**
     * ORs the filter of the key of {@code sourceRecord} in {@code source} into the key of {@code record}:
     * the SIMD OR kernel for the exclusive writer, atomic ORs of the words that gain bits for shared ones.
     */
    void or(long record, TableFilters source, long sourceRecord) {
        long from = source.area.pieceOf(sourceRecord);
        if (from < 0) {
            return;
        }
        long into = area.pieceFor(record);
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
        long filter = area.pieceOf(record);
        for (int w = 0; filter >= 0 && w < bits.length; w++) {
            bits[w] = words.getLongAcquire(filter + (long) w * Long.BYTES);
        }
        return bits;
    }
}
