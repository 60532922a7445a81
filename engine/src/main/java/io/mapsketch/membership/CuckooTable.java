package io.mapsketch.membership;

import io.mapsketch.internal.Regions;
import io.mapsketch.memory.AtomicSegment;
import io.mapsketch.memory.RegionLock;

/**
 * The table of a cuckoo filter over its {@link CuckooSlots}: the buckets a key's fingerprint may
 * occupy, the lock-free lookup, and the writes of adds and removes. The second bucket of a fingerprint
 * depends on the fingerprint only ({@link #alternate}), so a fingerprint moves without its key; an
 * insert into two full buckets moves fingerprints along the shortest path {@link CuckooPath} finds.
 *
 * <p>Writers change the table one at a time, between {@link #beginWrite} and {@link #endWrite}: shared
 * writers under the lock word in the control line, the exclusive writer alone; each write begins by
 * repairing a write left unfinished by a writer that died. A move writes the fingerprint's new copy,
 * then increments the move counter, then overwrites the old slot, so a fingerprint is in at least one
 * of its buckets at every instant.
 *
 * <p>Lookups take no lock and never miss a key whose add returned; they never answer from a slot read
 * while it was being written, except after waiting {@value #STALL_NANOS} ns on a writer taken for dead,
 * when they answer {@code true}. The proofs are in {@code docs/design/membership.md}, "Cuckoo filter:
 * lock-free lookups".
 */
final class CuckooTable extends CuckooSlots {

    /** Buckets the path search explores before an insert gives up. */
    static final int MAX_KICKS = 500;
    /** The most copies of one fingerprint its two buckets hold: one per slot. */
    static final int MAX_COPIES = 2 * BUCKET_SIZE;
    /** How long a lookup waits for a straddling write to finish before it takes the writer for dead. */
    static final long STALL_NANOS = 10_000_000;

    private static final long GOLDEN = 0x9E37_79B9_7F4A_7C15L;
    /** Lookups that raced moves this many times answer "might contain", which is never a false negative. */
    private static final int LOOKUP_ATTEMPTS = 8;

    private final long fingerprintValues;
    private final int indexShift;
    private final CuckooPath path = new CuckooPath(this);
    private final RegionLock lock;

    /**
     * Views the table of a payload.
     *
     * @param buckets a power of two in [2, 2^32]
     * @param bits fingerprint width: 8, 12 or 16
     * @param layout {@link #DENSE} or {@link #WORD_ALIGNED}
     */
    CuckooTable(AtomicSegment words, long buckets, int bits, long layout) {
        super(words, buckets, bits, layout);
        this.fingerprintValues = (1L << bits) - 1;
        this.indexShift = Long.numberOfLeadingZeros(buckets) + 1;
        this.lock = new RegionLock(words, LOCK);
    }

    // ---------------------------------------------------------------- hashing

    /** The first bucket of a key: the high bits of its hash. */
    long bucket(long hash) {
        return hash >>> indexShift;
    }

    /** The fingerprint of a key, from the low 32 bits of its hash: uniform in [1, 2^f - 1] (0 marks an empty slot). */
    int fingerprint(long hash) {
        return (int) (Integer.toUnsignedLong((int) hash) % fingerprintValues) + 1;
    }

    /**
     * The other bucket of a fingerprint in {@code bucket}: an involution that depends on the fingerprint
     * only, so a fingerprint can move without its key. The offset is odd, so the two buckets differ.
     */
    long alternate(long bucket, int fingerprint) {
        return bucket ^ ((fingerprint * GOLDEN) >>> indexShift | 1);
    }

    // ---------------------------------------------------------------- readers

    /**
     * Whether either bucket holds the fingerprint, lock-free. A negative answer stands only if no move
     * happened while the buckets were read; after {@value #LOOKUP_ATTEMPTS} attempts that raced moves the
     * answer is {@code true}, a possible false positive and never a false negative. A match stands only if
     * {@link #matchStands} shows it was read whole; otherwise the lookup looks again, for as long as
     * writers make progress, and answers {@code true} only if the write that raced it stays unfinished for
     * {@value #STALL_NANOS} ns (its writer taken for dead). Cost: the control line and one or two words
     * per bucket, both buckets read and tested without a branch on the answer (a hit or miss, random to
     * the branch predictor, would otherwise flush the pipeline); a straddling match re-reads the control line.
     */
    boolean contains(long first, long second, int fingerprint) {
        int movesRaced = 0;
        long previous = -1;
        long stalledSince = 0;
        while (true) {
            long moves = words.getLongAcquire(MOVES);
            long sequence = sequenceBeforeRead();
            long inFirst = matching(slotsOf(first, true), fingerprint);
            // With straddling slots a match needs its slot, so the first bucket's match ends the reads.
            long inSecond = straddling && inFirst != 0 ? 0 : matching(slotsOf(second, true), fingerprint);
            boolean found = (inFirst | inSecond) != 0;
            if (straddling && found) {
                long slot = inFirst != 0
                        ? first * BUCKET_SIZE + firstSlotOf(inFirst)
                        : second * BUCKET_SIZE + firstSlotOf(inSecond);
                if (matchStands(slot, sequence)) {
                    return true;
                }
                if (sequence != previous || (sequence & 1) == 0) {
                    previous = sequence;
                    stalledSince = 0;
                } else if (stalledSince == 0) {
                    stalledSince = System.nanoTime();
                } else if (System.nanoTime() - stalledSince > STALL_NANOS) {
                    return true;
                } else {
                    Thread.yield();
                }
                continue;
            }
            // The answer as data behind one predictable branch: a miss stands if no move raced the reads.
            if (found | words.getLongAcquire(MOVES) == moves) {
                return found;
            }
            if (++movesRaced == LOOKUP_ATTEMPTS) {
                return true;
            }
        }
    }

    /** Fingerprint moves so far (every kick counts one). */
    long moves() {
        return words.getLongAcquire(MOVES);
    }

    long recoveries() {
        return words.getLongAcquire(RECOVERIES);
    }

    // ---------------------------------------------------------------- writers

    /**
     * Begins a write: a shared writer takes the lock (counting a takeover from a holder that died), then
     * a write left unfinished by a writer that died is repaired. End it with {@link #endWrite}.
     */
    void beginWrite(boolean shared) {
        if (shared && Regions.lock(lock)) {
            recordRecovery();
        }
        repairTornWrite();
    }

    /** Ends a write begun by {@link #beginWrite}: a shared writer releases the lock. */
    void endWrite(boolean shared) {
        if (shared) {
            lock.unlock();
        }
    }

    /** Counts a takeover of the lock from a dead holder; called by the new holder. */
    void recordRecovery() {
        words.putLongRelease(RECOVERIES, words.getLong(RECOVERIES) + 1);
    }

    /** Frees a lock word left by a writer that died; only when no other writer can exist (exclusive open). */
    void clearStaleLock() {
        if (words.getLongAcquire(LOCK) != 0) {
            words.putLongRelease(LOCK, 0);
            recordRecovery();
        }
    }

    /**
     * Stores a fingerprint in a free slot of one of its two buckets, the first bucket's first; if both
     * are full, moves others along the shortest path of at most {@value #MAX_KICKS} buckets that
     * {@link CuckooPath} finds. Writers only. Cost: two bucket reads and a store when a bucket has room.
     *
     * @return {@code false} if no path was found (nothing changed)
     */
    boolean insert(long first, long second, int fingerprint) {
        return insert(first, slotsOf(first, false), second, slotsOf(second, false), fingerprint);
    }

    /**
     * {@link #insert}, telling whether either bucket held the fingerprint before: one read of each
     * bucket serves both. Writers only.
     *
     * @return {@link Stored#REFUSED} if no path was found (nothing changed)
     */
    Stored add(long first, long second, int fingerprint) {
        long firstSlots = slotsOf(first, false);
        long secondSlots = slotsOf(second, false);
        boolean held = (matching(firstSlots, fingerprint) | matching(secondSlots, fingerprint)) != 0;
        if (!insert(first, firstSlots, second, secondSlots, fingerprint)) {
            return Stored.REFUSED;
        }
        return held ? Stored.COPY : Stored.NEW_KEY;
    }

    /** What {@link #add} did. */
    enum Stored {
        /** Stored, and neither bucket held the fingerprint before: the key was certainly new. */
        NEW_KEY,
        /** Stored a further copy of a fingerprint a bucket held. */
        COPY,
        /** Not stored: no path of moves reaches a free slot; nothing changed. */
        REFUSED
    }

    private boolean insert(long first, long firstSlots, long second, long secondSlots, int fingerprint) {
        long free = matching(firstSlots, 0);
        if (free != 0) {
            write(first, firstSlotOf(free), fingerprint);
            return true;
        }
        free = matching(secondSlots, 0);
        if (free != 0) {
            write(second, firstSlotOf(free), fingerprint);
            return true;
        }
        return path.moveToInsert(first, second, fingerprint);
    }

    /**
     * Why {@link #insert} refused a fingerprint, for the filter {@code name}: its buckets hold it
     * {@value #MAX_COPIES} times already, or no path of moves reaches a free slot; with the load.
     */
    FilterFullException refusal(String name, long first, long second, int fingerprint) {
        long occupied = occupied();
        long slots = slotCount();
        String load = String.format("%.2f%% load, %d of %d slots", 100.0 * occupied / slots, occupied, slots);
        if (count(first, fingerprint) + count(second, fingerprint) == MAX_COPIES) {
            return new FilterFullException(name + ": cannot add the key: it is already stored " + MAX_COPIES
                    + " times, the most one key can be (" + load + "); nothing was changed");
        }
        return new FilterFullException(name + ": cannot add the key: no free slot within " + MAX_KICKS
                + " buckets of moves (" + load + "); inserts begin to fail near 96% load; nothing was changed");
    }

    /**
     * The first half of a move: copies the fingerprint of slot {@code sourceSlot} of bucket {@code source}
     * to slot {@code targetSlot} of bucket {@code target}, then counts the move; the caller overwrites the
     * source slot next.
     */
    void copyAndCountMove(long source, int sourceSlot, long target, int targetSlot) {
        write(target, targetSlot, read(source, sourceSlot));
        words.putLongRelease(MOVES, words.getLong(MOVES) + 1);
    }

    /** Empties one slot holding the fingerprint in either bucket; writers only. Returns whether one was found. */
    boolean remove(long first, long second, int fingerprint) {
        return removeFrom(first, fingerprint) || removeFrom(second, fingerprint);
    }

    private boolean removeFrom(long bucket, int fingerprint) {
        int slot = find(bucket, fingerprint);
        if (slot < 0) {
            return false;
        }
        write(bucket, slot, 0);
        return true;
    }
}
