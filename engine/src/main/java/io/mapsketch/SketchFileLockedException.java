package io.mapsketch;

import java.nio.file.Path;

/**
 * Another writer holds the file in a mode that excludes the one asked for: an
 * {@link OpenMode#EXCLUSIVE} writer exists, or an exclusive open found other writers.
 */
public final class SketchFileLockedException extends SketchFileException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param file the locked file
     * @param message who holds it, as far as is known, and what was asked
     */
    public SketchFileLockedException(Path file, String message) {
        super(file, message);
    }
}
