package io.mapsketch;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A sketch file that cannot be opened as asked. Each subtype names one class of fault; every
 * message names the file, and where a header field is at fault, the field, the value expected
 * and the value found.
 */
public abstract sealed class SketchFileException extends IOException
        permits CorruptSketchFileException,
                IncompatibleSketchFileException,
                SketchFileLockedException,
                SketchFileReplacedException,
                SketchFileStorageException {

    private static final long serialVersionUID = 1L;

    /** The file, or {@code null} for an anonymous region. */
    private final transient Path file;

    /**
     * Creates an exception about one file.
     *
     * @param file the file at fault, or {@code null} for an anonymous region
     * @param message what is wrong, without the file name (it is prefixed here)
     */
    SketchFileException(Path file, String message) {
        super(describe(file) + ": " + message);
        this.file = file;
    }

    /**
     * Returns the file at fault.
     *
     * @return the path as given when opening, or {@code null} for an anonymous region
     */
    public Path file() {
        return file;
    }

    static String describe(Path file) {
        return file == null ? "anonymous sketch region" : "sketch file " + file;
    }
}
