package io.mapsketch.frequency;

import io.mapsketch.internal.KeyHasher;
import io.mapsketch.memory.AtomicSegment;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The memory of a Top-K candidate table, in the mapped region after the sketch's counters, and the
 * keys stored in it. Layout (offsets from the table's start, drawn in {@code docs/file-format.md}): a
 * 64-byte control line (the {@link io.mapsketch.memory.RegionLock} word, the admission threshold, the
 * size, the number of recoveries), an open-addressing index from key hash to slot, a min-heap of slots
 * by cached estimate ({@link CandidateHeap}), then k slots of
 * {@code [hash, cached estimate, key length, key bytes]}.
 *
 * <p>A slot holds a key exactly when its bytes (at most {@code maxKeyBytes}) hash to its hash: readers
 * without the lock check that, so a slot rewritten under them is skipped, never returned torn. The index
 * maps a hash to {@code slot + 1} (0 empty) by linear probing without tombstones; a lookup without the
 * lock is bounded even over a corrupt index and may miss a key being moved (a race answers either way).
 * Slots and index are written only under the table's lock (by {@link CandidateTable}).
 */
abstract sealed class CandidateSlots permits CandidateTable {

    private static final int LINE = 64;
    static final long LOCK = 0;
    private static final long THRESHOLD = 8;
    private static final long SIZE = 16;
    private static final long RECOVERIES = 24;

    private static final long SLOT_HASH = 0;
    private static final long SLOT_CACHED = 8;
    private static final long SLOT_LENGTH = 16;
    private static final long SLOT_KEY = 24;

    private static final ValueLayout.OfLong LONG_KEY =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    final AtomicSegment words;
    final int k;
    final KeyHasher hasher;
    final long heapBase;
    final long thresholdOffset;
    final long sizeOffset;
    final long recoveriesOffset;
    private final MemorySegment bytes;
    private final int maxKeyBytes;
    private final int indexMask;
    private final long indexBase;
    private final long slotBase;
    private final long slotBytes;

    /**
     * Views the table at {@code base} of the payload.
     *
     * @param words the sketch's payload
     * @param base where the table starts in it, a multiple of 64
     */
    CandidateSlots(AtomicSegment words, long base, int k, int maxKeyBytes, KeyHasher hasher) {
        this.words = words;
        this.bytes = words.segment();
        this.k = k;
        this.maxKeyBytes = maxKeyBytes;
        this.hasher = hasher;
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
        long total = LINE
                + align8((long) indexSlots(k) * Integer.BYTES)
                + align8((long) k * Integer.BYTES)
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

    // ---------------------------------------------------------------- slots

    /** Byte offset of a slot in the payload; the file format's layout, also used by tests that tear slots. */
    long slot(int slot) {
        return slotBase + slot * slotBytes;
    }

    long slotHash(int slot) {
        return words.getLong(slot(slot) + SLOT_HASH);
    }

    long cached(int slot) {
        return words.getLong(slot(slot) + SLOT_CACHED);
    }

    void putCached(int slot, long estimate) {
        words.putLong(slot(slot) + SLOT_CACHED, estimate);
    }

    /** Slots in use, read by the writer. */
    int size() {
        return words.getInt(sizeOffset);
    }

    /** Fills a slot with a key of bytes; under the lock. */
    void writeSlot(int slot, long hash, long estimate, MemorySegment key, long offset, long length) {
        MemorySegment.copy(key, offset, bytes, writeSlotHeader(slot, hash, estimate, length) + SLOT_KEY, length);
    }

    /**
     * Fills a slot with a {@code long} key, its eight little-endian bytes, stored straight into the slot
     * (no scratch buffer, so any number of threads may admit keys through one table); under the lock.
     */
    void writeSlot(int slot, long hash, long estimate, long key) {
        bytes.set(LONG_KEY, writeSlotHeader(slot, hash, estimate, Long.BYTES) + SLOT_KEY, key);
    }

    private long writeSlotHeader(int slot, long hash, long estimate, long length) {
        long at = slot(slot);
        words.putLong(at + SLOT_HASH, hash);
        words.putLong(at + SLOT_CACHED, estimate);
        words.putInt(at + SLOT_LENGTH, (int) length);
        return at;
    }

    /** Whether a slot's key hashes to its hash, as the writer reads it. */
    boolean holdsValidKey(int slot) {
        long at = slot(slot);
        int length = words.getInt(at + SLOT_LENGTH);
        return length >= 0 && length <= maxKeyBytes && hasher.hash(bytes, at + SLOT_KEY, length) == slotHash(slot);
    }

    /** The hash of a slot, for a reader without the lock: an acquire load before the slot's other fields. */
    long publishedHash(int slot) {
        return words.getLongAcquire(slot(slot) + SLOT_HASH);
    }

    /**
     * A copy of a slot's key, for a reader without the lock that read {@code hash} by
     * {@link #publishedHash}; {@code null} if the bytes do not hash to it (the slot is being rewritten).
     */
    byte[] keyIfIntact(int slot, long hash) {
        long at = slot(slot);
        int length = words.getInt(at + SLOT_LENGTH);
        if (length < 0 || length > maxKeyBytes) {
            return null;
        }
        byte[] key = bytes.asSlice(at + SLOT_KEY, length).toArray(ValueLayout.JAVA_BYTE);
        return hasher.hash(key, 0, length) == hash ? key : null;
    }

    /** Copies slot {@code from} over slot {@code to}; under the lock. */
    void copySlot(int from, int to) {
        MemorySegment.copy(bytes, slot(from), bytes, slot(to), slotBytes);
    }

    /** Zeroes the slots from {@code first} on, and the whole index; under the lock, before a rebuild. */
    void clearSlotsFromAndIndex(int first) {
        bytes.asSlice(slot(first), (k - first) * slotBytes).fill((byte) 0);
        bytes.asSlice(indexBase, (long) (indexMask + 1) * Integer.BYTES).fill((byte) 0);
    }

    // ---------------------------------------------------------------- index: hash -> slot + 1, 0 empty

    private int home(long hash) {
        return (int) (hash * 0x9E37_79B9_7F4A_7C15L >>> 32) & indexMask;
    }

    private long indexEntry(int position) {
        return indexBase + (long) position * Integer.BYTES;
    }

    /** The slot holding this hash, or -1, read without the lock; bounded even over a corrupt index. */
    int find(long hash) {
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

    /** Indexes a slot under its hash; under the lock. */
    void indexInsert(long hash, int slot) {
        int position = home(hash);
        while (words.getInt(indexEntry(position)) != 0) {
            position = (position + 1) & indexMask;
        }
        words.putIntRelease(indexEntry(position), slot + 1);
    }

    /** Removes the entry of this hash and shifts later entries of its probe run back (no tombstones); under the lock. */
    void indexRemove(long hash) {
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

    /** The first index entry outside [0, k] of a table read from a file, described, or {@code null}. */
    String indexFault() {
        for (int position = 0; position <= indexMask; position++) {
            int entry = words.getInt(indexEntry(position));
            if (entry < 0 || entry > k) {
                return "Top-K index entry " + position + " is " + entry + ", expected a value in [0, " + k + "]";
            }
        }
        return null;
    }
}
