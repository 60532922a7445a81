package io.mapsketch.memory;

/**
 * How a region is mapped, and so which writers may coexist with it: any number of
 * {@code READ_ONLY} holders; {@code SHARED} writers with each other; an {@code EXCLUSIVE} writer
 * with readers only. Writers hold an operating-system file lock (shared or exclusive) for as long
 * as the region is open, so the rule holds across threads and processes. The engine's
 * {@code OpenMode} states the same rule to users.
 */
public enum RegionMode {
    /** Mapped read-only; any write through the region throws. Takes no lock. */
    READ_ONLY,
    /** Read-write beside other {@code SHARED} writers: the payload is updated with atomic word operations. */
    SHARED,
    /** Read-write as the only writer ({@link FileFault.Reason#LOCKED} while another writer holds the file). */
    EXCLUSIVE;

    /**
     * Tells whether this mode allows writes.
     *
     * @return {@code true} for {@link #SHARED} and {@link #EXCLUSIVE}
     */
    public boolean isWritable() {
        return this != READ_ONLY;
    }
}
