package io.mapsketch.cardinality;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.Mergeable;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import io.mapsketch.TableFullException;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.internal.KeyHasher;
import io.mapsketch.internal.KeyIndex;
import io.mapsketch.internal.OwnedScratch;
import io.mapsketch.internal.RegionSketch;
import io.mapsketch.internal.TableHeap;
import io.mapsketch.internal.Utf8;
import io.mapsketch.memory.AtomicSegment;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A HyperLogLog table: one {@link HyperLogLog} of precision p per key ("unique visitors per page per
 * day"), for up to N keys in one mapped file, shared by writers in any number of processes as any
 * sketch file is. A key's sketch answers exactly as one {@link HyperLogLog} of the table's precision and
 * seed would for the same items: the same registers, the same estimate, the same error
 * ({@link #relativeStandardError()}, both ways). Keys are bytes or strings (their UTF-8 bytes), items
 * {@linkplain io.mapsketch##keys any key form}; the same bytes are the same key or item in any form.
 *
 * <p>Storage: small keys' registers are sparse (a list of register values, 4 bytes each) and turn dense
 * (2^p bytes) past 2^p / 8 registers; a table is sized at creation and refuses a new key beyond its
 * capacity, or any add once its heap is used up, with {@link TableFullException}. The layout and the
 * protocols are in {@code docs/design/tables.md}.
 *
 * <p>Concurrency: a lookup of a key takes no lock; any number of {@code SHARED} writers in any number of
 * processes may add at once, new keys included, and leave every key with one sketch holding every item.
 *
 * <p>Cost: an add hashes the key and the item, finds the key (about 1.5 slot reads and a key compare)
 * and raises a register: for a sparse key a walk of its entries, for a dense one as
 * {@link HyperLogLog#add(long)}. An estimate reads a sparse key's entries, or gathers and summarises a
 * dense key's 2^p registers.
 */
// The mechanics every sketch shares sit in the unexported package; their public methods are this type's.
@SuppressWarnings("exports")
public final class HyperLogLogTable extends RegionSketch implements Mergeable<HyperLogLogTable> {

    private final HyperLogLogTableFormat format;
    private final int precision;
    private final TableHeap heap;
    private final KeyIndex index;
    private final TableRegisters registers;
    private final OwnedScratch<KeyHasher.Utf8Buffer> keyBuffers = new OwnedScratch<>(KeyHasher.Utf8Buffer::new);

    private HyperLogLogTable(SketchRegion region, HyperLogLogTableFormat format) {
        super(region);
        this.format = format;
        this.precision = format.precision();
        MemorySegment bytes = payload.segment();
        AtomicSegment line = new AtomicSegment(bytes.asSlice(0, HyperLogLogTableFormat.LINE_BYTES));
        AtomicSegment slots =
                new AtomicSegment(bytes.asSlice(HyperLogLogTableFormat.LINE_BYTES, format.slots() * Long.BYTES));
        this.heap = new TableHeap(
                line, new AtomicSegment(bytes.asSlice(format.heapOffset(), format.heapBytes())), describe());
        this.index = new KeyIndex(line, slots, format.capacity(), heap, TableRegisters.VALUE_BYTES, hasher, describe());
        this.registers = new TableRegisters(heap, precision, sharedWriters);
    }

    /**
     * Starts a builder; the precision and the capacity are required.
     *
     * @return a new builder
     */
    public static HyperLogLogTableBuilder builder() {
        return new HyperLogLogTableBuilder();
    }

    /**
     * Opens a HyperLogLog table file; its shape comes from its header. Cost: one walk of the key index and
     * of every key's registers, which checks them.
     *
     * @param file the table file
     * @param mode read-only, shared writer or exclusive writer
     * @return the open table
     * @throws CorruptSketchFileException if a parameter is out of range, the payload is not the size they
     *     imply, or the index or a key's registers could be misread ({@code docs/design/tables.md})
     * @throws io.mapsketch.SketchFileException if the file is not a valid HyperLogLog table, or it is locked
     *     against this mode
     * @throws IOException if the file cannot be read
     */
    public static HyperLogLogTable open(Path file, OpenMode mode) throws IOException {
        return open(file, mode, SketchKind.HYPERLOGLOG_TABLE, HyperLogLogTable::read);
    }

    static HyperLogLogTable read(SketchRegion region) throws IOException {
        HyperLogLogTable table = new HyperLogLogTable(region, HyperLogLogTableFormat.read(HeaderReader.of(region)));
        table.validate();
        return table;
    }

    private void validate() throws CorruptSketchFileException {
        Path file = region.file().orElse(null);
        index.validate(file);
        byte[] seen = new byte[1 << precision];
        List<Long> records = new ArrayList<>();
        index.forEach(records::add);
        for (long record : records) {
            registers.validate(record, seen, file, "at heap offset " + record);
        }
    }

    @Override
    protected HyperLogLogTableFormat format() {
        return format;
    }

    /**
     * Adds an item to a key's HyperLogLog, inserting the key if it is new.
     *
     * @param key the array holding the key's bytes, at most 65,535 of them
     * @param keyOffset the key's first byte
     * @param keyLength the key's byte count
     * @param item the array holding the item's bytes
     * @param itemOffset the item's first byte
     * @param itemLength the item's byte count
     * @return {@code true} if a register of the key grew
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
     * @return {@code true} if a register of the key grew
     */
    public boolean add(byte[] key, int keyOffset, int keyLength, long item) {
        return addHash(MemorySegment.ofArray(key), keyOffset, keyLength, hasher.hash(item));
    }

    /**
     * Adds a string item (its UTF-8 bytes) to a string key; as {@link #add(byte[], int, int, byte[], int, int)}.
     *
     * @param key the key, as its UTF-8 bytes
     * @param item the item, as its UTF-8 bytes
     * @return {@code true} if a register of the key grew
     */
    public boolean add(CharSequence key, CharSequence item) {
        return addToKey(key, hasher.hash(item));
    }

    /**
     * Adds a {@code long} item to a string key; as {@link #add(byte[], int, int, byte[], int, int)}.
     *
     * @param key the key, as its UTF-8 bytes
     * @param item the item
     * @return {@code true} if a register of the key grew
     */
    public boolean add(CharSequence key, long item) {
        return addToKey(key, hasher.hash(item));
    }

    private boolean addToKey(CharSequence key, long hash) {
        OwnedScratch.Lease<KeyHasher.Utf8Buffer> buffer = keyBuffers.borrow();
        try {
            byte[] bytes = buffer.piece().forChars(key.length());
            return addHash(MemorySegment.ofArray(bytes), 0, Utf8.encode(key, bytes), hash);
        } finally {
            keyBuffers.giveBack(buffer);
        }
    }

    private boolean addHash(MemorySegment key, long offset, long length, long hash) {
        requireWritable();
        boolean changed = registers.add(index.findOrInsert(key, offset, length), hash);
        countItems(1);
        return changed;
    }

    /**
     * Adds {@code count} (key, item) pairs, pair {@code i} being the key {@code data[keyOffsets[i],
     * keyOffsets[i] + keyLengths[i])} and the item {@code data[itemOffsets[i], itemOffsets[i] +
     * itemLengths[i])}, as {@link #add(byte[], int, int, byte[], int, int)} one by one; a run of pairs of
     * one key finds it once. If a pair is refused, the pairs before it stay added and counted. Cost: the
     * items are hashed {@value KeyHasher#BATCH} at a time, then added pair by pair.
     *
     * @param data the bytes of the keys and the items
     * @param keyOffsets where each pair's key starts
     * @param keyLengths each pair's key's byte count
     * @param itemOffsets where each pair's item starts
     * @param itemLengths each pair's item's byte count
     * @param count how many pairs, at most the length of every array
     * @return {@code true} if a register of any key grew
     * @throws IndexOutOfBoundsException if {@code count} exceeds an array (nothing is added) or a range lies
     *     outside {@code data} (the pairs before it are added)
     * @throws TableFullException if a new key finds no room (the pairs before it are added)
     * @throws IllegalStateException if the table is read-only or closed
     */
    public boolean addAll(
            byte[] data, int[] keyOffsets, int[] keyLengths, int[] itemOffsets, int[] itemLengths, int count) {
        requireWritable();
        Objects.checkFromIndexSize(0, count, keyOffsets.length);
        Objects.checkFromIndexSize(0, count, keyLengths.length);
        MemorySegment bytes = MemorySegment.ofArray(data);
        int[] done = {0};
        boolean[] changed = {false};
        try {
            hasher.forEachBatch(data, itemOffsets, itemLengths, count, (hashes, first, n) -> {
                long record = -1;
                for (int i = 0; i < n; i++) {
                    int pair = (int) first + i;
                    if (record < 0 || !sameKey(data, keyOffsets, keyLengths, pair)) {
                        record = index.findOrInsert(bytes, keyOffsets[pair], keyLengths[pair]);
                    }
                    changed[0] |= registers.add(record, hashes[i]);
                    done[0]++;
                }
            });
        } finally {
            countItems(done[0]);
        }
        return changed[0];
    }

    private static boolean sameKey(byte[] data, int[] offsets, int[] lengths, int pair) {
        return pair > 0
                && Arrays.equals(
                        data,
                        offsets[pair],
                        offsets[pair] + lengths[pair],
                        data,
                        offsets[pair - 1],
                        offsets[pair - 1] + lengths[pair - 1]);
    }

    /**
     * Estimates the distinct items added to a key: {@link HyperLogLog#estimate()} of the key's registers.
     *
     * @param key the key's UTF-8 bytes are looked up
     * @return the estimate, 0 for a key not in the table
     * @throws IllegalStateException if the table is closed
     */
    public double estimate(CharSequence key) {
        return estimateUnion(List.of(key));
    }

    /**
     * Estimates the distinct items added to a key of bytes; as {@link #estimate(CharSequence)}.
     *
     * @param key the array holding the key's bytes
     * @param offset the key's first byte
     * @param length the key's byte count
     * @return the estimate, 0 for a key not in the table
     */
    public double estimate(byte[] key, int offset, int length) {
        long record = index.find(MemorySegment.ofArray(key), offset, length);
        return record < 0 ? 0 : registers.estimate(record, describe());
    }

    /**
     * Estimates the distinct items added to any of several keys (as {@code PFCOUNT} of several keys): the
     * estimate of the register-wise maximum of their registers. Keys not in the table add nothing.
     * Cost: for one sparse key its entries; else a heap scratch of 2^p bytes, each key gathered into it.
     *
     * @param keys the keys, as their UTF-8 bytes
     * @return the estimate of the union
     * @throws IllegalStateException if the table is closed
     */
    public double estimateUnion(List<? extends CharSequence> keys) {
        List<byte[]> bytes = keys.stream().map(Utf8::bytes).toList();
        return estimateUnionOfBytes(bytes);
    }

    /**
     * Estimates the union of keys of bytes; as {@link #estimateUnion(List)}.
     *
     * @param keys each key's bytes
     * @return the estimate of the union
     */
    public double estimateUnionOfBytes(List<byte[]> keys) {
        if (keys.size() == 1) {
            return estimate(keys.getFirst(), 0, keys.getFirst().length);
        }
        MemorySegment union = MemorySegment.ofArray(new byte[1 << precision]);
        for (byte[] key : keys) {
            long record = index.find(MemorySegment.ofArray(key), 0, key.length);
            if (record >= 0) {
                registers.gather(record, union);
            }
        }
        return registers.estimate(HyperLogLogEstimates.summary(union, precision, registers.top()), describe());
    }

    /**
     * Tells whether a key is in the table (an item was added to it, or a merge brought it).
     *
     * @param key the key, as its UTF-8 bytes
     * @return {@code true} if it is
     */
    public boolean contains(CharSequence key) {
        byte[] bytes = Utf8.bytes(key);
        return index.find(MemorySegment.ofArray(bytes), 0, bytes.length) >= 0;
    }

    /**
     * Returns a key's 2^p registers, as a {@link HyperLogLog} of the table's precision and seed holds them
     * for the same items.
     *
     * @param key the key, as its UTF-8 bytes
     * @return a new array, all zero for a key not in the table
     */
    public byte[] registers(CharSequence key) {
        byte[] bytes = Utf8.bytes(key);
        long record = index.find(MemorySegment.ofArray(bytes), 0, bytes.length);
        return record < 0 ? new byte[1 << precision] : registers.registers(record);
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
     * Counts the keys, and those of them with a dense block. Cost: a walk of the index.
     *
     * @return the counts
     */
    public KeyCounts keyCounts() {
        long[] counts = new long[2];
        index.forEach(record -> {
            counts[0]++;
            if (registers.isDense(record)) {
                counts[1]++;
            }
        });
        return new KeyCounts(counts[0], counts[0] - counts[1], counts[1]);
    }

    /**
     * How many keys a table holds and how they are stored.
     *
     * @param keys the keys
     * @param sparse the keys whose registers are sparse only
     * @param dense the keys with a dense block
     */
    public record KeyCounts(long keys, long sparse, long dense) {}

    /**
     * Merges another table into this one key by key: afterwards each key of either answers as the
     * {@link HyperLogLog} of the union of its items in both (register maximum), keys new here inserted.
     * Cost: a walk of the other's index; per key, its entries, or for a dense one a gather and the SIMD
     * register-max kernel.
     *
     * @param other a table of the same precision, hash scheme and seed; not modified
     * @throws IncompatibleSketchException naming the parameter that differs
     * @throws TableFullException if a new key finds no room (the keys before it are merged)
     * @throws IllegalStateException if this table is read-only or either is closed
     */
    @Override
    public void merge(HyperLogLogTable other) {
        Objects.requireNonNull(other, "other");
        requireWritable();
        requireCompatible(other, HyperLogLogTableFormat.SHAPE);
        other.index.forEach(source -> {
            MemorySegment key = other.index.key(source);
            registers.merge(index.findOrInsert(key, 0, key.byteSize()), other.registers, source);
        });
        countItems(other.itemsAdded());
    }

    /** A maximum of registers per key: merging the same table again changes nothing. */
    @Override
    public boolean mergeIsIdempotent() {
        return true;
    }

    /**
     * Returns the precision p of every key's HyperLogLog.
     *
     * @return p, in [4, 18]
     */
    public int precision() {
        return precision;
    }

    /**
     * Returns the most keys the table holds.
     *
     * @return N
     */
    public long capacity() {
        return format.capacity();
    }

    /**
     * Returns the heap's size: the bytes the keys and their registers are stored in.
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

    /**
     * Returns the relative standard error of every key's estimate, {@code 1.04 / sqrt(2^p)}.
     *
     * @return the relative standard error
     */
    public double relativeStandardError() {
        return HyperLogLogSizing.relativeStandardError(precision);
    }

    /** Precision, capacity, keys (sparse and dense), the heap and the error. */
    @Override
    protected void putFigures(Map<String, Object> figures) {
        KeyCounts counts = keyCounts();
        figures.put("precision", precision);
        figures.put("key capacity", capacity());
        figures.put("keys", counts.keys());
        figures.put("sparse keys", counts.sparse());
        figures.put("dense keys", counts.dense());
        super.putFigures(figures);
        figures.put("heap bytes", heapBytes());
        figures.put("heap bytes used", heapBytesUsed());
        figures.put("relative standard error", relativeStandardError());
    }

    @Override
    public String toString() {
        return "HyperLogLogTable[" + describe() + ", precision " + precision + ", capacity " + capacity() + "]";
    }
}
