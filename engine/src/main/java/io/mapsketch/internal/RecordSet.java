package io.mapsketch.internal;

/**
 * A set of heap offsets of records, in this process's heap memory: open addressing with linear probing
 * over a {@code long[]} that doubles when it is 3/4 full. Used where a walk must take each record once.
 *
 * <p>Cost: an {@link #add} hashes the offset and probes about 1.5 slots at the load of at most 3/4; 16 to
 * 32 bytes per record held.
 */
final class RecordSet {

    private long[] slots;
    private int size;

    /** An empty set sized for {@code expected} records without growing. */
    RecordSet(long expected) {
        long wanted = Math.max(8, Math.ceilDiv(Math.min(expected, 1L << 29) * 4, 3));
        slots = new long[(int) (Long.highestOneBit(wanted - 1) << 1)];
    }

    /**
     * Adds a record.
     *
     * @param record a heap offset, at least 0
     * @return {@code true} if it was not in the set
     */
    boolean add(long record) {
        long stored = record + 1; // 0 marks an empty slot
        int mask = slots.length - 1;
        for (int slot = (int) mix(stored) & mask; ; slot = (slot + 1) & mask) {
            if (slots[slot] == stored) {
                return false;
            }
            if (slots[slot] == 0) {
                slots[slot] = stored;
                if (++size > slots.length / 4 * 3) {
                    grow();
                }
                return true;
            }
        }
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        int mask = slots.length - 1;
        for (long stored : old) {
            if (stored != 0) {
                int slot = (int) mix(stored) & mask;
                while (slots[slot] != 0) {
                    slot = (slot + 1) & mask;
                }
                slots[slot] = stored;
            }
        }
    }

    /** Spreads the offsets, multiples of 8 handed out in order, over the slots (Stafford's mix 13). */
    private static long mix(long x) {
        x = (x ^ (x >>> 30)) * 0xbf58476d1ce4e5b9L;
        x = (x ^ (x >>> 27)) * 0x94d049bb133111ebL;
        return x ^ (x >>> 31);
    }
}
