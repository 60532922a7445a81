package io.mapsketch.internal;

/**
 * A set of the slots of one {@link KeyIndex}, a bit per slot in this process's heap memory. Used where a
 * walk must take each key of an index once: a key's slot never changes.
 *
 * <p>Cost: {@link #add} and {@link #contains} are one array access; {@code slots / 8} bytes.
 */
final class SlotSet {

    /** The set that holds no slot and takes none. */
    static final SlotSet NONE = new SlotSet(0);

    private final long[] bits;

    /** An empty set of the slots of an index of {@code slots} slots. */
    SlotSet(long slots) {
        bits = new long[Math.toIntExact(Math.ceilDiv(slots, Long.SIZE))];
    }

    /** Adds a slot of the index. */
    void add(long slot) {
        bits[(int) (slot >>> 6)] |= 1L << slot;
    }

    /** Whether the set holds a slot; {@code false} for every slot of {@link #NONE}. */
    boolean contains(long slot) {
        return bits.length != 0 && (bits[(int) (slot >>> 6)] & 1L << slot) != 0;
    }
}
