package io.mapsketch.internal;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.IncompatibleSketchFileException;
import io.mapsketch.SketchFileException;
import io.mapsketch.TableFullException;
import io.mapsketch.memory.AtomicSegment;
import io.mapsketch.memory.LiveCounters;
import io.mapsketch.memory.SketchRegion;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * What every kind of sketch table shares (one sketch per key in one file): the views of its payload (the
 * table line, the {@link KeyIndex} and the {@link TableHeap}), the adds of (key, item) pairs in every key
 * form and in batches, the lookups of keys, the key walk of a merge, the checks of the index on open and
 * the figures of the keys and the heap. A kind implements the add of one item's hash to a key's record
 * and what its sketches answer. Keys are bytes or strings (their UTF-8 bytes), items
 * {@linkplain io.mapsketch##keys any key form}.
 *
 * <p>Concurrency: a lookup of a key takes no lock; any number of {@code SHARED} writers in any number of
 * processes may add at once, new keys included ({@code docs/design/tables.md}).
 */
public abstract class KeyTable extends RegionSketch {

    /** The table line: reserved keys, the heap's cursor and what a kind keeps after them. */
    protected final AtomicSegment line;
    /** The heap of the key records. */
    protected final TableHeap heap;
    /** The key index. */
    protected final KeyIndex index;

    private final long capacity;
    private final OwnedScratch<KeyHasher.Utf8Buffer> keyBuffers = new OwnedScratch<>(KeyHasher.Utf8Buffer::new);

    /**
     * Views the payload's table line, index and heap.
     *
     * @param region the table's region
     * @param table its key capacity and heap size
     * @param valueBytes the bytes of a record's value area, a multiple of 8
     */
    // describe() reads only the region, which RegionSketch's constructor has set.
    @SuppressWarnings("this-escape")
    protected KeyTable(SketchRegion region, TableParameters table, int valueBytes) {
        super(region);
        this.capacity = table.capacity();
        MemorySegment bytes = payload.segment();
        this.line = new AtomicSegment(bytes.asSlice(0, TableParameters.LINE_BYTES));
        AtomicSegment slots = new AtomicSegment(bytes.asSlice(TableParameters.LINE_BYTES, table.slots() * Long.BYTES));
        this.heap = new TableHeap(
                line, new AtomicSegment(bytes.asSlice(table.heapOffset(), table.heapBytes())), describe());
        this.index = new KeyIndex(line, slots, capacity, heap, valueBytes, hasher, describe());
    }

    /**
     * Adds the item of a hash to the sketch of the key of {@code record}. Callers check writability and
     * count items.
     *
     * @return {@code true} if the key's sketch changed
     * @throws TableFullException if the sketch needs room the table has not
     */
    protected abstract boolean addToRecord(long record, long hash);

    /**
     * Adds an item to a key's sketch, inserting the key if it is new.
     *
     * @param key the array holding the key's bytes, at most 65,535 of them
     * @param keyOffset the key's first byte
     * @param keyLength the key's byte count
     * @param item the array holding the item's bytes
     * @param itemOffset the item's first byte
     * @param itemLength the item's byte count
     * @return {@code true} if the key's sketch changed (a register grew, a bit was set)
     * @throws TableFullException if the key is new and the table holds its capacity, or the heap is full
     * @throws IllegalArgumentException if the key is longer than 65,535 bytes
     * @throws IllegalStateException if the table is read-only or closed
     */
    public boolean add(byte[] key, int keyOffset, int keyLength, byte[] item, int itemOffset, int itemLength) {
        return addHash(MemorySegment.ofArray(key), keyOffset, keyLength, hasher.hash(item, itemOffset, itemLength));
    }

    /**
     * Adds a {@code long} item to a key of bytes; as {@link #add(byte[], int, int, byte[], int, int)}.
     *
     * @param key the array holding the key's bytes
     * @param keyOffset the key's first byte
     * @param keyLength the key's byte count
     * @param item the item
     * @return {@code true} if the key's sketch changed
     */
    public boolean add(byte[] key, int keyOffset, int keyLength, long item) {
        return addHash(MemorySegment.ofArray(key), keyOffset, keyLength, hasher.hash(item));
    }

    /**
     * Adds a string item (its UTF-8 bytes) to a string key; as {@link #add(byte[], int, int, byte[], int, int)}.
     *
     * @param key the key, as its UTF-8 bytes
     * @param item the item, as its UTF-8 bytes
     * @return {@code true} if the key's sketch changed
     */
    public boolean add(CharSequence key, CharSequence item) {
        return addToKey(key, hasher.hash(item));
    }

    /**
     * Adds a {@code long} item to a string key; as {@link #add(byte[], int, int, byte[], int, int)}.
     *
     * @param key the key, as its UTF-8 bytes
     * @param item the item
     * @return {@code true} if the key's sketch changed
     */
    public boolean add(CharSequence key, long item) {
        return addToKey(key, hasher.hash(item));
    }

    private boolean addToKey(CharSequence key, long hash) {
        requireWritable();
        boolean changed = addToRecord(findOrInsert(key), hash);
        countItems(1);
        return changed;
    }

    private boolean addHash(MemorySegment key, long offset, long length, long hash) {
        requireWritable();
        boolean changed = addToRecord(index.findOrInsert(key, offset, length), hash);
        countItems(1);
        return changed;
    }

    /**
     * Finds a string key's record, inserting the key if it is new; its UTF-8 bytes encoded in this thread's
     * scratch. The caller checks writability.
     *
     * @param key the key, at most 65,535 bytes
     * @return the record's heap offset
     * @throws TableFullException if the key is new and the table holds its capacity, or the heap is full
     */
    protected final long findOrInsert(CharSequence key) {
        OwnedScratch.Lease<KeyHasher.Utf8Buffer> buffer = keyBuffers.borrow();
        try {
            byte[] bytes = buffer.piece().forChars(key.length());
            return index.findOrInsert(MemorySegment.ofArray(bytes), 0, Utf8.encode(key, bytes));
        } finally {
            keyBuffers.giveBack(buffer);
        }
    }

    /**
     * Finds a key of bytes' record, inserting the key if it is new; as {@link #findOrInsert(CharSequence)}.
     *
     * @param key the array holding the key's bytes
     * @param offset the key's first byte
     * @param length the key's byte count
     * @return the record's heap offset
     */
    protected final long findOrInsert(byte[] key, int offset, int length) {
        return index.findOrInsert(MemorySegment.ofArray(key), offset, length);
    }

    /**
     * Adds {@code count} (key, item) pairs, pair {@code i} being the key {@code data[keyOffsets[i],
     * keyOffsets[i] + keyLengths[i])} and the item {@code data[itemOffsets[i], itemOffsets[i] +
     * itemLengths[i])}, as {@link #add(byte[], int, int, byte[], int, int)} one by one.
     * If a pair is refused, the pairs before it stay added and counted. Cost: the items are hashed
     * {@value KeyHasher#BATCH} at a time, the keys found 32 at a time with their cache misses
     * overlapped, then the pairs added one by one.
     *
     * @param data the bytes of the keys and the items
     * @param keyOffsets where each pair's key starts
     * @param keyLengths each pair's key's byte count
     * @param itemOffsets where each pair's item starts
     * @param itemLengths each pair's item's byte count
     * @param count how many pairs, at most the length of every array
     * @return {@code true} if the sketch of any key changed
     * @throws IndexOutOfBoundsException if {@code count} exceeds an array (nothing is added) or a range lies
     *     outside {@code data} (the pairs before it are added)
     * @throws TableFullException if a new key finds no room (the pairs before it are added, and
     *     {@link TableFullException#pairsAdded} says how many)
     * @throws IllegalStateException if the table is read-only or closed
     */
    public boolean addAll(
            byte[] data, int[] keyOffsets, int[] keyLengths, int[] itemOffsets, int[] itemLengths, int count) {
        requireWritable();
        int[] done = {0};
        boolean[] changed = {false};
        try {
            forEachPair(data, keyOffsets, keyLengths, itemOffsets, itemLengths, count, true, (pair, record, hash) -> {
                changed[0] |= addToRecord(record, hash);
                done[0]++;
            });
        } catch (TableFullException full) {
            throw new TableFullException(full, done[0]);
        } finally {
            countItems(done[0]);
        }
        return changed[0];
    }

    /** One (key, item) pair of a batch, its key found. */
    @FunctionalInterface
    protected interface PairStep {
        /**
         * Takes one pair.
         *
         * @param pair the pair's index in the batch
         * @param record its key's record, or -1 for a key not in the table (when not inserting)
         * @param hash its item's hash
         */
        void take(int pair, long record, long hash);
    }

    /**
     * Hands {@code count} (key, item) pairs of a batch to {@code step} in order, as {@link #addAll} lays them
     * out: the items hashed {@value KeyHasher#BATCH} at a time, the keys found 32 at a time
     * ({@link KeyIndex#findAll}, their cache misses overlapped), each key not found inserted if {@code insert}.
     *
     * @throws IndexOutOfBoundsException if {@code count} exceeds an array (before any step) or a range lies
     *     outside {@code data} (the pairs before it are taken)
     * @throws TableFullException if inserting and a new key finds no room (the pairs before it are taken)
     */
    protected final void forEachPair(
            byte[] data,
            int[] keyOffsets,
            int[] keyLengths,
            int[] itemOffsets,
            int[] itemLengths,
            int count,
            boolean insert,
            PairStep step) {
        KeyPairs.walk(index, hasher, data, keyOffsets, keyLengths, itemOffsets, itemLengths, count, insert, step);
    }

    /**
     * Finds a string key's record, its UTF-8 bytes encoded in this thread's scratch.
     *
     * @param key the key
     * @return the record's heap offset, or -1 if the key is not in the table
     */
    protected final long find(CharSequence key) {
        OwnedScratch.Lease<KeyHasher.Utf8Buffer> buffer = keyBuffers.borrow();
        try {
            byte[] bytes = buffer.piece().forChars(key.length());
            return index.find(MemorySegment.ofArray(bytes), 0, Utf8.encode(key, bytes));
        } finally {
            keyBuffers.giveBack(buffer);
        }
    }

    /**
     * Finds a key of bytes' record.
     *
     * @param key the array holding the key's bytes
     * @param offset the key's first byte
     * @param length the key's byte count
     * @return the record's heap offset, or -1 if the key is not in the table
     */
    protected final long find(byte[] key, int offset, int length) {
        return index.find(MemorySegment.ofArray(key), offset, length);
    }

    /**
     * Tells whether a key is in the table (an item was added to it, or a merge brought it).
     *
     * @param key the key, as its UTF-8 bytes
     * @return {@code true} if it is
     * @throws IllegalStateException if the table is closed
     */
    public boolean contains(CharSequence key) {
        return find(key) >= 0;
    }

    /**
     * Tells whether a key of bytes is in the table; as {@link #contains(CharSequence)}.
     *
     * @param key the array holding the key's bytes
     * @param offset the key's first byte
     * @param length the key's byte count
     * @return {@code true} if it is
     */
    public boolean contains(byte[] key, int offset, int length) {
        return find(key, offset, length) >= 0;
    }

    /**
     * Returns every key's bytes, in the index's order (not sorted). Cost: a walk of the index.
     *
     * @return new arrays, one per key
     */
    public List<byte[]> keys() {
        List<byte[]> keys = new ArrayList<>();
        index.forEach(record -> keys.add(index.key(record).toArray(ValueLayout.JAVA_BYTE)));
        return keys;
    }

    /**
     * Counts the keys. Cost: a walk of the index.
     *
     * @return the keys in the table, at most {@link #capacity()}
     */
    public long keyCount() {
        long[] keys = {0};
        index.forEach(record -> keys[0]++);
        return keys[0];
    }

    /**
     * Returns the most keys the table holds.
     *
     * @return N
     */
    public long capacity() {
        return capacity;
    }

    /**
     * Returns the heap's size: the bytes the keys' records are stored in.
     *
     * @return H
     */
    public long heapBytes() {
        return heap.size();
    }

    /**
     * Returns the heap's bytes in use.
     *
     * @return bytes, at most {@link #heapBytes()}
     */
    public long heapBytesUsed() {
        return heap.used();
    }

    /** Merges the sketches of one key in several tables into its record in this one. */
    @FunctionalInterface
    protected interface RecordsMerge {
        /**
         * Merges one key's sketches.
         *
         * @param record the key's record here, found or inserted
         * @param sourceRecords its record in each source table, in the order of the sources, or -1 where a
         *     source has not the key
         */
        void merge(long record, long[] sourceRecords);
    }

    /**
     * Walks the union of the keys of several tables, finds or inserts each key here once and hands it, with
     * its records in every source, to {@code merge}, then counts the sources' items (as they were before the walk). A key is taken when the
     * walk first meets it, in the first source that holds it, and looked up in the sources after that one;
     * so each key's sketch here is written once, whatever the number of sources, and every key a source held
     * when the walk began is merged from it. All tables hash keys alike: the caller checks their hash scheme
     * and seed, their shape and this table's writability.
     *
     * <p>Cost: per key of the sources, its hash, a lookup here and one in each source after the first that
     * holds it, made 32 keys at a time so that their cache misses overlap; with two
     * sources or more, 16 to 32 bytes of this process's heap per key merged.
     *
     * @throws TableFullException if a new key finds no room (the keys before it are merged; the items added
     *     count none of the sources')
     */
    protected final void mergeKeysOfAll(List<? extends KeyTable> sources, RecordsMerge merge) {
        long[] once = new long[sources.size()];
        Arrays.fill(once, 1);
        mergeKeysOfAll(sources, once, merge);
    }

    /**
     * As {@link #mergeKeysOfAll(List, RecordsMerge)}, each source's items counted {@code times[s]} times over,
     * as a weighted merge takes them (the caller checks the weights, each at least 1).
     *
     * @throws TableFullException as {@link #mergeKeysOfAll(List, RecordsMerge)}
     */
    protected final void mergeKeysOfAll(List<? extends KeyTable> sources, long[] times, RecordsMerge merge) {
        long items = 0;
        for (int s = 0; s < sources.size(); s++) {
            long taken = LiveCounters.times(sources.get(s).itemsAdded(), times[s]);
            items = taken > Long.MAX_VALUE - items ? Long.MAX_VALUE : items + taken;
        }
        KeyMerge.walk(
                index, hasher, sources.stream().map(source -> source.index).toList(), merge);
        countItems(items);
    }

    /**
     * Checks the index on open ({@link KeyIndex#validate}) and hands every key's record to {@code check}, for
     * the kind to check the storage of each; first refuses a hash scheme the kind cannot run, before a key
     * is hashed. Cost: one walk of the index, and a bitmap of 1/64 of the heap's bytes in use
     * ({@link HeapPieces}).
     *
     * @param check the kind's check of one key's storage
     * @param areas the maps of the kind's areas beside the heap that {@code check} marks
     * @throws CorruptSketchFileException naming the fault
     * @throws IncompatibleSketchFileException if the kind cannot run the header's hash scheme
     */
    protected final void validate(KeyIndex.RecordCheck check, HeapPieces... areas) throws SketchFileException {
        String refusal = format().schemeRefusal(region.header().hashScheme());
        if (refusal != null) {
            throw new IncompatibleSketchFileException(
                    file().orElse(null),
                    "header field 'hash scheme' is " + region.header().hashScheme() + ", which a " + kind()
                            + " cannot run: " + refusal);
        }
        index.validate(file().orElse(null), check, areas);
    }

    /** The key capacity, as {@code info} shows it first of the table's own figures. */
    protected final void putCapacity(Map<String, Object> figures) {
        figures.put("key capacity", capacity());
    }

    /** The heap's size and its bytes in use. */
    protected final void putHeap(Map<String, Object> figures) {
        figures.put("heap bytes", heapBytes());
        figures.put("heap bytes used", heapBytesUsed());
    }
}
