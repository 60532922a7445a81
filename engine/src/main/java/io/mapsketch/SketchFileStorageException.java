package io.mapsketch;

import java.nio.file.Path;

/**
 * The file system cannot give a file opened for writing the storage it needs: a sketch file with
 * holes (a sparse copy) whose blocks cannot be reserved because the disk is full or a quota is
 * reached. A store into a hole would otherwise kill the JVM with {@code SIGBUS} once the disk fills;
 * the file is not mapped.
 */
public final class SketchFileStorageException extends SketchFileException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param file the file
     * @param message what was asked for and what the file system answered
     */
    public SketchFileStorageException(Path file, String message) {
        super(file, message);
    }
}
