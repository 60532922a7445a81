package io.mapsketch.internal;

import io.mapsketch.TableFullException;
import io.mapsketch.memory.AtomicSegment;

/**
 * The heap of a sketch table: {@code H} bytes of the payload handed out by a bump allocator whose cursor
 * is a word of the table line, moved by compare-and-set, so that writers in any process allocate at
 * once without a lock. Nothing is freed; a piece lost in a race is given back only while it is still the
 * last one handed out. Heap bytes are zero until a writer fills them. The layout is drawn in
 * {@code docs/design/tables.md}.
 *
 * <p>Cost: an allocation is a load and a compare-and-set, retried under contention, and a fill of the piece
 * with zeros.
 */
public final class TableHeap {

    /** The cursor's offset in the table line: bytes of the heap handed out. */
    static final long CURSOR = 8;

    private final AtomicSegment line;
    private final long cursor;
    private final AtomicSegment bytes;
    private final long size;
    private final String table;
    private final String area;
    private final String remedy;

    /**
     * Views the heap of the key records, its cursor at word {@link #CURSOR} of the table line.
     *
     * @param line the table line
     * @param bytes the heap's bytes, 64-byte aligned
     * @param table what to call the table in a refusal ("sketch table file t.hllt")
     */
    public TableHeap(AtomicSegment line, AtomicSegment bytes, String table) {
        this(line, CURSOR, bytes, table, "heap", "more bytes per key");
    }

    /**
     * Views an area of a table handed out as a heap is, with its cursor at another word of the table line.
     *
     * @param line the table line
     * @param cursor the cursor's offset in the line, a multiple of 8
     * @param bytes the area's bytes, 64-byte aligned
     * @param table what to call the table in a refusal
     * @param area what to call the area in a refusal ("heap")
     * @param remedy what a larger table needs more of, for the refusal ("more bytes per key")
     */
    public TableHeap(AtomicSegment line, long cursor, AtomicSegment bytes, String table, String area, String remedy) {
        this.line = line;
        this.cursor = cursor;
        this.bytes = bytes;
        this.size = bytes.byteSize();
        this.table = table;
        this.area = area;
        this.remedy = remedy;
    }

    /** The heap's bytes. */
    public AtomicSegment bytes() {
        return bytes;
    }

    /** The heap's size H in bytes. */
    public long size() {
        return size;
    }

    /** Bytes handed out so far. */
    public long used() {
        return line.getLongAcquire(cursor);
    }

    /**
     * Hands out {@code length} zero bytes at a multiple of {@code alignment}.
     *
     * @param length bytes, a multiple of 8
     * @param alignment 8 or 64
     * @return the heap offset of the piece
     * @throws TableFullException if the heap has no room for it
     */
    public long allocate(long length, long alignment) {
        while (true) {
            long handedOut = line.getLongAcquire(cursor);
            long start = (handedOut + alignment - 1) & -alignment;
            if (start + length > size || start + length < 0) {
                throw new TableFullException(table + " has no room for " + length + " more bytes: its " + area + " of "
                        + size + " bytes holds " + handedOut + "; create a larger table (" + remedy + ")");
            }
            if (line.compareAndSetLong(cursor, handedOut, start + length)) {
                // The bytes past the cursor are zero in every file this heap wrote, but a file's are not checked
                // on open: a piece is zeroed before anyone can see it, so that garbage is never read as a record.
                bytes.segment().asSlice(start, length).fill((byte) 0);
                return start;
            }
        }
    }

    /**
     * Gives back a piece that {@link #allocate} handed out and nobody else has seen, zeroed, if it is still
     * the last one handed out; otherwise it stays unused.
     *
     * @param offset the piece's heap offset
     * @param length its length
     * @return whether the cursor moved back over it (else it stays unused, zero)
     */
    public boolean giveBack(long offset, long length) {
        bytes.segment().asSlice(offset, length).fill((byte) 0);
        return line.compareAndSetLong(cursor, offset + length, offset);
    }

    /** Encodes a heap offset, a multiple of 8, as the non-zero 40-bit reference the table's words store. */
    public static long reference(long offset) {
        return (offset >>> 3) + 1;
    }

    /** Decodes a non-zero reference ({@link #reference}) to its heap offset. */
    public static long offset(long reference) {
        return (reference - 1) << 3;
    }
}
