package io.mapsketch;

import java.util.OptionalLong;

/**
 * An add was refused because a sketch table has no room: every one of its key slots is taken, or its
 * heap (the bytes its keys' sketches are stored in) is used up. The refused item was not added (a new
 * key whose item found no room stays, empty); every key and item added before it is still there. The message names the table's file and the
 * capacity that ran out; a table is sized when it is created. A batch add's refusal also says how many of
 * its pairs were added before the refused one ({@link #pairsAdded}), as JDBC's batch refusals give their
 * update counts.
 */
public final class TableFullException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** The pairs of the batch added before the refused one; -1 for a refusal outside a batch add. */
    private final long pairsAdded;

    /**
     * Creates the exception.
     *
     * @param message which table refused, which capacity ran out and how to get room
     */
    public TableFullException(String message) {
        super(message);
        this.pairsAdded = -1;
    }

    /**
     * The refusal of a batch add: {@code refusal}'s message, {@code refusal} as the cause.
     *
     * @param refusal the refusal of the pair that found no room
     * @param pairsAdded the batch's pairs added before it, at least 0
     * @throws IllegalArgumentException if {@code pairsAdded} is negative
     */
    public TableFullException(TableFullException refusal, long pairsAdded) {
        super(refusal.getMessage(), refusal);
        if (pairsAdded < 0) {
            throw new IllegalArgumentException("pairsAdded = " + pairsAdded + ", must be at least 0");
        }
        this.pairsAdded = pairsAdded;
    }

    /**
     * Returns how many pairs of a batch add were added before the refused one: pairs {@code [0, n)} of the
     * batch are in the table, the refused pair {@code n} and the ones after it are not.
     *
     * @return n, or empty if the refusal was not of a batch add
     */
    public OptionalLong pairsAdded() {
        return pairsAdded < 0 ? OptionalLong.empty() : OptionalLong.of(pairsAdded);
    }
}
