package io.mapsketch.cardinality;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.Mergeable;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import io.mapsketch.TableFullException;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.internal.KeyHasher;
import io.mapsketch.internal.OwnedScratch;
import io.mapsketch.internal.Utf8;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Arrays;
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
public final class HyperLogLogTable extends HyperLogLogTableReads implements Mergeable<HyperLogLogTable> {

    private final OwnedScratch<KeyHasher.Utf8Buffer> keyBuffers = new OwnedScratch<>(KeyHasher.Utf8Buffer::new);

    private HyperLogLogTable(SketchRegion region, HyperLogLogTableFormat format) {
        super(region, format);
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
        requireWritable();
        requireMergeable(other);
        other.index.forEach(source -> {
            MemorySegment key = other.index.key(source);
            registers.merge(index.findOrInsert(key, 0, key.byteSize()), other.registers, source);
        });
        countItems(other.itemsAdded());
    }

    /** The precision, hash scheme and seed, as {@link #merge} takes them. */
    @Override
    public void requireMergeable(HyperLogLogTable other) {
        requireCompatible(Objects.requireNonNull(other, "other"), HyperLogLogTableFormat.SHAPE);
    }

    /** A maximum of registers per key: merging the same table again changes nothing. */
    @Override
    public boolean mergeIsIdempotent() {
        return true;
    }

    @Override
    public String toString() {
        return "HyperLogLogTable[" + describe() + ", precision " + precision + ", capacity " + capacity() + "]";
    }
}
