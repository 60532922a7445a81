package io.mapsketch.engine;

import io.mapsketch.memory.AtomicSegment;

/**
 * The buckets of a cuckoo filter in its payload, and the moves that make room in them. Layout
 * (drawn in {@code docs/file-format.md}): a 64-byte control line (the lock word, the move counter,
 * the recoveries count), then the slots: bucket i is slots {@code 4i .. 4i + 3}, and slot s is bits
 * {@code f (s mod P)} to {@code f (s mod P) + f - 1} of the little-endian 64-bit word {@code s / P},
 * with {@code P = floor(64 / f)} fingerprints per word (8, 5 or 4). No fingerprint straddles two
 * words, so every fingerprint is read and written by one aligned 64-bit access and never seen torn.
 *
 * <p>Writers (one at a time: under the filter's lock, or the exclusive writer) publish each word with
 * a release store. A move of a fingerprint to its other bucket writes the new copy first, then
 * increments the move counter, then overwrites the old slot, so that a fingerprint is in at least one
 * of its buckets at every instant, and twice for a moment. Readers take no lock: a lookup that finds
 * nothing re-reads the move counter and looks again if a move happened meanwhile (a fingerprint may
 * have left the bucket read second for the bucket read first), so an acknowledged key is never
 * missed.
 */
final class CuckooTable {

    static final int BUCKET_SIZE = SketchSizing.CUCKOO_BUCKET_SIZE;
    /** Buckets the path search explores before an insert gives up. */
    static final int MAX_KICKS = 500;
    static final long CONTROL_BYTES = 64;
    /** Offset of the {@link io.mapsketch.memory.RegionLock} word. */
    static final long LOCK = 0;
    private static final long MOVES = 8;
    private static final long RECOVERIES = 16;
    private static final long GOLDEN = 0x9E37_79B9_7F4A_7C15L;
    /** Lookups that raced moves this many times answer "might contain", which is never a false negative. */
    private static final int LOOKUP_ATTEMPTS = 8;

    private final AtomicSegment words;
    private final long buckets;
    private final int bits;
    private final long fingerprintMask;
    private final long fingerprintValues;
    private final int indexShift;
    private final int perWord;
    private final long[] pathBucket = new long[MAX_KICKS];
    private final int[] pathParent = new int[MAX_KICKS];
    private final int[] pathSlot = new int[MAX_KICKS];

    /**
     * Views the table of a payload.
     *
     * @param buckets a power of two in [2, 2^32]
     * @param bits fingerprint width: 8, 12 or 16
     */
    CuckooTable(AtomicSegment words, long buckets, int bits) {
        this.words = words;
        this.buckets = buckets;
        this.bits = bits;
        this.fingerprintMask = (1L << bits) - 1;
        this.fingerprintValues = fingerprintMask;
        this.indexShift = Long.numberOfLeadingZeros(buckets) + 1;
        this.perWord = Long.SIZE / bits;
    }

    /** Payload bytes of a table: the control line, then the slots' words rounded up to 64-byte lines. */
    static long payloadBytes(long buckets, int bits) {
        long words = Math.ceilDiv(buckets * BUCKET_SIZE, Long.SIZE / bits);
        return CONTROL_BYTES + Math.ceilDiv(words, 8) * 64;
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

    private long wordOf(long slot) {
        return bits == 12 ? slot / 5 : slot >>> (bits == 8 ? 3 : 2);
    }

    private long offsetOf(long word) {
        return CONTROL_BYTES + word * Long.BYTES;
    }

    /** The fingerprint in slot {@code slot} (0..3) of a bucket; 0 if empty. Writers' read: plain. */
    int read(long bucket, int slot) {
        long s = bucket * BUCKET_SIZE + slot;
        long word = wordOf(s);
        return (int) (words.getLong(offsetOf(word)) >>> (s - word * perWord) * bits & fingerprintMask);
    }

    /** Stores a fingerprint (0 to empty the slot) with a release store of its word; writers only. */
    void write(long bucket, int slot, int fingerprint) {
        long s = bucket * BUCKET_SIZE + slot;
        long word = wordOf(s);
        long offset = offsetOf(word);
        int shift = (int) (s - word * perWord) * bits;
        long value = words.getLong(offset) & ~(fingerprintMask << shift) | (long) fingerprint << shift;
        words.putLongRelease(offset, value);
    }

    /** The first slot of a bucket holding {@code fingerprint} (0 for an empty slot), or -1. Writers only. */
    int find(long bucket, int fingerprint) {
        for (int slot = 0; slot < BUCKET_SIZE; slot++) {
            if (read(bucket, slot) == fingerprint) {
                return slot;
            }
        }
        return -1;
    }

    /** Copies of a fingerprint in a bucket. Writers only. */
    int count(long bucket, int fingerprint) {
        int copies = 0;
        for (int slot = 0; slot < BUCKET_SIZE; slot++) {
            copies += read(bucket, slot) == fingerprint ? 1 : 0;
        }
        return copies;
    }

    /** Whether a bucket holds the fingerprint, read lock-free: each word with one acquire load. */
    private boolean holds(long bucket, int fingerprint) {
        long s = bucket * BUCKET_SIZE;
        long word = wordOf(s);
        int index = (int) (s - word * perWord);
        long value = words.getLongAcquire(offsetOf(word));
        for (int slot = 0; slot < BUCKET_SIZE; slot++, index++) {
            if (index == perWord) {
                index = 0;
                value = words.getLongAcquire(offsetOf(++word));
            }
            if ((value >>> index * bits & fingerprintMask) == fingerprint) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- readers

    /**
     * Whether either bucket holds the fingerprint, lock-free. A negative answer stands only if no move
     * happened while the buckets were read; after {@value #LOOKUP_ATTEMPTS} raced attempts the answer
     * is {@code true}, a possible false positive and never a false negative.
     */
    boolean contains(long first, long second, int fingerprint) {
        for (int attempt = 0; attempt < LOOKUP_ATTEMPTS; attempt++) {
            long moves = words.getLongAcquire(MOVES);
            if (holds(first, fingerprint) || holds(second, fingerprint)) {
                return true;
            }
            if (words.getLongAcquire(MOVES) == moves) {
                return false;
            }
        }
        return true;
    }

    /** Occupied slots, by a pass over every word. */
    long occupied() {
        long occupied = 0;
        long slots = buckets * BUCKET_SIZE;
        for (long word = 0; word * perWord < slots; word++) {
            long value = words.getLongAcquire(offsetOf(word));
            for (int i = 0; i < perWord; i++) {
                occupied += (value >>> i * bits & fingerprintMask) != 0 ? 1 : 0;
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
            for (int slot = 0; slot < BUCKET_SIZE; slot++) {
                if (nodes == MAX_KICKS) {
                    return false;
                }
                long next = alternate(bucket, read(bucket, slot));
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
