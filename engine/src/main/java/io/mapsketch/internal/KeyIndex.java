package io.mapsketch.internal;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.TableFullException;
import io.mapsketch.memory.AtomicSegment;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * The key index of a sketch table: open addressing with linear probing over S 64-bit slot words in the
 * mapped file, each holding the high 24 bits of its key's hash (a tag) and a reference to the key's
 * record in the {@link TableHeap}. A lookup takes no lock; an insert publishes a complete record with a
 * compare-and-set of the first empty slot, so that writers in any number of processes inserting at once
 * lose nothing and never give one key two slots. The protocol and its proof are in
 * {@code docs/design/tables.md}.
 *
 * <p>A record is {@code +0} the key's length (int32), {@code +4} zero, {@code +8} the table kind's
 * {@code valueBytes} (zero when the record is published, unless the kind fills them), then the key's
 * bytes, padded to 8.
 *
 * <p>Cost: a lookup hashes the key and reads, at the load of at most 3/4, about 1.5 slots and one
 * record; an insert adds a reservation, an allocation and a compare-and-set.
 */
public final class KeyIndex {

    /** The longest key, in bytes. */
    public static final int MAX_KEY_BYTES = 65_535;
    /** The reserved keys' offset in the table line. */
    static final long RESERVED = 0;
    /** Where a record's value area starts. */
    public static final long VALUE = 8;

    private static final int TAG_SHIFT = 40;
    private static final long CACHE_LINE = 64;
    private static final long REFERENCE_MASK = (1L << TAG_SHIFT) - 1;

    private final AtomicSegment line;
    private final AtomicSegment slots;
    private final long slotMask;
    private final long capacity;
    private final TableHeap heap;
    private final MemorySegment heapBytes;
    private final int valueBytes;
    private final KeyHasher hasher;
    private final String table;

    /**
     * Views the index.
     *
     * @param line the table line (word {@link #RESERVED}: keys reserved)
     * @param slots {@link #slotCount}(capacity) slot words
     * @param capacity N, the keys the table holds at most
     * @param heap the heap the records are in
     * @param valueBytes the bytes of a record's value area, a multiple of 8
     * @param hasher the table's hasher of keys
     * @param table what to call the table in a refusal
     */
    public KeyIndex(
            AtomicSegment line,
            AtomicSegment slots,
            long capacity,
            TableHeap heap,
            int valueBytes,
            KeyHasher hasher,
            String table) {
        this.line = line;
        this.slots = slots;
        this.slotMask = slots.byteSize() / Long.BYTES - 1;
        this.capacity = capacity;
        this.heap = heap;
        this.heapBytes = heap.bytes().segment();
        this.valueBytes = valueBytes;
        this.hasher = hasher;
        this.table = table;
    }

    /** The slots of a table of {@code capacity} keys: the smallest power of two at least 4N/3, at least 8. */
    public static long slotCount(long capacity) {
        long wanted = Math.max(8, Math.ceilDiv(capacity * 4, 3));
        return Long.highestOneBit(wanted - 1) << 1;
    }

    /** The keys reserved so far: the keys inserted, plus any whose insert lost a race or died in flight. */
    public long reserved() {
        return line.getLongAcquire(RESERVED);
    }

    /**
     * Finds a key's record.
     *
     * @return the record's heap offset, or -1 if the key is not in the table
     */
    public long find(MemorySegment key, long offset, long length) {
        return find(key, offset, length, hash(key, offset, length));
    }

    /** The hash this index places a key by; equal in every table of one hash scheme and seed. */
    public long hash(MemorySegment key, long offset, long length) {
        return hasher.hash(key, offset, length);
    }

    /**
     * Finds a key's record by its {@link #hash}, computed once for several tables of one scheme and seed.
     *
     * @return the record's heap offset, or -1 if the key is not in the table
     */
    public long find(MemorySegment key, long offset, long length, long hash) {
        long slot = findSlot(key, offset, length, hash);
        return slot < 0 ? -1 : recordAt(slot);
    }

    /** The slot of a key found by its {@link #hash}, or -1 if the key is not in the table. */
    private long findSlot(MemorySegment key, long offset, long length, long hash) {
        long tag = hash >>> TAG_SHIFT;
        for (long slot = hash & slotMask; ; slot = (slot + 1) & slotMask) {
            long word = slots.getLongAcquire(slot * Long.BYTES);
            if (word == 0) {
                return -1;
            }
            if (word >>> TAG_SHIFT == tag && sameKey(record(word), key, offset, length)) {
                return slot;
            }
        }
    }

    /** The record of a filled slot. */
    private long recordAt(long slot) {
        return record(slotWord(slot));
    }

    /**
     * Finds the records of a batch of keys: sets {@code batch.records[i]} as
     * {@link #find(MemorySegment, long, long, long)} of key i answers (-1: not in the table), and
     * {@code batch.slots[i]} to the key's slot (-1). The slots of every key are read first, then every line
     * of their records, then the keys compared, so that the cache misses of one key overlap those of the
     * others instead of following them.
     *
     * <p>Cost: as {@code batch.size} finds, with the misses of many keys in flight at once.
     */
    void findAll(KeyBatch batch) {
        long[] records = batch.records;
        long[] found = batch.slots;
        long[] stored = batch.stored;
        for (int i = 0; i < batch.size; i++) {
            long slot = taggedSlot(batch.hashes[i]);
            found[i] = slot;
            records[i] = slot < 0 ? -1 : recordAt(slot);
        }
        long touched = 0;
        for (int i = 0; i < batch.size; i++) {
            long record = records[i];
            if (record >= 0) {
                stored[i] = heapBytes.get(ValueLayout.JAVA_INT_UNALIGNED, record);
                touched ^= touchLines(record, batch.lengths[i]);
            } else {
                stored[i] = -1;
            }
        }
        batch.touched ^= touched;
        for (int i = 0; i < batch.size; i++) {
            long record = records[i];
            if (record >= 0
                    && (stored[i] != batch.lengths[i]
                            || !sameKey(record, batch.bytes, batch.offsets[i], batch.lengths[i]))) {
                found[i] = findSlot(batch.bytes, batch.offsets[i], batch.lengths[i], batch.hashes[i]);
                records[i] = found[i] < 0 ? -1 : recordAt(found[i]);
            }
        }
    }

    /** The first slot, from a hash's home slot on, whose word has the hash's tag; -1 if an empty slot comes first. */
    private long taggedSlot(long hash) {
        long tag = hash >>> TAG_SHIFT;
        for (long slot = hash & slotMask; ; slot = (slot + 1) & slotMask) {
            long word = slots.getLongAcquire(slot * Long.BYTES);
            if (word == 0) {
                return -1;
            }
            if (word >>> TAG_SHIFT == tag) {
                return slot;
            }
        }
    }

    /**
     * Finds a key's record, inserting the key with a zero value area if it is not in the table.
     *
     * @return the record's heap offset
     * @throws IllegalArgumentException if the key is longer than {@value #MAX_KEY_BYTES} bytes
     * @throws TableFullException if the key is new and the table holds N keys (after waiting up to 20 ms for a
     *     writer inserting this key at the same moment), or its heap has no room
     */
    public long findOrInsert(MemorySegment key, long offset, long length) {
        return findOrInsert(key, offset, length, hash(key, offset, length));
    }

    /**
     * Finds or inserts a key by its {@link #hash}; as {@link #findOrInsert(MemorySegment, long, long)}.
     *
     * @return the record's heap offset
     */
    public long findOrInsert(MemorySegment key, long offset, long length, long hash) {
        long found = find(key, offset, length, hash);
        if (found >= 0) {
            return found;
        }
        if (length > MAX_KEY_BYTES) {
            throw new IllegalArgumentException(
                    "key length = " + length + " bytes, must be at most " + MAX_KEY_BYTES + " in a table");
        }
        if (!reserve()) {
            long raced = awaitRacingInsert(key, offset, length, hash);
            if (raced >= 0) {
                return raced;
            }
        }
        long bytes = recordBytes(length);
        long record;
        try {
            record = heap.allocate(bytes, Long.BYTES);
        } catch (TableFullException full) {
            line.getAndAddLong(RESERVED, -1);
            throw full;
        }
        heapBytes.set(ValueLayout.JAVA_INT_UNALIGNED, record, (int) length);
        MemorySegment.copy(key, offset, heapBytes, record + VALUE + valueBytes, length);
        long word = (hash >>> TAG_SHIFT) << TAG_SHIFT | TableHeap.reference(record);
        long tag = hash >>> TAG_SHIFT;
        for (long slot = hash & slotMask; ; slot = (slot + 1) & slotMask) {
            long seen = slots.getLongAcquire(slot * Long.BYTES);
            if (seen == 0 && slots.compareAndSetLong(slot * Long.BYTES, 0, word)) {
                return record;
            }
            if (seen == 0) {
                seen = slots.getLongAcquire(slot * Long.BYTES);
            }
            long other = record(seen);
            if (seen >>> TAG_SHIFT == tag && sameKey(other, key, offset, length)) {
                heap.giveBack(record, bytes);
                line.getAndAddLong(RESERVED, -1);
                return other;
            }
        }
    }

    /** Takes one of the N keys' places; {@code false} if all N are taken. */
    private boolean reserve() {
        while (true) {
            long reserved = line.getLongAcquire(RESERVED);
            if (reserved >= capacity) {
                return false;
            }
            if (line.compareAndSetLong(RESERVED, reserved, reserved + 1)) {
                return true;
            }
        }
    }

    /**
     * At capacity, a place may be held only for a moment by a writer inserting this very key (it inserts the
     * key, or gives the place back when another inserted it first): for up to {@link RacingWriters#WAIT_NANOS}
     * ns, looks for the key and retries the reservation.
     *
     * @return the key's record if another writer inserted it, or -1 once a place is reserved
     * @throws TableFullException if neither happens in that time: the table holds N keys
     */
    private long awaitRacingInsert(MemorySegment key, long offset, long length, long hash) {
        long reserved = Long.MAX_VALUE; // no record's offset
        long answer = RacingWriters.await(
                () -> {
                    long found = find(key, offset, length, hash);
                    return found >= 0 ? found : reserve() ? reserved : -1;
                },
                () -> new TableFullException(table + " holds its capacity of " + capacity
                        + " keys; a new key is refused (create a table of a larger --capacity)"));
        return answer == reserved ? -1 : answer;
    }

    /** The bytes of a record with a key of {@code length} bytes. */
    public long recordBytes(long length) {
        return VALUE + valueBytes + ((length + Long.BYTES - 1) & -Long.BYTES);
    }

    private boolean sameKey(long record, MemorySegment key, long offset, long length) {
        long stored = heapBytes.get(ValueLayout.JAVA_INT_UNALIGNED, record);
        long start = record + VALUE + valueBytes;
        return stored == length
                && MemorySegment.mismatch(heapBytes, start, start + length, key, offset, offset + length) < 0;
    }

    /** The bytes of the key of a record, a slice of the heap (valid while the table is open). */
    public MemorySegment key(long record) {
        int length = heapBytes.get(ValueLayout.JAVA_INT_UNALIGNED, record);
        return heapBytes.asSlice(record + VALUE + valueBytes, length);
    }

    /**
     * Hands the keys to {@code step} in batches of up to {@link KeyBatch#SIZE}, in slot order: each key's
     * bytes in the heap, its hash by {@code hasher} (a table of the same scheme and seed hashes alike) and
     * its record here in {@code batch.records}. The keys of the slots in {@code passed} are passed over
     * unread.
     */
    void forEachBatch(KeyBatch batch, KeyHasher hasher, SlotSet passed, Consumer<KeyBatch> step) {
        batch.bytes = heapBytes;
        batch.size = 0;
        for (long slot = 0; slot <= slotMask; slot++) {
            long word = slots.getLongAcquire(slot * Long.BYTES);
            if (word != 0 && !passed.contains(slot)) {
                long record = record(word);
                batch.records[batch.size] = record;
                batch.offsets[batch.size] = record + VALUE + valueBytes;
                batch.lengths[batch.size] = heapBytes.get(ValueLayout.JAVA_INT_UNALIGNED, record);
                if (++batch.size == KeyBatch.SIZE) {
                    hashAndStep(batch, hasher, step);
                }
            }
        }
        if (batch.size > 0) {
            hashAndStep(batch, hasher, step);
        }
    }

    /** The slots of this index, for a {@link SlotSet} of them. */
    long slotCount() {
        return slotMask + 1;
    }

    private void hashAndStep(KeyBatch batch, KeyHasher hasher, Consumer<KeyBatch> step) {
        long touched = 0;
        for (int i = 0; i < batch.size; i++) {
            touched ^= touchLines(batch.records[i], batch.lengths[i]);
        }
        batch.touched ^= touched;
        for (int i = 0; i < batch.size; i++) {
            batch.hashes[i] = hasher.hash(batch.bytes, batch.offsets[i], batch.lengths[i]);
        }
        step.accept(batch);
        batch.size = 0;
    }

    /**
     * Reads one byte of each cache line of a record after its first, for a key of {@code length} bytes, and
     * returns them mixed: loads that depend on no loaded value, so that the misses of a batch's records are
     * in flight together before their value areas and keys are read.
     */
    private long touchLines(long record, long length) {
        long touched = 0;
        long end = record + recordBytes(length);
        for (long line = (record | (CACHE_LINE - 1)) + 1; line < end; line += CACHE_LINE) {
            touched += heapBytes.get(ValueLayout.JAVA_BYTE, line);
        }
        return touched;
    }

    /** Hands every key's record to {@code records}, in slot order. */
    public void forEach(LongConsumer records) {
        for (long slot = 0; slot <= slotMask; slot++) {
            long word = slots.getLongAcquire(slot * Long.BYTES);
            if (word != 0) {
                records.accept(record(word));
            }
        }
    }

    /** A table kind's check of the storage of one key, given its record. */
    @FunctionalInterface
    public interface RecordCheck {
        /**
         * Checks what the kind keeps outside the records, before the first record (again on the walk that
         * names an overlap's holders).
         *
         * @throws CorruptSketchFileException naming the fault
         */
        default void begin() throws CorruptSketchFileException {}

        /**
         * Checks one key's storage, marking its pieces of the heap beyond the record.
         *
         * @param record the key's record, in the heap
         * @param heap the heap's pieces found so far
         * @throws CorruptSketchFileException naming the fault
         */
        void check(long record, HeapPieces heap) throws CorruptSketchFileException;
    }

    /**
     * Refuses an index a lookup could misread ({@link KeyIndexCheck}) and hands each key's record, once its
     * slot is checked and its record marked, to {@code check}.
     *
     * @param file the table's file, for the refusal
     * @param check the kind's check of the key's storage
     * @param areas the maps of the kind's other areas that {@code check} marks
     * @throws CorruptSketchFileException naming the fault
     */
    public void validate(Path file, RecordCheck check, HeapPieces... areas) throws CorruptSketchFileException {
        new KeyIndexCheck(this, file).validate(check, areas);
    }

    /** N, the keys the table holds at most. */
    long capacity() {
        return capacity;
    }

    /** The heap the records are in. */
    TableHeap heap() {
        return heap;
    }

    /** The word of a slot: 0, or a tag and a record's reference. */
    long slotWord(long slot) {
        return slots.getLongAcquire(slot * Long.BYTES);
    }

    /** The tag a slot word keeps of its key's hash. */
    static long tag(long hashOrWord) {
        return hashOrWord >>> TAG_SHIFT;
    }

    /** The record a non-zero slot word refers to, or a negative offset for a zero reference. */
    static long record(long word) {
        return TableHeap.offset(word & REFERENCE_MASK);
    }
}
