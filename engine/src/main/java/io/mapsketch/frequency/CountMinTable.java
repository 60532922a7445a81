package io.mapsketch.frequency;

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
 * A Count-Min table: one Count-Min sketch per key ("how often did user 7 play clip 42", Redis's
 * {@code CMS.INCRBY plays:user7 clip42 1} with one sketch per key), for up to N keys in one mapped file,
 * shared by writers in any number of processes as any sketch file is. Every key's sketch is d rows of w
 * unsigned 32- or 64-bit counters, sized as a {@link CountMinSketch} of the same epsilon and delta (or width
 * and depth); it holds, counter for counter, what a standalone {@link CountMinSketch} of that shape and the
 * table's seed holds for the same (item, count) adds, and answers as it does. Keys are bytes or strings
 * (their UTF-8 bytes), items {@linkplain io.mapsketch##keys any key form}.
 *
 * <p>Error direction: overcount only, per key: a key's estimate is never below the truth unless
 * saturated, and above it by at most {@link #errorBound(CharSequence)} = {@code ceil(epsilon N_key)} with
 * probability at least {@code 1 - delta}, N_key being the counts added to that key; a key never added
 * estimates 0. The table's total weight N, the sum of every count, is refused past 2^63 - 2^55 - 1 as a
 * standalone sketch's is. A table is sized at creation and refuses a new key beyond its capacity, or a key
 * whose record finds no room in the heap, with {@link TableFullException}.
 *
 * <p>Concurrency: a lookup takes no lock; {@code SHARED} writers in any number of processes may add at
 * once, new keys included, each counter raised by a saturating compare-and-set, and leave the counters
 * sequential adds would. Updates are plain (no conservative update), so merges add up exactly.
 *
 * <p>Cost: an add or an estimate hashes the key and the item, finds the key (about 1.5 slot reads and a key
 * compare) and touches d counters of its sketch; a key's first add also hands out its sketch. The layout and
 * the protocols are in {@code docs/design/tables.md}.
 */
// The mechanics every sketch shares sit in the unexported package; their public methods are this type's.
@SuppressWarnings("exports")
public final class CountMinTable extends KeyTable implements Mergeable<CountMinTable> {

    private final CountMinTableFormat format;
    private final KeyPieceArea area;
    private final CounterMatrix counters;
    private final CountMinRows rows;
    private final int depth;
    private final long maxEstimate;

    private CountMinTable(SketchRegion region, CountMinTableFormat format) {
        super(region, format.table(), KeyPieceArea.VALUE_BYTES);
        this.format = format;
        CountMinFormat shape = format.sketch();
        AtomicSegment bytes =
                new AtomicSegment(payload.segment().asSlice(format.counterAreaOffset(), format.counterAreaBytes()));
        this.area = new KeyPieceArea(heap, line, bytes, format.sketchBytes(), 64, "sketch", "counter area", describe());
        this.counters = CounterMatrix.of(bytes, shape.width(), shape.depth(), shape.counterBytes(), sharedWriters);
        this.rows = CountMinRows.of(region.header().formatVersion());
        this.depth = shape.depth();
        this.maxEstimate = CountMinEstimates.maxEstimate(shape.counterBytes());
    }

    /**
     * Starts a builder; the capacity and epsilon and delta (or the dimensions) are required.
     *
     * @return a new builder
     */
    public static CountMinTableBuilder builder() {
        return new CountMinTableBuilder();
    }

    /**
     * Opens a Count-Min table file; its shape comes from its header. Cost: one walk of the key index, which
     * checks it and every key's sketch word.
     *
     * @param file the table file
     * @param mode read-only, shared writer or exclusive writer
     * @return the open table
     * @throws CorruptSketchFileException if a parameter is out of range, the width or depth do not follow
     *     from epsilon and delta, the payload is not the size they imply, or the index or a key's sketch word
     *     could be misread ({@code docs/design/tables.md})
     * @throws io.mapsketch.SketchFileException if the file is not a valid Count-Min table, or it is locked
     *     against this mode
     * @throws IOException if the file cannot be read
     */
    public static CountMinTable open(Path file, OpenMode mode) throws IOException {
        return open(file, mode, SketchKind.COUNT_MIN_TABLE, CountMinTable::read);
    }

    static CountMinTable read(SketchRegion region) throws IOException {
        CountMinTable table = new CountMinTable(region, CountMinTableFormat.read(HeaderReader.of(region)));
        Path file = region.file().orElse(null);
        try (HeapPieces handedOut = table.area.validate(file)) {
            table.validate(table.area.check(handedOut, file), handedOut);
        }
        return table;
    }

    @Override
    protected CountMinTableFormat format() {
        return format;
    }

    /** Adds one occurrence of the item of a hash to the key's sketch; always a change but at saturation. */
    @Override
    protected boolean addToRecord(long record, long hash) {
        addCount(record, hash, 1);
        return true;
    }

    /** Hands the key a sketch if it has none, takes {@code count} into N, then into the sketch; its estimate. */
    private long addCount(long record, long hash, long count) {
        long sketch = area.pieceFor(record);
        admitWeight(count, "count");
        long estimate = CountMinEstimates.cap(
                CountMinUpdates.addPlain(counters, rows, depth, sketch, hash, count), maxEstimate);
        countAdmitted(0, count);
        return estimate;
    }

    private static void requireCount(long count) {
        if (count < 1) {
            throw new IllegalArgumentException("count = " + count + ", must be in [1, " + Long.MAX_VALUE + "]");
        }
    }

    /**
     * Adds {@code count} occurrences of an item to a key's sketch, inserting the key if it is new (Redis's
     * {@code CMS.INCRBY} on the key's sketch). Cost: one hash of each, the key's lookup, and d counter
     * updates (d compare-and-sets for {@code SHARED} writers).
     *
     * @param key the key, as its UTF-8 bytes, at most 65,535 of them
     * @param item the item, as its UTF-8 bytes
     * @param count occurrences, in [1, 2^63 - 1]
     * @return the item's estimate in the key's sketch right after this add, as this writer's updates left it
     * @throws IllegalArgumentException if {@code count} is out of range or would take N past 2^63 - 2^55 - 1
     * @throws TableFullException if the key is new and the table holds its capacity, or the heap is full
     * @throws IllegalStateException if the table is read-only or closed
     */
    public long add(CharSequence key, CharSequence item, long count) {
        return addToKey(key, hasher.hash(item), count);
    }

    /**
     * Adds {@code count} occurrences of a {@code long} item to a string key's sketch; as
     * {@link #add(CharSequence, CharSequence, long)}.
     *
     * @param key the key, as its UTF-8 bytes
     * @param item the item
     * @param count occurrences, in [1, 2^63 - 1]
     * @return the item's estimate in the key's sketch right after this add
     */
    public long add(CharSequence key, long item, long count) {
        return addToKey(key, hasher.hash(item), count);
    }

    private long addToKey(CharSequence key, long hash, long count) {
        requireWritable();
        requireCount(count);
        long estimate = addCount(findOrInsert(key), hash, count);
        countItems(1);
        return estimate;
    }

    /**
     * Adds {@code count} occurrences of an item of bytes to a key of bytes; as
     * {@link #add(CharSequence, CharSequence, long)}.
     *
     * @param key the array holding the key's bytes
     * @param keyOffset the key's first byte
     * @param keyLength the key's byte count
     * @param item the array holding the item's bytes
     * @param itemOffset the item's first byte
     * @param itemLength the item's byte count
     * @param count occurrences, in [1, 2^63 - 1]
     * @return the item's estimate in the key's sketch right after this add
     */
    public long add(byte[] key, int keyOffset, int keyLength, byte[] item, int itemOffset, int itemLength, long count) {
        requireWritable();
        requireCount(count);
        long hash = hasher.hash(item, itemOffset, itemLength);
        long estimate = addCount(findOrInsert(key, keyOffset, keyLength), hash, count);
        countItems(1);
        return estimate;
    }

    /**
     * Adds {@code count} (key, item, count) triples, laid out as {@link #addAll(byte[], int[], int[], int[],
     * int[], int)} lays out pairs, triple {@code i} adding {@code counts[i]} occurrences; {@code estimates[i]}
     * becomes the item's estimate right after its add. Every count is checked before anything is added; if a
     * triple is refused, the triples before it stay added and counted. Cost: the items are hashed
     * {@value io.mapsketch.internal.KeyHasher#BATCH} at a time, each key found once per run of triples of one
     * key, then d counter updates per triple.
     *
     * @param data the bytes of the keys and the items
     * @param keyOffsets where each triple's key starts
     * @param keyLengths each triple's key's byte count
     * @param itemOffsets where each triple's item starts
     * @param itemLengths each triple's item's byte count
     * @param counts each triple's occurrences, in [1, 2^63 - 1]
     * @param count how many triples, at most the length of every array
     * @param estimates receives one estimate per triple, at least {@code count} long
     * @throws IllegalArgumentException if a count is out of range or {@code estimates} is shorter than
     *     {@code count} (nothing is added), or a count would take N past 2^63 - 2^55 - 1 (the triples before
     *     it are added)
     * @throws IndexOutOfBoundsException if {@code count} exceeds an array (nothing is added) or a range lies
     *     outside {@code data} (the triples before it are added)
     * @throws TableFullException if a new key finds no room (the triples before it are added)
     * @throws IllegalStateException if the table is read-only or closed
     */
    public void addAll(
            byte[] data,
            int[] keyOffsets,
            int[] keyLengths,
            int[] itemOffsets,
            int[] itemLengths,
            long[] counts,
            int count,
            long[] estimates) {
        requireWritable();
        Objects.checkFromIndexSize(0, count, counts.length);
        requireAnswerRoom("estimates", estimates.length, count);
        for (int i = 0; i < count; i++) {
            requireCount(counts[i]);
        }
        int[] done = {0};
        try {
            forEachPair(data, keyOffsets, keyLengths, itemOffsets, itemLengths, count, true, (pair, record, hash) -> {
                estimates[pair] = addCount(record, hash, counts[pair]);
                done[0]++;
            });
        } finally {
            countItems(done[0]);
        }
    }

    /**
     * Estimates how often an item was added to a key: the minimum of its d counters in the key's sketch,
     * as a standalone {@link CountMinSketch#estimate(CharSequence)}; 0 for a key not in the table.
     *
     * @param key the key, as its UTF-8 bytes
     * @param item the item, as its UTF-8 bytes
     * @return the estimate, in [0, {@link #maxEstimate()}]; {@code maxEstimate()} when saturated
     * @throws IllegalStateException if the table is closed
     */
    public long estimate(CharSequence key, CharSequence item) {
        return estimateOf(find(key), hasher.hash(item));
    }

    /**
     * Estimates how often a {@code long} item was added to a string key; as
     * {@link #estimate(CharSequence, CharSequence)}.
     *
     * @param key the key, as its UTF-8 bytes
     * @param item the item
     * @return the estimate
     */
    public long estimate(CharSequence key, long item) {
        return estimateOf(find(key), hasher.hash(item));
    }

    /**
     * Estimates how often an item of bytes was added to a key of bytes; as
     * {@link #estimate(CharSequence, CharSequence)}.
     *
     * @param key the array holding the key's bytes
     * @param keyOffset the key's first byte
     * @param keyLength the key's byte count
     * @param item the array holding the item's bytes
     * @param itemOffset the item's first byte
     * @param itemLength the item's byte count
     * @return the estimate
     */
    public long estimate(byte[] key, int keyOffset, int keyLength, byte[] item, int itemOffset, int itemLength) {
        return estimateOf(find(key, keyOffset, keyLength), hasher.hash(item, itemOffset, itemLength));
    }

    /**
     * Estimates {@code count} (key, item) pairs, laid out as {@link #addAll(byte[], int[], int[], int[], int[],
     * int)} takes them: {@code estimates[i]} becomes {@link #estimate(byte[], int, int, byte[], int, int)} of
     * pair {@code i}. Cost: the items are hashed {@value io.mapsketch.internal.KeyHasher#BATCH} at a time,
     * each key found once per run of pairs of one key, then d counter reads per pair.
     *
     * @param data the bytes of the keys and the items
     * @param keyOffsets where each pair's key starts
     * @param keyLengths each pair's key's byte count
     * @param itemOffsets where each pair's item starts
     * @param itemLengths each pair's item's byte count
     * @param count how many pairs, at most the length of every array
     * @param estimates receives one estimate per pair, at least {@code count} long
     * @throws IllegalArgumentException if {@code estimates} is shorter than {@code count} (nothing is read)
     * @throws IndexOutOfBoundsException if {@code count} exceeds an array, or a range lies outside {@code data}
     * @throws IllegalStateException if the table is closed
     */
    public void estimateAll(
            byte[] data,
            int[] keyOffsets,
            int[] keyLengths,
            int[] itemOffsets,
            int[] itemLengths,
            int count,
            long[] estimates) {
        requireAnswerRoom("estimates", estimates.length, count);
        forEachPair(
                data,
                keyOffsets,
                keyLengths,
                itemOffsets,
                itemLengths,
                count,
                false,
                (pair, record, hash) -> estimates[pair] = estimateOf(record, hash));
    }

    private long estimateOf(long record, long hash) {
        long sketch = record < 0 ? -1 : area.pieceOf(record);
        return sketch < 0
                ? 0
                : CountMinEstimates.cap(CountMinEstimates.raw(counters, rows, depth, sketch, hash), maxEstimate);
    }

    /**
     * Returns a key's counters row by row ({@code depth * width} of them, unsigned), as
     * {@link CountMinSketch#counterTable()} returns a standalone sketch's.
     *
     * @param key the key, as its UTF-8 bytes
     * @return a new array, all zero for a key not in the table
     * @throws IllegalStateException if the table is closed, or the counters are more than an array holds
     */
    public long[] counterTable(CharSequence key) {
        long size = (long) depth * width();
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException(size + " counters are more than an array holds");
        }
        long[] table = new long[(int) size];
        long sketch = sketchOf(key);
        for (int row = 0; sketch >= 0 && row < depth; row++) {
            for (int column = 0; column < width(); column++) {
                table[row * width() + column] = counters.loadAcquire(sketch + counters.columnOffset(row, column));
            }
        }
        return table;
    }

    /**
     * Returns the counts added to a key, N_key: the sum of its first row's counters (every add raises one
     * counter per row by its count), short of the truth only if a counter saturated. Cost: w counter reads.
     *
     * @param key the key, as its UTF-8 bytes
     * @return N_key, 0 for a key not in the table, at most {@code Long.MAX_VALUE}
     * @throws IllegalStateException if the table is closed
     */
    public long totalWeight(CharSequence key) {
        long sketch = sketchOf(key);
        long sum = 0;
        for (int column = 0; sketch >= 0 && column < width(); column++) {
            long value = counters.loadAcquire(sketch + counters.columnOffset(0, column));
            sum = value < 0 || sum > Long.MAX_VALUE - value ? Long.MAX_VALUE : sum + value;
        }
        return sum;
    }

    /**
     * Returns how far a key's estimates may exceed the truth with probability at least {@code 1 - delta}:
     * {@code ceil(epsilon N_key)}. Cost: as {@link #totalWeight(CharSequence)}.
     *
     * @param key the key, as its UTF-8 bytes
     * @return the bound, 0 for a key not in the table
     */
    public long errorBound(CharSequence key) {
        return (long) Math.ceil(epsilon() * totalWeight(key));
    }

    private long sketchOf(CharSequence key) {
        long record = find(key);
        return record < 0 ? -1 : area.pieceOf(record);
    }

    /**
     * Merges another table into this one key by key: afterwards each key's counters are the saturating sum of
     * its counters in both, keys new here inserted, exactly as if every (key, item, count) of both had been
     * added here; N and the items added add up. Cost: a walk of the other's index; per key with a sketch, the
     * SIMD saturating sum of its counters (a compare-and-set of each non-zero counter for {@code SHARED}
     * writers).
     *
     * @param other a table of the same width, depth, counter width, hash scheme and seed; not modified
     * @throws IncompatibleSketchException naming the parameter that differs
     * @throws IllegalArgumentException if the merged N would pass 2^63 - 2^55 - 1; nothing is merged
     * @throws TableFullException if a new key finds no room (the keys before it are merged, and N holds all of
     *     the other's)
     * @throws IllegalStateException if this table is read-only or either is closed
     */
    @Override
    public void merge(CountMinTable other) {
        mergeAll(List.of(other));
    }

    /**
     * Merges several tables into this one together, key by key, leaving each key as {@link #merge} of each
     * in turn would (the saturating sum of its counters here and in every source); N and the items added
     * grow by all of theirs. Cost: per key of the sources, a lookup here and in each source after the first
     * that holds it; per source sketch, the SIMD saturating sum of its counters.
     *
     * @param others tables of the same width, depth, counter width, hash scheme and seed; not modified
     * @throws IncompatibleSketchException naming the parameter that differs; nothing is merged
     * @throws IllegalArgumentException if the merged N would pass 2^63 - 2^55 - 1; nothing is merged
     * @throws TableFullException if a new key finds no room (the keys before it are merged, and N holds all of
     *     the sources')
     * @throws IllegalStateException if this table is read-only or one of them is closed
     */
    @Override
    public void mergeAll(List<? extends CountMinTable> others) {
        requireWritable();
        List<? extends CountMinTable> sources = List.copyOf(others);
        sources.forEach(this::requireMergeable);
        long weight = 0;
        for (CountMinTable source : sources) {
            weight = source.totalWeight() > Long.MAX_VALUE - weight ? Long.MAX_VALUE : weight + source.totalWeight();
        }
        admitWeight(weight, sources.size() == 1 ? "the other table's total weight" : "the other tables' total weight");
        long bytes = format.sketchBytes();
        try {
            mergeKeysOfAll(sources, (record, sourceRecords) -> {
                for (int s = 0; s < sourceRecords.length; s++) {
                    CountMinTable source = sources.get(s);
                    long from = sourceRecords[s] < 0 ? -1 : source.area.pieceOf(sourceRecords[s]);
                    if (from >= 0) {
                        counters.addRange(area.pieceFor(record), source.counters, from, bytes);
                    }
                }
            });
        } finally {
            countAdmitted(0, weight);
        }
    }

    /** The width, depth, counter width, hash scheme and seed, as {@link #merge} takes them. */
    @Override
    public void requireMergeable(CountMinTable other) {
        requireCompatible(Objects.requireNonNull(other, "other"), CountMinTableFormat.SHAPE);
    }

    /** A sum of counters: merging the same table again counts it again. */
    @Override
    public boolean mergeIsIdempotent() {
        return false;
    }

    /**
     * Returns the table's total weight N: the sum of every count added, to every key.
     *
     * @return N
     */
    public long totalWeight() {
        return weightAdded();
    }

    /**
     * Returns the counters per row of every key's sketch.
     *
     * @return w
     */
    public int width() {
        return format.sketch().width();
    }

    /**
     * Returns the rows of every key's sketch.
     *
     * @return d
     */
    public int depth() {
        return depth;
    }

    /**
     * Returns the counter width.
     *
     * @return 32 or 64
     */
    public int counterBits() {
        return format.sketch().counterBytes() * Byte.SIZE;
    }

    /**
     * Returns epsilon, each key's error as a fraction of its total weight.
     *
     * @return epsilon
     */
    public double epsilon() {
        return format.sketch().epsilon();
    }

    /**
     * Returns delta, the probability that a key's estimate exceeds its error bound.
     *
     * @return delta
     */
    public double delta() {
        return format.sketch().delta();
    }

    /**
     * Returns the largest estimate; an estimate at this value is saturated.
     *
     * @return {@code 2^32 - 1} for 32-bit counters, {@code 2^63 - 1} for 64-bit ones
     */
    public long maxEstimate() {
        return maxEstimate;
    }

    /** The shape, capacity, keys, the heap and the counter area. */
    @Override
    protected void putFigures(Map<String, Object> figures) {
        figures.put("epsilon", epsilon());
        figures.put("delta", delta());
        figures.put("width", width());
        figures.put("depth", depth());
        figures.put("counter bits", counterBits());
        putCapacity(figures);
        figures.put("keys", keyCount());
        super.putFigures(figures);
        putHeap(figures);
        figures.put("sketch bytes per key", format.sketchBytes());
        figures.put("counter area bytes", format.counterAreaBytes());
        figures.put("counter area bytes used", area.bytesUsed());
    }

    @Override
    public String toString() {
        return "CountMinTable[" + describe() + ", " + width() + " x " + depth() + " " + counterBits()
                + "-bit counters per key, capacity " + capacity() + "]";
    }
}
