package io.mapsketch.membership;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.Mergeable;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import io.mapsketch.TableFullException;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.internal.HeapPieces;
import io.mapsketch.internal.KeyPieceArea;
import io.mapsketch.internal.KeyTable;
import io.mapsketch.memory.AtomicSegment;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A Bloom table: one blocked Bloom filter per key ("has user 7 seen clip 42", Redis's
 * {@code BF.ADD seen:user7 clip42}), for up to N keys in one mapped file, shared by writers in any number
 * of processes as any sketch file is. Every key's filter is B 64-byte blocks sized, as a
 * {@link BlockedBloomFilter} of the same expected items and rate is, from the items expected per key and
 * the rate; it holds, bit for bit, what a standalone {@link BlockedBloomFilter} of that size and the
 * table's seed holds for the same items, and answers as it does. Keys are bytes or strings (their UTF-8
 * bytes), items {@linkplain io.mapsketch##keys any key form}.
 *
 * <p>Error direction: false positives only, per key: a key's rate is its filter's
 * ({@link #expectedFalsePositiveRate()} at the expected items, higher past them); a key never added
 * answers no for every item. A table is sized at creation and refuses a new key beyond its capacity,
 * or a key whose record finds no room in the heap, with {@link TableFullException}.
 *
 * <p>Concurrency: a lookup takes no lock; {@code SHARED} writers in any number of processes may add at
 * once, new keys included, with atomic ORs only where bits are missing ({@link BlockedBloomFilter}'s
 * shared add), and leave the bits sequential adds would.
 *
 * <p>Cost: an add or a lookup hashes the key and the item, finds the key (about 1.5 slot reads and a
 * key compare) and touches one 64-byte block of its filter; a key's first add also hands out its filter.
 * The layout and the protocols are in {@code docs/design/tables.md}.
 */
// The mechanics every sketch shares sit in the unexported package; their public methods are this type's.
@SuppressWarnings("exports")
public final class BloomTable extends KeyTable implements Mergeable<BloomTable> {

    private final BloomTableFormat format;
    private final TableFilters filters;

    private BloomTable(SketchRegion region, BloomTableFormat format) {
        super(region, format.table(), KeyPieceArea.VALUE_BYTES);
        this.format = format;
        AtomicSegment area =
                new AtomicSegment(payload.segment().asSlice(format.filterAreaOffset(), format.filterAreaBytes()));
        this.filters = new TableFilters(heap, line, area, format, sharedWriters, describe());
    }

    /**
     * Starts a builder; the capacity, the expected items per key and the rate are required.
     *
     * @return a new builder
     */
    public static BloomTableBuilder builder() {
        return new BloomTableBuilder();
    }

    /**
     * Opens a Bloom table file; its shape comes from its header. Cost: one walk of the key index, which
     * checks it and every key's filter word.
     *
     * @param file the table file
     * @param mode read-only, shared writer or exclusive writer
     * @return the open table
     * @throws CorruptSketchFileException if a parameter is out of range, the payload is not the size they
     *     imply, or the index or a key's filter word could be misread ({@code docs/design/tables.md})
     * @throws io.mapsketch.SketchFileException if the file is not a valid Bloom table, or it is locked
     *     against this mode
     * @throws IOException if the file cannot be read
     */
    public static BloomTable open(Path file, OpenMode mode) throws IOException {
        return open(file, mode, SketchKind.BLOOM_TABLE, BloomTable::read);
    }

    static BloomTable read(SketchRegion region) throws IOException {
        BloomTable table = new BloomTable(region, BloomTableFormat.read(HeaderReader.of(region)));
        Path file = region.file().orElse(null);
        KeyPieceArea area = table.filters.area();
        try (HeapPieces handedOut = area.validate(file)) {
            table.validate(area.check(handedOut, file), handedOut);
        }
        return table;
    }

    @Override
    protected BloomTableFormat format() {
        return format;
    }

    /** Sets the item's bits in the key's filter; whether a bit was missing. */
    @Override
    protected boolean addToRecord(long record, long hash) {
        return filters.add(record, hash);
    }

    /**
     * Tells whether an item may have been added to a key: {@code false} means it certainly was not (or the
     * key is not in the table); {@code true} is wrong with the key's filter's false-positive rate.
     *
     * @param key the key, as its UTF-8 bytes
     * @param item the item, as its UTF-8 bytes
     * @return whether every bit of the item is set in the key's filter
     * @throws IllegalStateException if the table is closed
     */
    public boolean mightContain(CharSequence key, CharSequence item) {
        long record = find(key);
        return record >= 0 && filters.mightContain(record, hasher.hash(item));
    }

    /**
     * Tells whether a {@code long} item may have been added to a string key; as
     * {@link #mightContain(CharSequence, CharSequence)}.
     *
     * @param key the key, as its UTF-8 bytes
     * @param item the item
     * @return whether every bit of the item is set in the key's filter
     */
    public boolean mightContain(CharSequence key, long item) {
        long record = find(key);
        return record >= 0 && filters.mightContain(record, hasher.hash(item));
    }

    /**
     * Tells whether an item of bytes may have been added to a key of bytes; as
     * {@link #mightContain(CharSequence, CharSequence)}.
     *
     * @param key the array holding the key's bytes
     * @param keyOffset the key's first byte
     * @param keyLength the key's byte count
     * @param item the array holding the item's bytes
     * @param itemOffset the item's first byte
     * @param itemLength the item's byte count
     * @return whether every bit of the item is set in the key's filter
     */
    public boolean mightContain(byte[] key, int keyOffset, int keyLength, byte[] item, int itemOffset, int itemLength) {
        long record = find(key, keyOffset, keyLength);
        return record >= 0 && filters.mightContain(record, hasher.hash(item, itemOffset, itemLength));
    }

    /**
     * Looks up {@code count} (key, item) pairs, laid out as {@link #addAll} takes them: {@code results[i]}
     * becomes {@link #mightContain(byte[], int, int, byte[], int, int)} of pair {@code i}. Cost: the items
     * are hashed {@value io.mapsketch.internal.KeyHasher#BATCH} at a time, each key found once per run of
     * pairs of one key, then one block read per pair.
     *
     * @param data the bytes of the keys and the items
     * @param keyOffsets where each pair's key starts
     * @param keyLengths each pair's key's byte count
     * @param itemOffsets where each pair's item starts
     * @param itemLengths each pair's item's byte count
     * @param count how many pairs, at most the length of every array
     * @param results receives one answer per pair, at least {@code count} long
     * @return the number of {@code true} answers
     * @throws IllegalArgumentException if {@code results} is shorter than {@code count} (nothing is read)
     * @throws IndexOutOfBoundsException if {@code count} exceeds an array, or a range lies outside {@code data}
     * @throws IllegalStateException if the table is closed
     */
    public int mightContainAll(
            byte[] data,
            int[] keyOffsets,
            int[] keyLengths,
            int[] itemOffsets,
            int[] itemLengths,
            int count,
            boolean[] results) {
        if (results.length < count) {
            throw new IllegalArgumentException("results.length = " + results.length + ", must be >= count = " + count);
        }
        int[] found = {0};
        forEachPair(data, keyOffsets, keyLengths, itemOffsets, itemLengths, count, false, (pair, record, hash) -> {
            results[pair] = record >= 0 && filters.mightContain(record, hash);
            found[0] += results[pair] ? 1 : 0;
        });
        return found[0];
    }

    /**
     * Returns a key's filter: its B blocks of eight 64-bit words, word {@code 8 b + w} being word w of
     * block b, as a {@link BlockedBloomFilter} of B blocks and the table's seed holds them for the same
     * items.
     *
     * @param key the key, as its UTF-8 bytes
     * @return a new array of 8 B words, all zero for a key not in the table
     */
    public long[] filterWords(CharSequence key) {
        long record = find(key);
        return record < 0 ? new long[(int) (format.filterBytes() / Long.BYTES)] : filters.words(record);
    }

    /**
     * Merges another table into this one key by key: afterwards each key of either answers for the union
     * of its items in both (bitwise OR of its filters), keys new here inserted, exactly as if every pair of
     * both had been added here. Cost: a walk of the other's index; per key with a filter, the SIMD OR of
     * its B blocks (atomic ORs of the words that gain bits for {@code SHARED} writers).
     *
     * @param other a table of the same blocks and bits per key, hash scheme and seed; not modified
     * @throws IncompatibleSketchException naming the parameter that differs
     * @throws TableFullException if a new key finds no room (the keys before it are merged; the items added
     *     count none of the other's)
     * @throws IllegalStateException if this table is read-only or either is closed
     */
    @Override
    public void merge(BloomTable other) {
        mergeAll(List.of(other));
    }

    /**
     * Merges several tables into this one together, key by key, leaving each key as {@link #merge} of each
     * in turn would (the OR of its filters here and in every source), each key's filter here found once.
     * Cost: per key of the sources, a lookup here and in each source after the first that holds it; per
     * source filter, the SIMD OR of its B blocks.
     *
     * @param others tables of the same blocks and bits per key, hash scheme and seed; not modified
     * @throws IncompatibleSketchException naming the parameter that differs; nothing is merged
     * @throws TableFullException if a new key finds no room (the keys before it are merged; the items added
     *     count none of the sources')
     * @throws IllegalStateException if this table is read-only or closed, or one of them is closed (before any is
     *     merged)
     */
    @Override
    public void mergeAll(List<? extends BloomTable> others) {
        requireWritable();
        List<? extends BloomTable> sources = List.copyOf(others);
        requireMergeableAll(sources);
        mergeKeysOfAll(sources, (record, sourceRecords) -> {
            for (int s = 0; s < sourceRecords.length; s++) {
                BloomTable source = sources.get(s);
                if (sourceRecords[s] >= 0) {
                    filters.or(record, source.filters, sourceRecords[s]);
                }
            }
        });
    }

    /** The filter blocks per key, bits per key, hash scheme and seed, as {@link #merge} takes them. */
    @Override
    public void requireMergeable(BloomTable other) {
        requireCompatible(Objects.requireNonNull(other, "other"), BloomTableFormat.SHAPE);
    }

    /** An OR of bits per key: merging the same table again changes nothing. */
    @Override
    public boolean mergeIsIdempotent() {
        return true;
    }

    /**
     * Returns the blocks of every key's filter.
     *
     * @return B
     */
    public long blocksPerKey() {
        return format.blocksPerKey();
    }

    /**
     * Returns the bits an item sets in its block: 8 (one per word) or 16 (two per word).
     *
     * @return 8 or 16
     */
    public int bitsPerKey() {
        return format.bitsPerKey();
    }

    /**
     * Returns the items per key every filter was sized for.
     *
     * @return n
     */
    public long expectedItemsPerKey() {
        return format.expectedItemsPerKey();
    }

    /**
     * Returns the false-positive rate asked for at {@link #expectedItemsPerKey()} items.
     *
     * @return p
     */
    public double falsePositiveRate() {
        return format.falsePositiveRate();
    }

    /**
     * Returns the false-positive rate of a key's filter holding the expected items per key, by the block-load
     * model of {@link BlockedBloomSizing#falsePositiveRate}: at most {@link #falsePositiveRate()}.
     *
     * @return the rate at n items
     */
    public double expectedFalsePositiveRate() {
        return BlockedBloomSizing.falsePositiveRate(format.blocksPerKey(), format.bitsPerKey(), expectedItemsPerKey());
    }

    /** Blocks and probes per key, the sizing, capacity, keys, the heap and the filter area. */
    @Override
    protected void putFigures(Map<String, Object> figures) {
        figures.put("blocks per key", blocksPerKey());
        figures.put("probes per key", bitsPerKey());
        figures.put("expected items per key", expectedItemsPerKey());
        figures.put("false-positive rate", falsePositiveRate());
        putCapacity(figures);
        figures.put("keys", keyCount());
        super.putFigures(figures);
        putHeap(figures);
        figures.put("filter bytes per key", format.filterBytes());
        figures.put("filter area bytes", format.filterAreaBytes());
        figures.put("filter area bytes used", filters.area().bytesUsed());
        figures.put("expected false-positive rate", expectedFalsePositiveRate());
    }

    @Override
    public String toString() {
        return "BloomTable[" + describe() + ", " + blocksPerKey() + " blocks and " + bitsPerKey()
                + " bits per key, capacity " + capacity() + "]";
    }
}
