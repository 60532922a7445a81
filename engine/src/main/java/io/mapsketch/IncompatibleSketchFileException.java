package io.mapsketch;

import java.nio.file.Path;

/**
 * The file is a valid sketch file, but not one this caller or this build can use: a newer
 * format version, an unknown hash scheme, or a different sketch kind from the one expected.
 */
public final class IncompatibleSketchFileException extends SketchFileException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param file the file at fault
     * @param message the field, the expected and the actual value
     */
    public IncompatibleSketchFileException(Path file, String message) {
        super(file, message);
    }
}
