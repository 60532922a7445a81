package io.mapsketch.memory;

/** Options for {@link SketchRegion#create}. */
public enum CreateOption {
    /**
     * Replace a file that already exists at the path. Without it, creation refuses with
     * {@link java.nio.file.FileAlreadyExistsException}. The replacement is atomic: processes that
     * still map the old file keep the old file; new openers see the new one.
     */
    OVERWRITE_EXISTING
}
