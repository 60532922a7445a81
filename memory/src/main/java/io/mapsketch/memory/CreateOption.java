package io.mapsketch.memory;

/**
 * Options for {@link SketchRegion#create}. A new file's permissions are {@code rw-r--r--} (0644)
 * unless {@link #OWNER_ONLY} is given, on file systems with POSIX permissions; the process's umask
 * does not apply. A sketch of user identifiers tells whoever can read it whether an identifier was
 * probably added, so choose {@link #OWNER_ONLY} for sketches of personal data.
 */
public enum CreateOption {
    /**
     * Replace a file that already exists at the path. Without it, creation refuses with
     * {@link java.nio.file.FileAlreadyExistsException}. The replacement is atomic: processes that
     * still map the old file keep the old file; new openers see the new one.
     */
    OVERWRITE_EXISTING,
    /** Create the file readable and writable by its owner only: {@code rw-------} (0600). */
    OWNER_ONLY
}
