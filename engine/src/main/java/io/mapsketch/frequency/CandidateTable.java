package io.mapsketch.frequency;

import io.mapsketch.internal.KeyHasher;
import io.mapsketch.internal.Regions;
import io.mapsketch.memory.AtomicSegment;
import io.mapsketch.memory.RegionLock;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongUnaryOperator;

/**
 * The k candidates of a Top-K sketch over its {@link CandidateSlots}: which keys get in, and the
 * lock-free list of the heaviest.
 *
 * <p>Writers change the table only under its {@link RegionLock}; the sketch's counters never wait for
 * it. An add takes the lock only when its key's estimate beats the threshold (the smallest cached
 * estimate once the table is full) and the key is not already a candidate, which both are read
 * without the lock. Cached estimates are lazy: a candidate's is refreshed from the sketch only when it
 * reaches the heap's root, and before it is evicted. A holder that dies is detected by the next writer
 * ({@link RegionLock}), which rebuilds the table from the slots that still hold a key whose hash
 * matches. One instance serves every thread of its process at once and keeps no per-thread state.
 *
 * <p>Readers take no lock: {@link #top} copies the slots and keeps those whose bytes hash to their
 * hash, so a slot being rewritten at that moment is left out of that one answer, never returned torn.
 */
final class CandidateTable extends CandidateSlots {

    private final LongUnaryOperator estimator;
    private final RegionLock lock;
    private final CandidateHeap heap = new CandidateHeap(this);

    /**
     * Views the table at {@code base} of the payload.
     *
     * @param words the sketch's payload
     * @param base where the table starts in it, a multiple of 64
     * @param estimator the sketch's current estimate of the key of a hash
     */
    CandidateTable(
            AtomicSegment words, long base, int k, int maxKeyBytes, KeyHasher hasher, LongUnaryOperator estimator) {
        super(words, base, k, maxKeyBytes, hasher);
        this.estimator = estimator;
        this.lock = new RegionLock(words, base + LOCK);
    }

    // ---------------------------------------------------------------- writers

    /**
     * Considers a {@code long} key (stored as its eight little-endian bytes) that now has this estimate.
     * Cost: a load of the threshold and, above it, an index probe; the lock only for a key that gets in.
     */
    void consider(long hash, long estimate, long key) {
        if (estimate <= threshold() || contains(hash)) {
            return;
        }
        admit(hash, estimate, key);
    }

    /** Considers a key of bytes that now has this estimate; costs as the {@code long} form. */
    void consider(long hash, long estimate, MemorySegment key, long offset, long length) {
        if (estimate <= threshold() || contains(hash)) {
            return;
        }
        admit(hash, estimate, key, offset, length);
    }

    /**
     * As {@link #consider(long, long, MemorySegment, long, long)}, and returns the candidate the key took
     * the place of in a full table, with its estimate then, or {@code null} if it took none (it did not get
     * in, was a candidate already, or took a free slot). Same cost; a displaced key is read under the lock.
     */
    HeavyHitter considerExpelling(long hash, long estimate, MemorySegment key, long offset, long length) {
        if (estimate <= threshold() || contains(hash)) {
            return null;
        }
        lockAndRepair();
        try {
            int size = size();
            int slot = claimSlot(hash, estimate);
            HeavyHitter expelled = null;
            if (slot >= 0) {
                if (slot < size) {
                    byte[] old = keyIfIntact(slot, slotHash(slot));
                    expelled = old == null ? null : new HeavyHitter(old, cached(slot));
                }
                writeSlot(slot, hash, estimate, key, offset, length);
                place(slot, hash);
            }
            publishThreshold();
            return expelled;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Refreshes every candidate's cached estimate, then offers each key of {@code others} with its
     * estimate in this sketch: the re-ranking after a merge.
     */
    void rerank(List<HeavyHitter> others) {
        lockAndRepair();
        try {
            int size = size();
            for (int i = 0; i < size; i++) {
                int slot = heap.entry(i);
                putCached(slot, estimator.applyAsLong(slotHash(slot)));
            }
            heap.heapify(size);
            for (HeavyHitter other : others) {
                MemorySegment key = MemorySegment.ofArray(other.keyBytes());
                long hash = hasher.hash(key, 0, key.byteSize());
                admitLocked(hash, estimator.applyAsLong(hash), key, 0, key.byteSize());
            }
            publishThreshold();
        } finally {
            lock.unlock();
        }
    }

    private void admit(long hash, long estimate, long key) {
        lockAndRepair();
        try {
            int slot = claimSlot(hash, estimate);
            if (slot >= 0) {
                writeSlot(slot, hash, estimate, key);
                place(slot, hash);
            }
            publishThreshold();
        } finally {
            lock.unlock();
        }
    }

    private void admit(long hash, long estimate, MemorySegment key, long offset, long length) {
        lockAndRepair();
        try {
            admitLocked(hash, estimate, key, offset, length);
            publishThreshold();
        } finally {
            lock.unlock();
        }
    }

    private void admitLocked(long hash, long estimate, MemorySegment key, long offset, long length) {
        int slot = claimSlot(hash, estimate);
        if (slot >= 0) {
            writeSlot(slot, hash, estimate, key, offset, length);
            place(slot, hash);
        }
    }

    /**
     * The slot a key of this hash and estimate is to be written to, or -1 if it is a candidate already or
     * does not beat the smallest: the next free slot while the table is not full; else, after refreshing
     * the cached estimate at the root until the root's is current (at most k refreshes), the root's slot,
     * whose key is taken out of the index.
     */
    private int claimSlot(long hash, long estimate) {
        if (find(hash) >= 0) {
            return -1;
        }
        int size = size();
        if (size < k) {
            return size;
        }
        for (int refreshed = 0; refreshed < k; refreshed++) {
            int root = heap.entry(0);
            long fresh = estimator.applyAsLong(slotHash(root));
            if (fresh <= cached(root)) {
                break;
            }
            putCached(root, fresh);
            heap.siftDown(0, size);
        }
        int root = heap.entry(0);
        if (estimate <= cached(root)) {
            return -1;
        }
        indexRemove(slotHash(root));
        return root;
    }

    /** Indexes and ranks the key just written to a slot {@link #claimSlot} returned, and counts it if new. */
    private void place(int slot, long hash) {
        indexInsert(hash, slot);
        int size = size();
        if (slot == size) {
            heap.put(size, size);
            heap.siftUp(size);
            words.putIntRelease(sizeOffset, size + 1);
        } else {
            heap.siftDown(0, size);
        }
    }

    private void lockAndRepair() {
        if (Regions.lock(lock)) {
            rebuild();
        }
    }

    /**
     * After a holder died mid-update: keeps the slots whose key still hashes to their hash (once
     * each), packs them to the front, clears the rest, and rebuilds estimates, heap and index.
     */
    private void rebuild() {
        Set<Long> seen = new HashSet<>();
        int valid = 0;
        for (int slot = 0; slot < k; slot++) {
            if (holdsValidKey(slot) && seen.add(slotHash(slot))) {
                if (slot != valid) {
                    copySlot(slot, valid);
                }
                valid++;
            }
        }
        clearSlotsFromAndIndex(valid);
        for (int slot = 0; slot < valid; slot++) {
            putCached(slot, estimator.applyAsLong(slotHash(slot)));
            heap.put(slot, slot);
            indexInsert(slotHash(slot), slot);
        }
        heap.heapify(valid);
        words.putIntRelease(sizeOffset, valid);
        words.putLong(recoveriesOffset, words.getLong(recoveriesOffset) + 1);
        publishThreshold();
    }

    private void publishThreshold() {
        long threshold = size() == k ? cached(heap.entry(0)) : 0;
        words.putLongRelease(thresholdOffset, threshold);
    }

    // ---------------------------------------------------------------- readers

    /**
     * Describes the first structural fault of a table read from a file (a size, heap entry or index
     * entry outside its range), or returns {@code null} if there is none. Slot contents are not
     * judged here: a slot whose key does not hash to its hash is skipped by readers and dropped by
     * the next repair.
     */
    String structuralFault() {
        int size = size();
        if (size < 0 || size > k) {
            return "Top-K candidate count is " + size + ", expected a value in [0, " + k + "]";
        }
        for (int position = 0; position < size; position++) {
            int slot = heap.entry(position);
            if (slot < 0 || slot >= k) {
                return "Top-K heap entry " + position + " is " + slot + ", expected a slot in [0, " + k + ")";
            }
        }
        return indexFault();
    }

    /** The smallest cached estimate once the table is full (an add at or below it cannot get in); 0 before. */
    long threshold() {
        return words.getLongAcquire(thresholdOffset);
    }

    /** Whether a key of this hash is a candidate, read without the lock (a race may answer either way). */
    boolean contains(long hash) {
        return find(hash) >= 0;
    }

    /** How many times a writer found the lock held by a dead process and rebuilt the table. */
    long recoveries() {
        return words.getLongAcquire(recoveriesOffset);
    }

    /**
     * The candidates with their current estimates, largest first, ties by key; at most {@code n}.
     * Lock-free: slots whose bytes do not hash to their hash (being rewritten) are left out. Cost:
     * {@code O(k log k)}, hashing each candidate's key.
     */
    List<HeavyHitter> top(int n) {
        int size = Math.min(Math.max(words.getIntAcquire(sizeOffset), 0), k);
        List<HeavyHitter> found = new ArrayList<>(size);
        Set<Long> seen = new HashSet<>();
        for (int slot = 0; slot < size; slot++) {
            long hash = publishedHash(slot);
            byte[] key = keyIfIntact(slot, hash);
            if (key != null && seen.add(hash)) {
                found.add(new HeavyHitter(key, estimator.applyAsLong(hash)));
            }
        }
        found.sort(HeavyHitter::byRank);
        return found.size() > n ? List.copyOf(found.subList(0, n)) : List.copyOf(found);
    }
}
