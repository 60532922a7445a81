package io.mapsketch;

/**
 * How a sketch region is opened, and so which writers may coexist with it.
 *
 * <table>
 *   <caption>Who may open a file while another holder has it</caption>
 *   <tr><th>held</th><th>READ_ONLY</th><th>SHARED</th><th>EXCLUSIVE</th></tr>
 *   <tr><td>READ_ONLY</td><td>yes</td><td>yes</td><td>yes</td></tr>
 *   <tr><td>SHARED</td><td>yes</td><td>yes</td><td>no</td></tr>
 *   <tr><td>EXCLUSIVE</td><td>yes</td><td>no</td><td>no</td></tr>
 * </table>
 *
 * <p>The rule holds across threads and processes: writers take an operating-system file lock
 * (shared or exclusive) for as long as the region is open.
 */
public enum OpenMode {
    /** Mapped read-only; any write through the region throws. Takes no lock. */
    READ_ONLY,
    /**
     * Read-write, coexisting with other {@code SHARED} writers in any process. Writers must
     * update the payload with atomic word operations so that concurrent updates compose.
     */
    SHARED,
    /**
     * Read-write as the only writer: fails with {@link SketchFileLockedException} while any other
     * writer holds the file. The holder may update the payload with plain stores.
     */
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
