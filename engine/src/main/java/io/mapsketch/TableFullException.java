package io.mapsketch;

/**
 * An add was refused because a sketch table has no room: every one of its key slots is taken, or its
 * heap (the bytes its keys' sketches are stored in) is used up. The refused item was not added (a new
 * key whose item found no room stays, empty); every key and item added before it is still there. The message names the table's file and the
 * capacity that ran out; a table is sized when it is created.
 */
public final class TableFullException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message which table refused, which capacity ran out and how to get room
     */
    public TableFullException(String message) {
        super(message);
    }
}
