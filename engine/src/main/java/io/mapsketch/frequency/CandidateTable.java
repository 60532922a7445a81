package io.mapsketch.frequency;

import io.mapsketch.internal.KeyHasher;
import io.mapsketch.internal.Regions;
import io.mapsketch.memory.AtomicSegment;
import io.mapsketch.memory.RegionLock;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongUnaryOperator;

/**
 * The k candidates of a Top-K sketch, in the mapped region after its counters, so that any process
 * can list them. Layout (offsets from the table's start, drawn in {@code docs/file-format.md}):
 * a 64-byte control line (the {@link RegionLock} word, the admission threshold, the size, the
 * number of recoveries), an open-addressing index from key hash to slot, a min-heap of slots by
 * cached estimate, then k slots of {@code [hash, cached estimate, key length, key bytes]}.
 *
 * <p>Writers change the table only under the lock; the sketch's counters never wait for it. An add
 * takes the lock only when its key's estimate beats the threshold (the smallest cached estimate once
 * the table is full) and the key is not already a candidate, which both are read without the lock.
 * Cached estimates are lazy: a candidate's is refreshed from the sketch only when it reaches the
 * heap's root, and before it is evicted. A holder that dies is detected by the next writer
 * ({@link RegionLock}), which rebuilds the table from the slots that still hold a key whose hash
 * matches. Readers take no lock: they copy the slots and keep those whose hash matches their bytes,
 * so a slot being rewritten at that moment is left out of that one answer, never returned torn.
 */
final class CandidateTable {

    private static final int LINE = 64;
    private static final long LOCK = 0;
    private static final long THRESHOLD = 8;
    private static final long SIZE = 16;
    private static final long RECOVERIES = 24;

    private static final long SLOT_HASH = 0;
    private static final long SLOT_CACHED = 8;
    private static final long SLOT_LENGTH = 16;
    private static final long SLOT_KEY = 24;

    private static final ValueLayout.OfLong LONG_KEY = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ThreadLocal<MemorySegment> LONG_SCRATCH =
            ThreadLocal.withInitial(() -> MemorySegment.ofArray(new byte[Long.BYTES]));

    private final AtomicSegment words;
    private final MemorySegment bytes;
    private final int k;
    private final int maxKeyBytes;
    private final KeyHasher hasher;
    private final LongUnaryOperator estimator;
    private final RegionLock lock;
    private final int indexMask;
    private final long indexBase;
    private final long heapBase;
    private final long slotBase;
    private final long slotBytes;
    private final long thresholdOffset;
    private final long sizeOffset;
    private final long recoveriesOffset;

    /**
     * Views the table at {@code base} of the payload.
     *
     * @param words the sketch's payload
     * @param base where the table starts in it, a multiple of 64
     * @param estimator the sketch's current estimate of the key of a hash
     */
    CandidateTable(AtomicSegment words, long base, int k, int maxKeyBytes, KeyHasher hasher,
            LongUnaryOperator estimator) {
        this.words = words;
        this.bytes = words.segment();
        this.k = k;
        this.maxKeyBytes = maxKeyBytes;
        this.hasher = hasher;
        this.estimator = estimator;
        this.lock = new RegionLock(words, base + LOCK);
        int indexSlots = indexSlots(k);
        this.indexMask = indexSlots - 1;
        this.indexBase = base + LINE;
        this.heapBase = indexBase + align8((long) indexSlots * Integer.BYTES);
        this.slotBase = heapBase + align8((long) k * Integer.BYTES);
        this.slotBytes = slotBytes(maxKeyBytes);
        this.thresholdOffset = base + THRESHOLD;
        this.sizeOffset = base + SIZE;
        this.recoveriesOffset = base + RECOVERIES;
    }

    /** Bytes of a table of k candidates of at most {@code maxKeyBytes}, a multiple of 64. */
    static long bytes(int k, int maxKeyBytes) {
        long total = LINE + align8((long) indexSlots(k) * Integer.BYTES) + align8((long) k * Integer.BYTES)
                + (long) k * slotBytes(maxKeyBytes);
        return Math.ceilDiv(total, LINE) * LINE;
    }

    /** At least twice k, a power of two: probe sequences stay short and never fill the index. */
    private static int indexSlots(int k) {
        return Integer.highestOneBit(2 * k - 1) << 1;
    }

    private static long slotBytes(int maxKeyBytes) {
        return SLOT_KEY + align8(maxKeyBytes);
    }

    private static long align8(long value) {
        return (value + 7) & ~7L;
    }

    // ---------------------------------------------------------------- writers

    /** Considers a {@code long} key (its eight little-endian bytes) that now has this estimate. */
    void consider(long hash, long estimate, long key) {
        if (estimate <= threshold() || contains(hash)) {
            return;
        }
        MemorySegment keyBytes = LONG_SCRATCH.get();
        keyBytes.set(LONG_KEY, 0, key);
        admit(hash, estimate, keyBytes, 0, Long.BYTES);
    }

    /** Considers a key of bytes that now has this estimate. */
    void consider(long hash, long estimate, MemorySegment key, long offset, long length) {
        if (estimate <= threshold() || contains(hash)) {
            return;
        }
        admit(hash, estimate, key, offset, length);
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
                int slot = heap(i);
                words.putLong(slot(slot) + SLOT_CACHED, estimator.applyAsLong(slotHash(slot)));
            }
            heapify(size);
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
        if (find(hash) >= 0) {
            return;
        }
        int size = size();
        if (size < k) {
            writeSlot(size, hash, estimate, key, offset, length);
            indexInsert(hash, size);
            putHeap(size, size);
            siftUp(size);
            words.putIntRelease(sizeOffset, size + 1);
            return;
        }
        for (int refreshed = 0; refreshed < k; refreshed++) {
            int root = heap(0);
            long fresh = estimator.applyAsLong(slotHash(root));
            if (fresh <= cached(root)) {
                break;
            }
            words.putLong(slot(root) + SLOT_CACHED, fresh);
            siftDown(0, size);
        }
        int root = heap(0);
        if (estimate > cached(root)) {
            indexRemove(slotHash(root));
            writeSlot(root, hash, estimate, key, offset, length);
            indexInsert(hash, root);
            siftDown(0, size);
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
                    MemorySegment.copy(bytes, slot(slot), bytes, slot(valid), slotBytes);
                }
                valid++;
            }
        }
        bytes.asSlice(slot(valid), (k - valid) * slotBytes).fill((byte) 0);
        bytes.asSlice(indexBase, (long) (indexMask + 1) * Integer.BYTES).fill((byte) 0);
        for (int slot = 0; slot < valid; slot++) {
            words.putLong(slot(slot) + SLOT_CACHED, estimator.applyAsLong(slotHash(slot)));
            putHeap(slot, slot);
            indexInsert(slotHash(slot), slot);
        }
        heapify(valid);
        words.putIntRelease(sizeOffset, valid);
        words.putLong(recoveriesOffset, words.getLong(recoveriesOffset) + 1);
        publishThreshold();
    }

    private void writeSlot(int slot, long hash, long estimate, MemorySegment key, long offset, long length) {
        long at = slot(slot);
        words.putLong(at + SLOT_HASH, hash);
        words.putLong(at + SLOT_CACHED, estimate);
        words.putInt(at + SLOT_LENGTH, (int) length);
        MemorySegment.copy(key, offset, bytes, at + SLOT_KEY, length);
    }

    private void publishThreshold() {
        long threshold = size() == k ? cached(heap(0)) : 0;
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
            int slot = heap(position);
            if (slot < 0 || slot >= k) {
                return "Top-K heap entry " + position + " is " + slot + ", expected a slot in [0, " + k + ")";
            }
        }
        for (int position = 0; position <= indexMask; position++) {
            int entry = words.getInt(indexEntry(position));
            if (entry < 0 || entry > k) {
                return "Top-K index entry " + position + " is " + entry + ", expected a value in [0, " + k + "]";
            }
        }
        return null;
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
     * Lock-free: slots whose bytes do not hash to their hash (being rewritten) are left out.
     */
    List<HeavyHitter> top(int n) {
        int size = Math.min(Math.max(words.getIntAcquire(sizeOffset), 0), k);
        List<HeavyHitter> found = new ArrayList<>(size);
        Set<Long> seen = new HashSet<>();
        for (int slot = 0; slot < size; slot++) {
            long at = slot(slot);
            long hash = words.getLongAcquire(at + SLOT_HASH);
            int length = words.getInt(at + SLOT_LENGTH);
            if (length < 0 || length > maxKeyBytes) {
                continue;
            }
            byte[] key = bytes.asSlice(at + SLOT_KEY, length).toArray(ValueLayout.JAVA_BYTE);
            if (hasher.hash(key, 0, length) == hash && seen.add(hash)) {
                found.add(new HeavyHitter(key, estimator.applyAsLong(hash)));
            }
        }
        found.sort(HeavyHitter::byRank);
        return found.size() > n ? List.copyOf(found.subList(0, n)) : List.copyOf(found);
    }

    private boolean holdsValidKey(int slot) {
        long at = slot(slot);
        int length = words.getInt(at + SLOT_LENGTH);
        return length >= 0 && length <= maxKeyBytes && hasher.hash(bytes, at + SLOT_KEY, length) == slotHash(slot);
    }

    // ---------------------------------------------------------------- index: hash -> slot + 1, 0 empty

    private int home(long hash) {
        return (int) (hash * 0x9E37_79B9_7F4A_7C15L >>> 32) & indexMask;
    }

    private long indexEntry(int position) {
        return indexBase + (long) position * Integer.BYTES;
    }

    /** The slot holding this hash, or -1; bounded even over a corrupt index. */
    private int find(long hash) {
        int position = home(hash);
        for (int probes = 0; probes <= indexMask; probes++) {
            int entry = words.getIntAcquire(indexEntry(position));
            if (entry == 0) {
                return -1;
            }
            int slot = entry - 1;
            if (slot < k && slotHash(slot) == hash) {
                return slot;
            }
            position = (position + 1) & indexMask;
        }
        return -1;
    }

    private void indexInsert(long hash, int slot) {
        int position = home(hash);
        while (words.getInt(indexEntry(position)) != 0) {
            position = (position + 1) & indexMask;
        }
        words.putIntRelease(indexEntry(position), slot + 1);
    }

    /** Removes the entry of this hash and shifts later entries of its probe run back (no tombstones). */
    private void indexRemove(long hash) {
        int hole = home(hash);
        while (true) {
            int entry = words.getInt(indexEntry(hole));
            if (entry == 0) {
                return;
            }
            if (slotHash(entry - 1) == hash) {
                break;
            }
            hole = (hole + 1) & indexMask;
        }
        int position = hole;
        while (true) {
            position = (position + 1) & indexMask;
            int entry = words.getInt(indexEntry(position));
            if (entry == 0) {
                break;
            }
            int entryHome = home(slotHash(entry - 1));
            boolean staysAfterHole = hole <= position
                    ? hole < entryHome && entryHome <= position
                    : hole < entryHome || entryHome <= position;
            if (!staysAfterHole) {
                words.putIntRelease(indexEntry(hole), entry);
                hole = position;
            }
        }
        words.putIntRelease(indexEntry(hole), 0);
    }

    // ---------------------------------------------------------------- heap of slots by cached estimate

    private int heap(int position) {
        return words.getInt(heapBase + (long) position * Integer.BYTES);
    }

    private void putHeap(int position, int slot) {
        words.putInt(heapBase + (long) position * Integer.BYTES, slot);
    }

    private void siftUp(int position) {
        int slot = heap(position);
        long value = cached(slot);
        while (position > 0) {
            int parent = (position - 1) >>> 1;
            int parentSlot = heap(parent);
            if (cached(parentSlot) <= value) {
                break;
            }
            putHeap(position, parentSlot);
            position = parent;
        }
        putHeap(position, slot);
    }

    private void siftDown(int position, int size) {
        int slot = heap(position);
        long value = cached(slot);
        while (true) {
            int child = 2 * position + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && cached(heap(child + 1)) < cached(heap(child))) {
                child++;
            }
            int childSlot = heap(child);
            if (value <= cached(childSlot)) {
                break;
            }
            putHeap(position, childSlot);
            position = child;
        }
        putHeap(position, slot);
    }

    private void heapify(int size) {
        for (int position = size / 2 - 1; position >= 0; position--) {
            siftDown(position, size);
        }
    }

    // ---------------------------------------------------------------- slots

    /** Byte offset of a slot in the payload; the file format's layout, also used by tests that tear slots. */
    long slot(int slot) {
        return slotBase + slot * slotBytes;
    }

    private long slotHash(int slot) {
        return words.getLong(slot(slot) + SLOT_HASH);
    }

    private long cached(int slot) {
        return words.getLong(slot(slot) + SLOT_CACHED);
    }

    private int size() {
        return words.getInt(sizeOffset);
    }
}
