package io.mapsketch.membership;

import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.Mergeable;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.DoubleHashing;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * A Bloom filter with 4-bit saturating counters instead of bits, so keys can be removed. Sized and
 * probed exactly as the classic {@link BloomFilter} (m counters, k probes by enhanced double
 * hashing), at four times its memory: 10,000 items at 1% take 95,851 counters, 47 KB.
 *
 * <p>Error direction: false positives only, as long as callers only remove what they added. A
 * counter saturates at 15 and is then never decremented, so saturation can keep a removed key
 * present (a false positive), never lose a present one. {@link #remove} refuses a key whose
 * counters include a zero: such a key is certainly absent, and nothing is changed.
 *
 * <p>Layout: counter i is bits {@code 4 (i mod 16)} to {@code 4 (i mod 16) + 3} of the
 * little-endian 64-bit word {@code i / 16}.
 *
 * <p>Concurrency: in {@code SHARED} mode each counter changes by compare-and-set on its word, so
 * concurrent adds from any number of threads and processes give the counters of the same adds
 * made one after another. A remove checks every counter, then decrements them; if a concurrent
 * remove empties one of them first, the decrements already made are undone and the remove is
 * refused.
 *
 * <p>Cost: k probes per add, lookup or remove, each a compare-and-set in {@code SHARED} mode.
 */
// Its header format description is package-private; the protected members that return it are not API.
@SuppressWarnings("exports")
public final class CountingBloomFilter extends RemovableFilter implements Mergeable<CountingBloomFilter> {

    private static final long MAX_COUNT = 15;
    private static final long LOW_NIBBLES = 0x0F0F0F0F0F0F0F0FL;
    private static final long CARRY_BITS = 0x1010101010101010L;
    private static final long NIBBLE_LOW_BITS = 0x1111111111111111L;

    private final CountingBloomFormat format;
    private final long counters;
    private final int hashes;
    private final ProbeCells probes;
    /** The probes' term unit ({@link ProbeCells#termUnit}), in a field of its own for the single-key loops. */
    private final long termUnit;

    private CountingBloomFilter(SketchRegion region, CountingBloomFormat format) {
        super(region, format.expectedItems(), format.falsePositiveRate());
        this.format = format;
        this.counters = format.counters();
        this.hashes = format.hashes();
        this.probes = ProbeCells.of(counters, region.header().formatVersion());
        this.termUnit = probes.termUnit();
    }

    /**
     * Starts a builder; {@code expectedItems} and {@code falsePositiveRate} are required.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Opens a counting Bloom filter file; every parameter comes from its header.
     *
     * @param file the filter file
     * @param mode read-only, shared writer or exclusive writer
     * @return the open filter
     * @throws io.mapsketch.SketchFileException if the file is not a valid counting Bloom
     *     filter, or is locked against this mode
     * @throws IOException if the file cannot be read
     */
    public static CountingBloomFilter open(Path file, OpenMode mode) throws IOException {
        return open(file, mode, SketchKind.COUNTING_BLOOM, CountingBloomFilter::read);
    }

    private static CountingBloomFilter read(SketchRegion region) throws IOException {
        return new CountingBloomFilter(region, CountingBloomFormat.read(HeaderReader.of(region)));
    }

    @Override
    protected CountingBloomFormat format() {
        return format;
    }

    private static long wordOffset(long counter) {
        return (counter >>> 4) << 3;
    }

    private static int shift(long counter) {
        return (int) (counter & 15) << 2;
    }

    /**
     * Returns the value of one counter, for tests and inspection.
     *
     * @param counter the counter's index, in [0, m)
     * @return its value, 0 to 15
     */
    int counter(long counter) {
        return (int) (payload.getLongAcquire(wordOffset(counter)) >>> shift(counter) & MAX_COUNT);
    }

    @Override
    protected boolean addHash(long hash) {
        boolean changed = false;
        long x = hash;
        long y = DoubleHashing.step(hash);
        long bump = 0;
        for (int i = 0; i < hashes; i++) {
            changed |= increment(DoubleHashing.reduce(x, counters));
            x += y;
            y += bump;
            bump += termUnit;
        }
        return changed;
    }

    /** Adds one to a counter unless it is saturated; returns whether it was zero. */
    private boolean increment(long counter) {
        long offset = wordOffset(counter);
        int shift = shift(counter);
        while (true) {
            long word = payload.getLong(offset);
            long value = word >>> shift & MAX_COUNT;
            if (value == MAX_COUNT) {
                return false;
            }
            long updated = word + (1L << shift);
            if (!sharedWriters) {
                payload.putLong(offset, updated);
                return value == 0;
            }
            if (payload.compareAndSetLong(offset, word, updated)) {
                return value == 0;
            }
        }
    }

    /**
     * Subtracts one from a counter unless it is saturated; returns {@code false}, changing nothing,
     * if it is zero.
     */
    private boolean decrement(long counter) {
        long offset = wordOffset(counter);
        int shift = shift(counter);
        while (true) {
            long word = payload.getLong(offset);
            long value = word >>> shift & MAX_COUNT;
            if (value == 0) {
                return false;
            }
            if (value == MAX_COUNT) {
                return true;
            }
            long updated = word - (1L << shift);
            if (!sharedWriters) {
                payload.putLong(offset, updated);
                return true;
            }
            if (payload.compareAndSetLong(offset, word, updated)) {
                return true;
            }
        }
    }

    @Override
    boolean containsHash(long hash) {
        long x = hash;
        long y = DoubleHashing.step(hash);
        long bump = 0;
        for (int i = 0; i < hashes; i++) {
            if (counter(DoubleHashing.reduce(x, counters)) == 0) {
                return false;
            }
            x += y;
            y += bump;
            bump += termUnit;
        }
        return true;
    }

    @Override
    void removeHash(long hash) {
        if (!containsHash(hash)) {
            throw new KeyNotPresentException(describe() + ": cannot remove a key that is not in the filter"
                    + " (one of its counters is zero); nothing was changed");
        }
        long step = DoubleHashing.step(hash);
        long x = hash;
        long y = step;
        long bump = 0;
        for (int i = 0; i < hashes; i++) {
            if (!decrement(DoubleHashing.reduce(x, counters))) {
                undoDecrements(hash, step, i);
                throw new KeyNotPresentException(describe() + ": cannot remove the key: a concurrent remove"
                        + " emptied one of its counters; nothing was changed");
            }
            x += y;
            y += bump;
            bump += termUnit;
        }
    }

    /** Re-increments the first {@code decremented} counters of a hash after a refused remove. */
    private void undoDecrements(long hash, long step, int decremented) {
        for (int i = 0; i < decremented; i++) {
            increment(DoubleHashing.reduce(probes.value(hash, step, i), counters));
        }
    }

    @Override
    protected void addHashes(long[] hashes, int from, int count) {
        for (int i = from; i < from + count; i++) {
            addHash(hashes[i]);
        }
    }

    @Override
    void containsHashes(long[] hashes, int count, boolean[] results, int resultsFrom) {
        for (int i = 0; i < count; i++) {
            results[resultsFrom + i] = containsHash(hashes[i]);
        }
    }

    /**
     * Adds another filter's counters to this one's, saturating at 15: afterwards this filter holds
     * both filters' keys. Shared writers add word by word with compare-and-set.
     *
     * <p>Cost: one pass over both counter arrays.
     *
     * @param other a filter with the same counters, hashes, hash scheme, seed and probe scheme ({@link ProbeCells})
     * @throws IncompatibleSketchException naming the parameter that differs
     * @throws IllegalStateException if this filter is read-only or either is closed
     */
    @Override
    public void merge(CountingBloomFilter other) {
        requireMergeable(other);
        requireWritable();
        for (long offset = 0; offset < payload.byteSize(); offset += Long.BYTES) {
            long incoming = other.payload.getLongAcquire(offset);
            if (incoming == 0) {
                continue;
            }
            while (true) {
                long word = payload.getLong(offset);
                long sum = addSaturatingNibbles(word, incoming);
                if (!sharedWriters) {
                    payload.putLong(offset, sum);
                    break;
                }
                if (payload.compareAndSetLong(offset, word, sum)) {
                    break;
                }
            }
        }
        countItems(other.itemsAdded());
    }

    /** The counters, hashes, hash scheme, seed and probe scheme, as {@link #merge} takes them. */
    @Override
    public void requireMergeable(CountingBloomFilter other) {
        requireCompatible(Objects.requireNonNull(other, "other"), CountingBloomFormat.SHAPE);
        probes.requireSameScheme(other.probes);
    }

    /** Adds the sixteen 4-bit lanes of two words, each sum capped at 15. */
    static long addSaturatingNibbles(long a, long b) {
        long low = (a & LOW_NIBBLES) + (b & LOW_NIBBLES);
        long high = (a >>> 4 & LOW_NIBBLES) + (b >>> 4 & LOW_NIBBLES);
        low = (low | ((low & CARRY_BITS) >>> 4) * MAX_COUNT) & LOW_NIBBLES;
        high = (high | ((high & CARRY_BITS) >>> 4) * MAX_COUNT) & LOW_NIBBLES;
        return low | high << 4;
    }

    /**
     * Returns m, the number of counters.
     *
     * @return counters in the filter
     */
    public long counterCount() {
        return counters;
    }

    /**
     * Returns k, the number of probes per key.
     *
     * @return hash functions
     */
    public int hashCount() {
        return hashes;
    }

    /**
     * Returns the fraction of counters that are not zero. Cost: one pass over the counters.
     *
     * @return non-zero counters / m
     */
    @Override
    public double fillRatio() {
        long nonZero = 0;
        for (long offset = 0; offset < payload.byteSize(); offset += Long.BYTES) {
            long word = payload.getLongAcquire(offset);
            nonZero += Long.bitCount((word | word >>> 1 | word >>> 2 | word >>> 3) & NIBBLE_LOW_BITS);
        }
        return (double) nonZero / counters;
    }

    /**
     * Returns how many counters are saturated (at 15): such a counter is never decremented again, so a
     * removed key that probes it stays present. Cost: one pass over the counters, as {@link #fillRatio()}.
     *
     * @return counters at 15, in [0, {@link #counterCount()}]
     * @throws IllegalStateException if the filter is closed
     */
    public long saturatedCounters() {
        long saturated = 0;
        for (long offset = 0; offset < payload.byteSize(); offset += Long.BYTES) {
            long word = payload.getLongAcquire(offset);
            saturated += Long.bitCount(word & word >>> 1 & word >>> 2 & word >>> 3 & NIBBLE_LOW_BITS);
        }
        return saturated;
    }

    /**
     * Returns the probability that a key never added is reported present, at the current load:
     * {@code fillRatio^k}, the fraction of non-zero counters to the k. Cost: as {@link #fillRatio()}.
     *
     * @return the current false-positive rate
     */
    @Override
    public double expectedFalsePositiveRate() {
        return Math.pow(fillRatio(), hashes);
    }

    /**
     * Returns the keys the filter holds, estimated from the fraction of non-zero counters; a removed key
     * no longer counts.
     *
     * @return the estimate
     */
    @Override
    public long estimatedItems() {
        return itemsOfFill(counters, hashes, fillRatio());
    }

    @Override
    void putShape(Map<String, Object> figures) {
        figures.put("counters", counters);
        figures.put("hashes", hashes);
    }

    @Override
    public String toString() {
        return "CountingBloomFilter[" + describe() + ", " + counters + " counters, k = " + hashes + ", " + itemsAdded()
                + " items]";
    }

    /** Builds a counting Bloom filter from the expected items and the false-positive rate. */
    @SuppressWarnings("exports")
    public static final class Builder extends FilterBuilder<Builder, CountingBloomFilter> {

        private Builder() {}

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected CountingBloomFormat format() {
            return CountingBloomFormat.sized(expectedItems(), falsePositiveRate());
        }

        @Override
        protected CountingBloomFilter wrap(SketchRegion region) throws IOException {
            return read(region);
        }
    }
}
