package io.mapsketch.internal;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.TableFullException;
import io.mapsketch.memory.AtomicSegment;
import java.nio.file.Path;

/**
 * The area of a table whose keys each hold one fixed-size piece (a Bloom table's filter, a Count-Min
 * table's counters), handed out at a key's first write: a record's value area is one word, 0 while the
 * key has no piece, else the reference of its piece. A piece is a spare one (a word of the table line that
 * holds a piece no key holds) or else one handed out from the area (a {@link TableHeap} whose cursor is
 * word {@value #CURSOR} of the table line), and is published in the record by compare-and-set; the loser
 * of a race gives its piece back. The layout and the proof are in {@code docs/design/tables.md}.
 *
 * <p>Cost: a lookup reads the record's word; a key's first write also allocates, and, with the area used
 * up, may wait {@link RacingWriters#WAIT_NANOS} for a racing writer.
 */
public final class KeyPieceArea {

    /** The piece word's offset in a record. */
    public static final long PIECE = KeyIndex.VALUE;
    /** The value area of a record: the piece word. */
    public static final int VALUE_BYTES = Long.BYTES;
    /** The area's cursor in the table line: bytes of the area handed out. */
    static final long CURSOR = 16;
    /** The spare words of the table line: 0, or a zero piece handed out that no key holds, to hand out again. */
    static final long FIRST_SPARE = 24;
    /** The spare words' count: words 24 to 56 of the table line. */
    static final int SPARES = 5;

    private final AtomicSegment records;
    private final AtomicSegment line;
    private final TableHeap area;
    private final AtomicSegment bytes;
    private final long pieceBytes;
    private final long alignment;
    private final String piece;
    private final String areaName;

    /**
     * Views the area.
     *
     * @param heap the heap of the key records
     * @param line the table line, whose word {@value #CURSOR} is the area's cursor
     * @param bytes N pieces of {@code pieceBytes}, 64-byte aligned
     * @param pieceBytes the bytes of one piece, a multiple of {@code alignment}
     * @param alignment 8 or 64
     * @param piece what a piece is called in a refusal ("filter")
     * @param areaName what the area is called in a refusal ("filter area")
     * @param table what to call the table in a refusal
     */
    public KeyPieceArea(
            TableHeap heap,
            AtomicSegment line,
            AtomicSegment bytes,
            long pieceBytes,
            long alignment,
            String piece,
            String areaName,
            String table) {
        this.records = heap.bytes();
        this.line = line;
        this.area = new TableHeap(line, CURSOR, bytes, table, areaName, "a larger capacity");
        this.bytes = bytes;
        this.pieceBytes = pieceBytes;
        this.alignment = alignment;
        this.piece = piece;
        this.areaName = areaName;
    }

    /** The area's bytes handed out: the keys' pieces, the spare ones and any lost. */
    public long bytesUsed() {
        return area.used();
    }

    /**
     * Returns the piece of the key of {@code record}.
     *
     * @param record the key's record
     * @return the piece's offset in the area, or -1 for a key with none
     */
    public long pieceOf(long record) {
        long word = records.getLongAcquire(record + PIECE);
        return word == 0 ? -1 : TableHeap.offset(word);
    }

    /**
     * Returns the key's piece, published if it has none: a spare piece if a word of the table line holds
     * one, else one handed out from the area. With the area used up, a writer racing this one for the same
     * key may hold the key's piece, or one it gives back, for a moment: this writer waits for either
     * ({@link RacingWriters}).
     *
     * @param record the key's record
     * @return the piece's offset in the area
     * @throws TableFullException if the area has no room once that wait is over (only once writers killed
     *     in flight, or more than five racing at once, lost pieces)
     */
    public long pieceFor(long record) {
        long held = pieceOf(record);
        if (held >= 0) {
            return held;
        }
        long offset = takeSpare();
        if (offset < 0) {
            try {
                offset = area.allocate(pieceBytes, alignment);
            } catch (TableFullException full) {
                long published = Long.MAX_VALUE; // no piece's offset
                offset = RacingWriters.await(() -> pieceOf(record) >= 0 ? published : takeSpare(), () -> full);
                if (offset == published) {
                    return pieceOf(record);
                }
            }
        }
        if (records.compareAndSetLong(record + PIECE, 0, TableHeap.reference(offset))) {
            return offset;
        }
        release(offset);
        return pieceOf(record);
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

    /** Gives back a piece no key holds, zero: to the area if it is the last handed out, else to a spare word. */
    private void release(long offset) {
        if (area.giveBack(offset, pieceBytes)) {
            return;
        }
        for (int s = 0; s < SPARES; s++) {
            if (line.compareAndSetLong(FIRST_SPARE + (long) s * Long.BYTES, 0, TableHeap.reference(offset))) {
                return;
            }
        }
    }

    /**
     * Refuses an area whose cursor a writer could misuse (past the area, or not a whole number of pieces);
     * returns the map of the pieces handed out, one bit per piece, for {@link #check}.
     *
     * @param file the table's file, for a refusal
     * @return the map, to close after the open's walk
     * @throws CorruptSketchFileException naming the cursor
     */
    public HeapPieces validate(Path file) throws CorruptSketchFileException {
        long used = area.used();
        if (used < 0 || used > area.size() || used % pieceBytes != 0) {
            throw new CorruptSketchFileException(
                    file,
                    piece + " cursor = " + used + ", expected a multiple of " + pieceBytes + " in 0.." + area.size());
        }
        return new HeapPieces(area, used, pieceBytes, areaName, file);
    }

    /**
     * The check of the piece words on open, marking the pieces in {@code handedOut}: refuses a spare word or
     * a key's piece word that refers to a piece not handed out, not at a multiple of the piece's bytes, or
     * held by another word too (two keys would share data, or a writer would hand a key's piece to another);
     * a spare word whose piece is not zero.
     *
     * @param handedOut the map {@link #validate} returned
     * @param file the table's file, for a refusal
     * @return the check to hand to the index's walk
     */
    public KeyIndex.RecordCheck check(HeapPieces handedOut, Path file) {
        return new KeyIndex.RecordCheck() {
            @Override
            public void begin() throws CorruptSketchFileException {
                for (int s = 0; s < SPARES; s++) {
                    long word = line.getLongAcquire(FIRST_SPARE + (long) s * Long.BYTES);
                    if (word != 0) {
                        handedOut.mark(TableHeap.offset(word), pieceBytes, piece, "spare word", s);
                        if (!isZero(TableHeap.offset(word))) {
                            throw new CorruptSketchFileException(
                                    file,
                                    "spare word " + s + " refers to a " + piece + " holding data; a spare " + piece
                                            + " is zero");
                        }
                    }
                }
            }

            @Override
            public void check(long record, HeapPieces heap) throws CorruptSketchFileException {
                long word = records.getLongAcquire(record + PIECE);
                if (word != 0) {
                    handedOut.mark(TableHeap.offset(word), pieceBytes, piece, HeapPieces.KEY, record);
                }
            }
        };
    }

    private boolean isZero(long offset) {
        for (long at = 0; at < pieceBytes; at += Long.BYTES) {
            if (bytes.getLong(offset + at) != 0) {
                return false;
            }
        }
        return true;
    }
}
