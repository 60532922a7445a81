package io.mapsketch.interop;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Bytes of another library's sketch that cannot be read as that library writes them: a wrong magic
 * number or version, a parameter out of its range, a length that does not match, a run that overflows
 * the registers. Nothing is written when an import meets one. The message names the source (the file,
 * or "foreign bytes" for an array), the format, the byte offset of the fault and the fault.
 */
public final class ForeignSketchException extends IOException {

    private static final long serialVersionUID = 1L;

    /** The file the bytes came from, or {@code null} when they were handed over as an array. */
    private final transient Path file;

    /** The foreign format's name, as the command spells it. */
    private final String format;

    /** The offset of the first byte at fault, from the start of the foreign bytes. */
    private final long offset;

    /**
     * Creates an exception about the bytes of one foreign sketch.
     *
     * @param format the foreign format's name as the command spells it, e.g. {@code redis-hll}
     * @param file the file the bytes came from, or {@code null} for an array
     * @param offset the offset of the first byte at fault, from the start of the foreign bytes
     * @param fault what is wrong, e.g. {@code "register runs cover 16,385 registers, expected 16,384"}
     */
    public ForeignSketchException(String format, Path file, long offset, String fault) {
        super((file == null ? "foreign bytes" : file.toString()) + ": not a " + format + " sketch: at byte " + offset
                + ", " + fault);
        this.file = file;
        this.format = format;
        this.offset = offset;
    }

    /**
     * Returns the file the bytes came from.
     *
     * @return the path as given, or {@code null} when the bytes were handed over as an array
     */
    public Path file() {
        return file;
    }

    /**
     * Returns the foreign format's name.
     *
     * @return the name as the command spells it, e.g. {@code redis-hll}
     */
    public String format() {
        return format;
    }

    /**
     * Returns where the fault is.
     *
     * @return the offset of the first byte at fault, from the start of the foreign bytes
     */
    public long offset() {
        return offset;
    }
}
