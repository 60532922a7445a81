package io.mapsketch.frequency;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.Mergeable;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import io.mapsketch.TableFullException;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.memory.LiveCounters;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
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
public final class CountMinTable extends CountMinTableReads implements Mergeable<CountMinTable> {

    private CountMinTable(SketchRegion region, CountMinTableFormat format) {
        super(region, format);
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
        table.validate();
        return table;
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
     * @throws IllegalStateException if this table is read-only or closed, or one of them is closed (before any is
     *     merged)
     */
    @Override
    public void mergeAll(List<? extends CountMinTable> others) {
        long[] once = new long[others.size()];
        Arrays.fill(once, 1);
        mergeAll(others, once);
    }

    /**
     * Merges another table into this one {@code weight} times over, key by key, as if each of its (key, item,
     * count) adds had been made {@code weight} times here (RedisBloom's CMS.MERGE WEIGHTS on every key's
     * sketch, {@link CountMinSketch#merge(CountMinSketch, long)} of each); weight 1 is {@link #merge}.
     *
     * @param other a table as {@link #merge} takes; not modified
     * @param weight how many times to take it, in [1, 2^63 - 1]
     * @throws IllegalArgumentException if {@code weight} is out of range or the merged N would pass
     *     2^63 - 2^55 - 1; nothing is merged
     * @see #mergeAll(List, long[])
     */
    public void merge(CountMinTable other, long weight) {
        mergeAll(List.of(other), new long[] {weight});
    }

    /**
     * Merges several tables into this one together, key by key, source {@code s} taken {@code weights[s]}
     * times over: afterwards each key's counters are the saturating sum of its counters here and of
     * {@code weights[s]} times its counters in each source, exactly as if each source's (key, item, count)
     * adds had been made that many times here; N and the items added grow by each source's times its weight.
     * Cost: as {@link #mergeAll(List)}, counter by counter for a weight above 1.
     *
     * @param others tables of the same width, depth, counter width, hash scheme and seed; not modified
     * @param weights one weight per table, each in [1, 2^63 - 1]
     * @throws IncompatibleSketchException naming the parameter that differs; nothing is merged
     * @throws IllegalArgumentException if the weights are not one per table, a weight is out of range, or the
     *     merged N would pass 2^63 - 2^55 - 1; nothing is merged
     * @throws TableFullException if a new key finds no room (the keys before it are merged, and N holds all of
     *     the sources', weighted)
     * @throws IllegalStateException if this table is read-only or closed, or one of them is closed (before any is
     *     merged)
     */
    public void mergeAll(List<? extends CountMinTable> others, long[] weights) {
        requireWritable();
        List<? extends CountMinTable> sources = List.copyOf(others);
        long[] times = weights.clone();
        if (times.length != sources.size()) {
            throw new IllegalArgumentException(times.length + " weights for " + sources.size()
                    + " tables: give one per table; nothing was merged");
        }
        for (long weight : times) {
            FrequencySketch.requireWeight(weight);
        }
        requireMergeableAll(sources);
        long weight = 0;
        boolean weighted = false;
        for (int s = 0; s < sources.size(); s++) {
            long taken = LiveCounters.times(sources.get(s).totalWeight(), times[s]);
            weight = taken > Long.MAX_VALUE - weight ? Long.MAX_VALUE : weight + taken;
            weighted |= times[s] != 1;
        }
        admitWeight(
                weight,
                (sources.size() == 1 ? "the other table's total weight" : "the other tables' total weight")
                        + (weighted ? ", weighted" : ""));
        long bytes = format.sketchBytes();
        try {
            mergeKeysOfAll(sources, times, (record, sourceRecords) -> {
                for (int s = 0; s < sourceRecords.length; s++) {
                    CountMinTable source = sources.get(s);
                    long from = sourceRecords[s] < 0 ? -1 : source.area.pieceOf(sourceRecords[s]);
                    if (from >= 0) {
                        counters.addRangeTimes(area.pieceFor(record), source.counters, from, bytes, times[s]);
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

    @Override
    public String toString() {
        return "CountMinTable[" + describe() + ", " + width() + " x " + depth() + " " + counterBits()
                + "-bit counters per key, capacity " + capacity() + "]";
    }
}
