package io.mapsketch.memory;

/**
 * How {@link SketchRegions#create} treats a file already at the path, and the new file's
 * permissions: {@code rw-r--r--} (0644) unless {@link #OWNER_ONLY} is given, on file systems with
 * POSIX permissions; the process's umask does not apply. The engine's {@code CreateOption} states
 * the same options to users.
 */
public enum CreateFlag {
    /**
     * Replace a file at the path unless a writer in any process has it open ({@link FileFault.Reason#LOCKED},
     * naming the writers' pids where this process can see them). Without it, creation refuses with
     * {@link java.nio.file.FileAlreadyExistsException}. Readers that still map the old file keep it.
     */
    OVERWRITE_EXISTING,
    /**
     * Replace a file at the path even while writers have it open (implies {@link #OVERWRITE_EXISTING});
     * each finds out at its next {@link SketchRegion#force()} or {@link SketchRegion#close()}
     * ({@link FileFault.Reason#REPLACED}).
     */
    REPLACE_IN_USE,
    /** Create the file readable and writable by its owner only: {@code rw-------} (0600). */
    OWNER_ONLY
}
