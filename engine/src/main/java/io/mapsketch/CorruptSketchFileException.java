package io.mapsketch;

import java.nio.file.Path;

/**
 * The file is not a sketch file, or its header is damaged: wrong magic, a checksum that does not
 * match, a payload that does not fit the file, an impossible value in a field. Nothing in such a
 * file is trusted; the file is not mapped.
 */
public final class CorruptSketchFileException extends SketchFileException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param file the file at fault
     * @param message the field, the expected and the actual value
     */
    public CorruptSketchFileException(Path file, String message) {
        super(file, message);
    }
}
