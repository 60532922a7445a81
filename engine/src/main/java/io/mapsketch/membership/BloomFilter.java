package io.mapsketch.membership;

import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.Mergeable;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.DoubleHashing;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.memory.HashScheme;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * The classic Bloom filter: m bits, k probes per key by enhanced double hashing over one 64-bit
 * XXH3 hash ({@link ProbeCells}), or, for a filter imported from Guava or Spark, by its origin's probes
 * at its origin's size ({@link #probing()}); sized from the expected items n and false-positive rate p with
 * {@code m = -n ln p / (ln 2)^2} and {@code k = round((m / n) ln 2)} (10,000 items at 1% take
 * 95,851 bits, 11.7 KB, and 7 probes).
 *
 * <p>Error direction: false positives only. A key that was added is always found; a key that was
 * not is reported present with probability {@link #expectedFalsePositiveRate()}, which is p at n
 * items and grows past it (about 15.7% at 2n for p = 1%). Index arithmetic is 64-bit throughout, so
 * filters over 2^32 bits and over 2^31 items keep their rate.
 *
 * <p>Concurrency: in {@code SHARED} mode each probe sets its bit with an atomic OR, issued only when
 * the bit is still clear, so any number of threads and processes may add at once and the bits are
 * those of the same keys added one after another. An {@code EXCLUSIVE} writer uses plain stores.
 * Lookups never lock and read the bit array with plain loads (acquire loads cost a third of the
 * throughput out of cache), as the blocked kernels do: they see every add that completed before
 * they started in another process or in a thread whose add happens-before the lookup; a thread
 * that waits in a loop for another thread's add needs such an edge (a volatile flag, a lock, a
 * queue), since a compiler may keep a plain load out of the loop.
 *
 * <p>Cost: an add or lookup is one hash and k probes into the bit array, each a likely cache miss
 * for filters larger than the cache (a lookup stops at the first clear bit); the blocked layout
 * answers with one cache line. Batch lookups probe breadth-first without a branch on the answers
 * ({@link #mightContainAll}). An add also counts the item; batch adds count once per batch.
 */
// Its header format description is package-private; the protected members that return it are not API.
@SuppressWarnings("exports")
public sealed class BloomFilter extends MembershipFilter implements Mergeable<BloomFilter>
        permits GuavaProbedBloomFilter, SparkProbedBloomFilter {

    private final BloomFormat format;
    /** m: the modulus of every scheme's probes. */
    final long bits;
    /** k. */
    final int hashes;

    private final ProbeCells probes;
    /** The probes' term unit ({@link ProbeCells#termUnit}), in a field of its own for the single-key loops. */
    private final long termUnit;

    private final BloomBatches batches;

    BloomFilter(SketchRegion region, BloomFormat format) {
        super(region, format.expectedItems(), format.falsePositiveRate());
        this.format = format;
        this.bits = format.bits();
        this.hashes = format.hashes();
        this.probes = ProbeCells.of(bits, region.header().formatVersion());
        this.termUnit = probes.termUnit();
        this.batches = new BloomBatches(this, payload, bits, hashes, probes);
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
     * Opens a Bloom filter file; every parameter comes from its header.
     *
     * @param file the filter file
     * @param mode read-only, shared writer or exclusive writer
     * @return the open filter
     * @throws io.mapsketch.SketchFileException if the file is not a valid classic Bloom filter,
     *     or is locked against this mode
     * @throws IOException if the file cannot be read
     */
    public static BloomFilter open(Path file, OpenMode mode) throws IOException {
        return open(file, mode, SketchKind.BLOOM, BloomFilter::read);
    }

    /**
     * Reads a filter; one of a foreign scheme probes as its origin does, in a class of its own that only
     * such a filter loads (so that while every filter probes mapsketch's way the JIT sees one
     * implementation of each key-form method).
     */
    private static BloomFilter read(SketchRegion region) throws IOException {
        BloomFormat format = BloomFormat.read(HeaderReader.of(region));
        return switch (region.header().hashScheme()) {
            case GUAVA_MURMUR3_128 -> GuavaProbedBloomFilter.create(region, format);
            case SPARK_MURMUR3_32 -> SparkProbedBloomFilter.create(region, format);
            default -> new BloomFilter(region, format);
        };
    }

    @Override
    protected BloomFormat format() {
        return format;
    }

    /** Adds a batch round by round ({@link BloomBatches#add}), leaving the bits the single-key adds would. */
    @Override
    protected void addHashes(long[] keyHashes, int from, int count) {
        batches.add(keyHashes, from, count);
    }

    /** Looks up a batch round by round ({@link BloomBatches#contains}), with the single-key lookups' answers. */
    @Override
    void containsHashes(long[] keyHashes, int count, boolean[] results, int resultsFrom) {
        batches.contains(keyHashes, count, results, resultsFrom);
    }

    @Override
    protected boolean addHash(long hash) {
        boolean changed = false;
        long x = hash;
        long y = DoubleHashing.step(hash);
        long bump = 0;
        for (int i = 0; i < hashes; i++) {
            long bit = DoubleHashing.reduce(x, bits);
            changed |= setBits((bit >>> 6) << 3, 1L << bit);
            x += y;
            y += bump;
            bump += termUnit;
        }
        return changed;
    }

    @Override
    boolean containsHash(long hash) {
        long x = hash;
        long y = DoubleHashing.step(hash);
        long bump = 0;
        for (int i = 0; i < hashes; i++) {
            long bit = DoubleHashing.reduce(x, bits);
            if ((payload.getLong((bit >>> 6) << 3) & 1L << bit) == 0) {
                return false;
            }
            x += y;
            y += bump;
            bump += termUnit;
        }
        return true;
    }

    /**
     * ORs another filter into this one: afterwards this filter answers for the union of both key
     * sets, exactly as if every key of both had been added here. In {@code SHARED} mode the words
     * are ORed atomically, so concurrent adds and merges compose.
     *
     * <p>Cost: one pass over both bit arrays (SIMD in {@code EXCLUSIVE} mode).
     *
     * @param other a filter with the same bits, hashes, hash scheme, seed, probing ({@link BloomProbing})
     *     and probe scheme ({@link ProbeCells})
     * @throws IncompatibleSketchException naming the parameter that differs
     * @throws IllegalStateException if this filter is read-only or either is closed
     */
    @Override
    public void merge(BloomFilter other) {
        requireMergeable(other);
        orIn(other);
    }

    /** The bits, hashes, hash scheme, seed, probing and probe scheme, as {@link #merge} takes them. */
    @Override
    public void requireMergeable(BloomFilter other) {
        probes.requireSameScheme(Objects.requireNonNull(other, "other").probes);
        requireCompatible(other, BloomFormat.SHAPE);
    }

    /**
     * Returns m, the number of bits.
     *
     * @return bits in the filter
     */
    public long bitCount() {
        return bits;
    }

    /**
     * Returns where the filter puts a key's bits: mapsketch's own probes, or those of the library it was
     * imported from.
     *
     * @return the probing its header records
     */
    public BloomProbing probing() {
        return BloomProbing.of(region.header().hashScheme(), format.variant());
    }

    /**
     * Returns k, the number of probes per key.
     *
     * @return hash functions
     */
    public int hashCount() {
        return hashes;
    }

    @Override
    public double fillRatio() {
        return bitFillRatio(bits);
    }

    @Override
    public long estimatedItems() {
        return itemsOfFill(bits, hashes, fillRatio());
    }

    @Override
    void putShape(Map<String, Object> figures) {
        figures.put("bits", bits);
        figures.put("hashes", hashes);
    }

    /**
     * Returns the probability that a key never added is reported present, at the current load:
     * {@code fillRatio^k}. Cost: as {@link #fillRatio()}.
     *
     * @return the current false-positive rate
     */
    @Override
    public double expectedFalsePositiveRate() {
        return Math.pow(fillRatio(), hashes);
    }

    /** An OR of bits: merging the same sketch again changes nothing. */
    @Override
    public boolean mergeIsIdempotent() {
        return true;
    }

    @Override
    public String toString() {
        return "BloomFilter[" + describe() + ", " + bits + " bits, k = " + hashes + ", " + itemsAdded() + " items]";
    }

    /**
     * Returns the filter's bit array as 64-bit words, bit i being bit {@code i & 63} of word
     * {@code i >>> 6}: the words of Guava's and Spark's bit arrays. Cost: one pass over the payload.
     *
     * @return a new array of {@code ceil(m / 64)} words
     * @throws IllegalStateException if the filter is closed
     */
    public long[] words() {
        long[] words = new long[Math.toIntExact(Math.ceilDiv(bits, Long.SIZE))];
        for (int i = 0; i < words.length; i++) {
            words[i] = payload.getLong((long) i * Long.BYTES);
        }
        return words;
    }

    /** Stores the words of a new filter's bits, as its only writer: the content of an imported filter. */
    void storeWords(long[] words) {
        for (int i = 0; i < words.length; i++) {
            payload.putLong((long) i * Long.BYTES, words[i]);
        }
    }

    /** Builds a classic Bloom filter from the expected items and the false-positive rate, or from another library's bits. */
    @SuppressWarnings("exports")
    public static final class Builder extends FilterBuilder<Builder, BloomFilter> {

        private ForeignBloomImage image;
        private long seed = DEFAULT_SEED;

        private Builder() {}

        /**
         * Builds the filter of another library's bit array instead of sizing one: {@code 64 * words.length}
         * bits holding {@code words} ({@link BloomFilter#words()}' numbering), k probes placed as
         * {@code probing} places them; the expected items and the rate then follow from m and k
         * ({@code round(m ln 2 / k)} and {@code 2^-k}) and are not set. A {@link BloomProbing#SPARK_V2}
         * filter takes its seed from {@link #seed(long)}; the others hash with seed 0.
         *
         * @param probing a foreign probing, not {@link BloomProbing#MAPSKETCH}
         * @param hashes k, in [1, {@value ProbedLayout#MAX_HASHES}]
         * @param words the bits, at least one word; copied
         * @return this builder
         * @throws IllegalArgumentException if a parameter is out of range
         */
        public Builder foreignImage(BloomProbing probing, int hashes, long[] words) {
            this.image = new ForeignBloomImage(probing, hashes, words.clone());
            return this;
        }

        @Override
        public Builder seed(long seed) {
            this.seed = seed;
            return super.seed(seed);
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected HashScheme hashScheme() {
            return image == null ? HashScheme.XXH3_64 : image.probing().scheme();
        }

        @Override
        protected BloomFormat format() {
            return image == null ? BloomFormat.sized(expectedItems(), falsePositiveRate()) : image.format(seed);
        }

        @Override
        protected ContentWriter<BloomFilter> initialContent() {
            ForeignBloomImage content = image;
            return content == null ? null : content::writeInto;
        }

        @Override
        protected BloomFilter wrap(SketchRegion region) throws IOException {
            return read(region);
        }
    }
}
