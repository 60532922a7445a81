package io.mapsketch;

import java.nio.file.Path;

/**
 * The path a writer opened no longer names the file it maps: another file was put in its place
 * (for example created with {@link CreateOption#REPLACE_IN_USE}) or it was deleted or renamed.
 * What the writer added is in a file that no new opener of the path sees. Thrown by
 * {@link Sketch#force()} (as the cause of an {@link java.io.UncheckedIOException}) and by
 * {@link Sketch#close()}.
 */
public final class SketchFileReplacedException extends SketchFileException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param file the path the writer opened
     * @param message what is at the path now
     */
    public SketchFileReplacedException(Path file, String message) {
        super(file, message);
    }
}
