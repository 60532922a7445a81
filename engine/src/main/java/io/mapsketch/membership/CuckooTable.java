package io.mapsketch.membership;

import io.mapsketch.memory.AtomicSegment;
import java.lang.invoke.VarHandle;

/**
 * The buckets of a cuckoo filter in its payload, and the moves that make room in them. Layout
 * (drawn in {@code docs/file-format.md}): a 64-byte control line (the lock word, the move counter,
 * the recoveries count, the write sequence and the slot it guards), then the slots: bucket i is slots
 * {@code 4i .. 4i + 3}. In the dense layout, slot s is bits {@code f s} to {@code f s + f - 1} of the
 * little-endian slot array, so with f = 12 two slots in every sixteen (s mod 16 = 5 or 10) straddle
 * two 64-bit words. The word-aligned layout of files written before it packs 12-bit fingerprints five
 * to a word instead (slot s is bits {@code 12 (s mod 5)} onwards of word {@code s / 5}); for f = 8 and
 * 16 the two layouts are the same.
 *
 * <p>Writers (one at a time: under the filter's lock, or the exclusive writer) publish each word with
 * a release store. A move of a fingerprint to its other bucket writes the new copy first, then
 * increments the move counter, then overwrites the old slot, so that a fingerprint is in at least one
 * of its buckets at every instant, and twice for a moment. Readers take no lock and read each word
 * with an acquire load.
 *
 * <p><b>No false negatives.</b> A lookup that finds nothing re-reads the move counter and looks again
 * if a move happened meanwhile (a fingerprint may have left the bucket read second for the bucket read
 * first), so an acknowledged key is never missed. This holds for straddling slots too, for two
 * reasons: a writer rewrites a word with every other slot's bits unchanged, so a slot whose content
 * does not change during a lookup is read whole however many words it spans; and a copy of an
 * acknowledged fingerprint changes only when a move overwrites it, after the move counter's increment
 * (a lookup that read any word of that overwrite sees the counter changed and looks again), or when a
 * remove of another key with the same fingerprint and buckets takes it, which leaves a copy for each
 * such key still present.
 *
 * <p><b>No torn matches.</b> A slot read while a writer stores it may combine the old value's bits in
 * one word with the new value's in the other, a value neither write put there. A lookup never answers
 * from such a value (a seqlock): a writer storing a straddling slot names the slot in the control line
 * and makes the write sequence odd (release stores, in that order), issues a release fence so that
 * neither word's store can be seen before the odd sequence, stores both words and makes the sequence
 * even with a release store. A lookup reads the sequence with an acquire load before its buckets. A
 * match in a non-straddling slot was read by one atomic load and stands. A match in a straddling slot
 * stands if, re-read after the buckets' acquire loads, the sequence is unchanged and even; or at most
 * one write overlapped the loads, it is still in progress (the sequence odd, equal to the first reading
 * or one above it) and the control line names another slot. Otherwise a write to the slot may have
 * overlapped the loads and the lookup looks again. Negative answers need no such check (above).
 *
 * <p><b>Progress, and a writer that dies mid-write.</b> A lookup repeats after a raced straddling match
 * only while writers make progress (the sequence moved since its previous attempt); it waits on a write
 * that stays unfinished, yielding, for {@value #STALL_NANOS} ns, then takes its writer for dead and
 * answers {@code true}, at worst a false positive. A writer that died mid-write leaves the sequence odd
 * and one straddling slot half written: only lookups that match that very slot wait, other straddling
 * matches stand (the control line names the slot). The next writer, before it changes anything
 * ({@link #repairTornWrite()}), empties that slot and makes the sequence even. Emptying loses no
 * acknowledged key: the slot being written held nothing (an insert, or a move's new copy), or a
 * fingerprint already copied to its other bucket (a move's overwrite), or the one a remove that never
 * returned was taking away.
 */
final class CuckooTable {

    static final int BUCKET_SIZE = CuckooSizing.BUCKET_SIZE;
    /** Buckets the path search explores before an insert gives up. */
    static final int MAX_KICKS = 500;
    static final long CONTROL_BYTES = 64;
    /** Offset of the {@link io.mapsketch.memory.RegionLock} word. */
    static final long LOCK = 0;
    /** Header value of the slot layout of files written before straddling slots: 12-bit slots five to a word. */
    static final long WORD_ALIGNED = 0;
    /** Header value of the dense slot layout: slot s at bit {@code f s}. */
    static final long DENSE = 1;
    private static final long MOVES = 8;
    private static final long RECOVERIES = 16;
    /** Offset of the write sequence: odd while a writer stores a slot that straddles two words. */
    static final long SEQUENCE = 24;
    /** Offset of the index of the straddling slot being stored while the sequence is odd. */
    static final long WRITING = 32;
    private static final long GOLDEN = 0x9E37_79B9_7F4A_7C15L;
    /** Lookups that raced moves this many times answer "might contain", which is never a false negative. */
    private static final int LOOKUP_ATTEMPTS = 8;
    /** How long a lookup waits for a straddling write to finish before it takes the writer for dead. */
    static final long STALL_NANOS = 10_000_000;

    private final AtomicSegment words;
    private final long buckets;
    private final int bits;
    private final long fingerprintMask;
    private final long fingerprintValues;
    private final int indexShift;
    private final boolean wordAligned;
    /** Whether some slots straddle two words (dense, f = 12): only then do lookups read the sequence. */
    private final boolean straddling;
    private final long[] pathBucket = new long[MAX_KICKS];
    private final int[] pathParent = new int[MAX_KICKS];
    private final int[] pathSlot = new int[MAX_KICKS];

    /**
     * Views the table of a payload.
     *
     * @param buckets a power of two in [2, 2^32]
     * @param bits fingerprint width: 8, 12 or 16
     * @param layout {@link #DENSE} or {@link #WORD_ALIGNED}
     */
    CuckooTable(AtomicSegment words, long buckets, int bits, long layout) {
        this.words = words;
        this.buckets = buckets;
        this.bits = bits;
        this.fingerprintMask = (1L << bits) - 1;
        this.fingerprintValues = fingerprintMask;
        this.indexShift = Long.numberOfLeadingZeros(buckets) + 1;
        this.wordAligned = layout == WORD_ALIGNED && Long.SIZE % bits != 0;
        this.straddling = !wordAligned && Long.SIZE % bits != 0;
    }

    /**
     * Payload bytes of a table: the control line, then the slots rounded up to 64-byte lines. Dense: f
     * bits per slot; word-aligned: {@code floor(64 / f)} slots per 64-bit word (12.8 bits per slot for f = 12).
     */
    static long payloadBytes(long buckets, int bits, long layout) {
        long slots = buckets * BUCKET_SIZE;
        long words = layout == WORD_ALIGNED ? Math.ceilDiv(slots, Long.SIZE / bits)
                : Math.ceilDiv(slots * bits, Long.SIZE);
        return CONTROL_BYTES + Math.ceilDiv(words, 8) * 64;
    }

    /** Bits of the table per slot: f when dense, 64 / floor(64 / f) in the word-aligned layout. */
    double bitsPerSlot() {
        return wordAligned ? (double) Long.SIZE / (Long.SIZE / bits) : bits;
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

    // ---------------------------------------------------------------- slots

    /** The first bit of a slot in the slot array. */
    private long bitOf(long slot) {
        return wordAligned ? slot / 5 * Long.SIZE + slot % 5 * bits : slot * bits;
    }

    private boolean straddles(long slot) {
        return straddling && (bitOf(slot) & 63) + bits > Long.SIZE;
    }

    private static long offsetOf(long word) {
        return CONTROL_BYTES + word * Long.BYTES;
    }

    /**
     * The {@code width} bits (at most 64, in the low bits of the result; the bits above are not masked)
     * from bit {@code bit} of the slot array, by a load of each of the one or two words they touch: an
     * acquire load for lock-free readers, a plain one for the writer, which holds the lock.
     */
    private long bitsAt(long bit, int width, boolean acquire) {
        long word = bit >>> 6;
        int shift = (int) bit & 63;
        long value = load(word, acquire) >>> shift;
        if (shift + width > Long.SIZE) {
            value |= load(word + 1, acquire) << -shift;
        }
        return value;
    }

    private long load(long word, boolean acquire) {
        return acquire ? words.getLongAcquire(offsetOf(word)) : words.getLong(offsetOf(word));
    }

    /** The fingerprint in slot {@code slot} (0..3) of a bucket; 0 if empty. Writers only. */
    int read(long bucket, int slot) {
        return (int) (bitsAt(bitOf(bucket * BUCKET_SIZE + slot), bits, false) & fingerprintMask);
    }

    /**
     * Stores a fingerprint (0 to empty the slot) with a release store of each word it touches; writers
     * only. A straddling slot is stored inside an odd write sequence (the class comment says why).
     */
    void write(long bucket, int slot, int fingerprint) {
        long s = bucket * BUCKET_SIZE + slot;
        if (!straddles(s)) {
            store(bitOf(s), fingerprint);
            return;
        }
        long sequence = words.getLong(SEQUENCE);
        words.putLongRelease(WRITING, s);
        words.putLongRelease(SEQUENCE, sequence + 1);
        VarHandle.releaseFence();
        store(bitOf(s), fingerprint);
        words.putLongRelease(SEQUENCE, sequence + 2);
    }

    /** Stores f bits at bit {@code bit}, the low word first, each word whole with a release store. */
    private void store(long bit, int fingerprint) {
        long word = bit >>> 6;
        int shift = (int) bit & 63;
        replace(word, fingerprintMask << shift, (long) fingerprint << shift);
        if (shift + bits > Long.SIZE) {
            replace(word + 1, fingerprintMask >>> -shift, (long) fingerprint >>> -shift);
        }
    }

    private void replace(long word, long mask, long value) {
        long offset = offsetOf(word);
        words.putLongRelease(offset, words.getLong(offset) & ~mask | value);
    }

    /**
     * Undoes a write left unfinished by a writer that died (the sequence is odd): empties the straddling
     * slot named in the control line, if it names one, and makes the sequence even. Every writer calls
     * this before it changes the table, while it is the only writer; it costs one load when there is
     * nothing to repair.
     */
    void repairTornWrite() {
        long sequence = words.getLongAcquire(SEQUENCE);
        if ((sequence & 1) == 0) {
            return;
        }
        long slot = words.getLong(WRITING);
        if (slot >= 0 && slot < buckets * BUCKET_SIZE && straddles(slot)) {
            store(bitOf(slot), 0);
        }
        words.putLongRelease(SEQUENCE, sequence + 1);
    }

    /** The first slot of a bucket holding {@code fingerprint} (0 for an empty slot), or -1. Writers only. */
    int find(long bucket, int fingerprint) {
        return slotIn(slotsOf(bucket, false), fingerprint);
    }

    /** Copies of a fingerprint in a bucket. Writers only. */
    int count(long bucket, int fingerprint) {
        long slots = slotsOf(bucket, false);
        int copies = 0;
        for (int slot = 0; slot < BUCKET_SIZE; slot++) {
            copies += fingerprintIn(slots, slot) == fingerprint ? 1 : 0;
        }
        return copies;
    }

    /**
     * The four slots of a bucket, slot i in bits {@code f i} to {@code f i + f - 1}: dense, one or two
     * loads (4f bits from bit 4f bucket); word-aligned, one per slot. Acquire loads for lock-free readers.
     */
    private long slotsOf(long bucket, boolean acquire) {
        long first = bucket * BUCKET_SIZE;
        if (!wordAligned) {
            return bitsAt(first * bits, BUCKET_SIZE * bits, acquire);
        }
        long slots = 0;
        for (int slot = 0; slot < BUCKET_SIZE; slot++) {
            slots |= (bitsAt(bitOf(first + slot), bits, acquire) & fingerprintMask) << slot * bits;
        }
        return slots;
    }

    /** The fingerprint in slot {@code slot} of a bucket's {@link #slotsOf}. */
    private int fingerprintIn(long slots, int slot) {
        return (int) (slots >>> slot * bits & fingerprintMask);
    }

    /** The first slot of {@link #slotsOf} holding the fingerprint, or -1. */
    private int slotIn(long slots, int fingerprint) {
        for (int slot = 0; slot < BUCKET_SIZE; slot++) {
            if (fingerprintIn(slots, slot) == fingerprint) {
                return slot;
            }
        }
        return -1;
    }

    // ---------------------------------------------------------------- readers

    /**
     * Whether either bucket holds the fingerprint, lock-free. A negative answer stands only if no move
     * happened while the buckets were read; after {@value #LOOKUP_ATTEMPTS} attempts that raced moves the
     * answer is {@code true}, a possible false positive and never a false negative. A match in a
     * straddling slot stands only if {@link #readWhole} shows it was; otherwise the lookup looks again, for
     * as long as writers make progress, and answers {@code true} only if the write that raced it stays
     * unfinished for {@value #STALL_NANOS} ns (its writer taken for dead). Cost: the control line and one
     * or two words per bucket; a straddling match re-reads the control line.
     */
    boolean contains(long first, long second, int fingerprint) {
        int movesRaced = 0;
        long previous = -1;
        long stalledSince = 0;
        while (true) {
            long moves = words.getLongAcquire(MOVES);
            long sequence = straddling ? words.getLongAcquire(SEQUENCE) : 0;
            long bucket = first;
            int slot = slotIn(slotsOf(first, true), fingerprint);
            if (slot < 0) {
                bucket = second;
                slot = slotIn(slotsOf(second, true), fingerprint);
            }
            if (slot < 0) {
                if (words.getLongAcquire(MOVES) == moves) {
                    return false;
                }
                if (++movesRaced == LOOKUP_ATTEMPTS) {
                    return true;
                }
                continue;
            }
            long matched = bucket * BUCKET_SIZE + slot;
            if (!straddles(matched) || readWhole(matched, sequence)) {
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
        }
    }

    /**
     * Whether straddling slot {@code slot}, matched by acquire loads made after {@code sequence} was read,
     * was read whole: the sequence is unchanged and even (no straddling write overlapped the loads), or
     * just one write overlapped them, still in progress, and it stores another slot. The control line is
     * re-read with acquire loads, which cannot move before the slot's loads.
     */
    private boolean readWhole(long slot, long sequence) {
        long now = words.getLongAcquire(SEQUENCE);
        if (now == sequence) {
            return (now & 1) == 0 || words.getLongAcquire(WRITING) != slot && words.getLongAcquire(SEQUENCE) == now;
        }
        return now == sequence + 1 && (now & 1) == 1 && words.getLongAcquire(WRITING) != slot
                && words.getLongAcquire(SEQUENCE) == now;
    }

    /** Occupied slots, by a pass over every bucket. */
    long occupied() {
        long occupied = 0;
        for (long bucket = 0; bucket < buckets; bucket++) {
            long slots = slotsOf(bucket, true);
            for (int slot = 0; slot < BUCKET_SIZE; slot++) {
                occupied += fingerprintIn(slots, slot) != 0 ? 1 : 0;
            }
        }
        return occupied;
    }

    /** Fingerprint moves so far (every kick counts one). */
    long moves() {
        return words.getLongAcquire(MOVES);
    }

    long recoveries() {
        return words.getLongAcquire(RECOVERIES);
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

    // ---------------------------------------------------------------- writers

    /**
     * Stores a fingerprint in one of its two buckets, moving others along a path of at most
     * {@value #MAX_KICKS} buckets if both are full; writers only.
     *
     * <p>The path is searched breadth-first without writing anything, from both buckets at once: the
     * shortest chain of moves that ends in a bucket with an empty slot. Only when one is found is it
     * carried out, from its empty end back to the key's bucket, each fingerprint copied to its other
     * bucket before its old slot is overwritten. A search that fails leaves the table as it was.
     *
     * @return {@code false} if no path was found (nothing changed)
     */
    boolean insert(long first, long second, int fingerprint) {
        pathBucket[0] = first;
        pathBucket[1] = second;
        pathParent[0] = -1;
        pathParent[1] = -1;
        for (int node = 0; node < 2; node++) {
            int free = find(pathBucket[node], 0);
            if (free >= 0) {
                write(pathBucket[node], free, fingerprint);
                return true;
            }
        }
        int nodes = 2;
        for (int head = 0; head < nodes; head++) {
            long bucket = pathBucket[head];
            long slots = slotsOf(bucket, false);
            for (int slot = 0; slot < BUCKET_SIZE; slot++) {
                if (nodes == MAX_KICKS) {
                    return false;
                }
                long next = alternate(bucket, fingerprintIn(slots, slot));
                if (explored(next, nodes)) {
                    continue;
                }
                pathBucket[nodes] = next;
                pathParent[nodes] = head;
                pathSlot[nodes] = slot;
                int free = find(next, 0);
                if (free >= 0) {
                    carryOut(nodes, free, fingerprint);
                    return true;
                }
                nodes++;
            }
        }
        return false;
    }

    private boolean explored(long bucket, int nodes) {
        for (int node = 0; node < nodes; node++) {
            if (pathBucket[node] == bucket) {
                return true;
            }
        }
        return false;
    }

    /** Moves every fingerprint of the path one step along it, from its free end, then stores the new one. */
    private void carryOut(int node, int freeSlot, int fingerprint) {
        long target = pathBucket[node];
        int targetSlot = freeSlot;
        while (pathParent[node] >= 0) {
            long source = pathBucket[pathParent[node]];
            int sourceSlot = pathSlot[node];
            write(target, targetSlot, read(source, sourceSlot));
            words.putLongRelease(MOVES, words.getLong(MOVES) + 1);
            target = source;
            targetSlot = sourceSlot;
            node = pathParent[node];
        }
        write(target, targetSlot, fingerprint);
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
