package io.mapsketch.internal;

import io.mapsketch.CorruptSketchFileException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;

/**
 * The pieces an open of a table finds handed out from one of its areas (a {@link TableHeap}: the heap's
 * records, chunks and blocks, or a Bloom table's filters), marked in a bitmap of one bit per unit of the
 * bytes handed out, so that the open refuses a piece past the area's cursor, not at a multiple of the
 * unit, or sharing a byte with another piece: two holders of one byte would have a writer write one's
 * data over the other's. A refusal of an overlap names both pieces and their holders ({@link #walk}).
 *
 * <p>Cost: {@code used / unit / 8} bytes of bitmap off the Java heap until {@link #close} (1/64 of the
 * heap's bytes in use, one bit per filter) and, per piece, one test-and-set of the bitmap words it covers.
 */
public final class HeapPieces implements AutoCloseable {

    /** The holder of a key's pieces in a refusal, followed by its record's heap offset. */
    public static final String KEY = "the key at heap offset";

    /** A walk of an open that marks pieces, run again to name the first holder of a byte two pieces share. */
    @FunctionalInterface
    public interface Walk {
        /**
         * Walks the table, marking its pieces.
         *
         * @throws CorruptSketchFileException naming the fault
         */
        void run() throws CorruptSketchFileException;
    }

    private enum Mode {
        MARKING,
        FINDING,
        IDLE
    }

    private final TableHeap area;
    private final long unit;
    private final String name;
    private final Path file;
    private final Arena arena = Arena.ofConfined();
    private final long covered;
    private final MemorySegment bits;
    private Mode mode = Mode.MARKING;
    private CorruptSketchFileException refusal;
    private long sharedUnit;
    private String laterPiece;

    /**
     * Maps the bytes of an area handed out so far; a piece handed out while the walk runs lies past them and
     * is checked against the cursor only.
     *
     * @param area the area
     * @param used its cursor, checked by the caller: a multiple of {@code unit} within the area
     * @param unit the bytes of one bit: 8 for the heap, a filter's bytes for a filter area
     * @param name what to call the area in a refusal ("heap")
     * @param file the table's file, for a refusal
     */
    public HeapPieces(TableHeap area, long used, long unit, String name, Path file) {
        this.area = area;
        this.unit = unit;
        this.name = name;
        this.file = file;
        this.covered = used;
        this.bits = arena.allocate(Math.ceilDiv(covered / unit, Long.SIZE) * Long.BYTES, Long.BYTES);
    }

    /**
     * Runs an open's walk with {@code maps} marking; on an overlap, runs it again with the map that found it
     * looking for the piece that holds the shared byte first, and refuses naming both pieces.
     *
     * @throws CorruptSketchFileException naming the fault
     */
    public static void walk(List<HeapPieces> maps, Walk walk) throws CorruptSketchFileException {
        try {
            walk.run();
        } catch (CorruptSketchFileException fault) {
            HeapPieces found =
                    maps.stream().filter(m -> m.refusal == fault).findFirst().orElse(null);
            if (found == null) {
                throw fault;
            }
            maps.forEach(m -> m.mode = m == found ? Mode.FINDING : Mode.IDLE);
            walk.run();
            throw fault;
        }
    }

    /**
     * Marks a piece: refuses one at a negative offset or off the unit, one past the area's cursor, or one
     * that shares a byte with a piece marked before it.
     *
     * @param offset the piece's offset in the area
     * @param length its bytes, a multiple of the unit
     * @param piece what it is ("dense block")
     * @param holder what holds it ("the key at heap offset"), followed by {@code id} in a refusal
     * @param id the holder's number (a heap offset, a slot)
     * @throws CorruptSketchFileException naming the piece and its holder, and the other one's on an overlap
     */
    public void mark(long offset, long length, String piece, String holder, long id) throws CorruptSketchFileException {
        if (mode == Mode.FINDING) {
            if (offset <= sharedUnit * unit && sharedUnit * unit < offset + length) {
                throw new CorruptSketchFileException(
                        file, laterPiece + " overlaps " + describe(offset, length, piece, holder, id));
            }
            return;
        }
        if (mode == Mode.IDLE) {
            return;
        }
        if (offset < 0 || offset % unit != 0) {
            throw fault(offset, length, piece, holder, id, "is not a multiple of " + unit);
        }
        if (offset > covered - length) {
            long used = area.used();
            if (offset > used - length) {
                throw fault(offset, length, piece, holder, id, "lies past the " + name + " cursor " + used);
            }
        }
        long first = offset / unit;
        long end = Math.min(offset + length, covered) / unit;
        for (long word = first >>> 6; first < end && word << 6 < end; word++) {
            long from = Math.max(first, word << 6);
            long to = Math.min(end, (word + 1) << 6);
            long mask = (-1L >>> (Long.SIZE - (to - from))) << (from & 63);
            long held = bits.getAtIndex(ValueLayout.JAVA_LONG, word);
            if ((held & mask) != 0) {
                sharedUnit = (word << 6) + Long.numberOfTrailingZeros(held & mask);
                laterPiece = describe(offset, length, piece, holder, id);
                refusal = new CorruptSketchFileException(
                        file,
                        laterPiece + " overlaps a piece found before it, at " + name + " offset " + sharedUnit * unit);
                throw refusal;
            }
            bits.setAtIndex(ValueLayout.JAVA_LONG, word, held | mask);
        }
    }

    private CorruptSketchFileException fault(
            long offset, long length, String piece, String holder, long id, String what) {
        return new CorruptSketchFileException(file, describe(offset, length, piece, holder, id) + " " + what);
    }

    /** "the dense block at heap offset 512 (256 bytes) of the key at heap offset 96". */
    private String describe(long offset, long length, String piece, String holder, long id) {
        return "the " + piece + " at " + name + " offset " + offset + " (" + length + " bytes) of " + holder + " " + id;
    }

    /** Frees the bitmap. */
    @Override
    public void close() {
        arena.close();
    }
}
