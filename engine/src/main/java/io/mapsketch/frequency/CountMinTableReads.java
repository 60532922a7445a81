package io.mapsketch.frequency;

import io.mapsketch.SketchFileException;
import io.mapsketch.internal.HeapPieces;
import io.mapsketch.internal.KeyPieceArea;
import io.mapsketch.internal.KeyTable;
import io.mapsketch.memory.AtomicSegment;
import io.mapsketch.memory.SketchRegion;
import java.nio.file.Path;
import java.util.Map;

/**
 * The read side of a {@link CountMinTable}, its package-private base: the keys' sketches and their check on
 * open, the estimates, a key's counters and weight, the shape and the figures; the key index and the heap
 * are the {@link KeyTable}'s.
 */
// The mechanics every sketch shares sit in the unexported package; their public methods are the table's.
@SuppressWarnings("exports")
abstract sealed class CountMinTableReads extends KeyTable permits CountMinTable {

    final CountMinTableFormat format;
    final KeyPieceArea area;
    final CounterMatrix counters;
    final CountMinRows rows;
    final int depth;
    final long maxEstimate;

    CountMinTableReads(SketchRegion region, CountMinTableFormat format) {
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

    /** Checks the key index and every key's sketch word on open. */
    final void validate() throws SketchFileException {
        Path file = region.file().orElse(null);
        try (HeapPieces handedOut = area.validate(file)) {
            validate(area.check(handedOut, file), handedOut);
        }
    }

    @Override
    protected CountMinTableFormat format() {
        return format;
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
}
