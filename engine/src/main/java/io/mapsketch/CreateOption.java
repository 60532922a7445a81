package io.mapsketch;

/**
 * Options for {@link SketchBuilder#create}. A new file's permissions are {@code rw-r--r--} (0644)
 * unless {@link #OWNER_ONLY} is given, on file systems with POSIX permissions; the process's umask
 * does not apply. A sketch of user identifiers tells whoever can read it whether an identifier was
 * probably added, so choose {@link #OWNER_ONLY} for sketches of personal data.
 */
public enum CreateOption {
    /**
     * Replace a file that already exists at the path, unless a writer in any process has it open.
     * Without it, creation refuses with {@link java.nio.file.FileAlreadyExistsException}; while the
     * existing file has writers it refuses with {@link SketchFileLockedException}, naming the
     * writers' pids where this process can see them. The replacement is atomic: readers that still
     * map the old file keep the old file; new openers see the new one.
     */
    OVERWRITE_EXISTING,
    /**
     * Replace a file that already exists at the path even while writers have it open (implies
     * {@link #OVERWRITE_EXISTING}). Their later updates go to the old file, which no new opener sees;
     * each finds out at its next {@link Sketch#force()} or {@link Sketch#close()}, which
     * throw {@link SketchFileReplacedException}.
     */
    REPLACE_IN_USE,
    /** Create the file readable and writable by its owner only: {@code rw-------} (0600). */
    OWNER_ONLY
}
