package io.mapsketch.membership;

import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.Mergeable;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.kernels.BlockedBloomKernels;
import io.mapsketch.memory.SketchHeader;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * The cache-line blocked Bloom filter, mapsketch's default for speed: one hash picks a 512-bit
 * (64-byte) block and a pattern of one bit in each of its eight 64-bit words (or two, for very low
 * rates), so an add or lookup touches exactly one cache line. The layout is the kernels' contract,
 * drawn in {@code docs/file-format.md}.
 *
 * <p>Error direction: false positives only. Blocking costs accuracy, because blocks fill unevenly
 * (at 10 bits per key about 1.05% instead of the classic 0.82%); the sizing therefore uses the
 * Poisson mixture over block loads ({@link BlockedBloomSizing#falsePositiveRate}), not the classic
 * formula, so the rate asked for is the rate measured at capacity: 10.1 bits per key for 1%,
 * 15.7 for 0.1%.
 *
 * <p>Concurrency: as {@link BloomFilter}: {@code SHARED} writers OR words atomically and only where
 * bits are missing; the {@code EXCLUSIVE} writer uses the plain kernels. Concurrent adds leave the
 * same bits as sequential ones. Lookups read blocks with plain (vector) loads, with the visibility
 * the classic filter documents.
 *
 * <p>Cost: one cache line per key, tested with one 64-byte vector load and no branch on memory, so
 * consecutive lookups overlap their cache misses (about 25 ns per key at 50M keys, where a DRAM
 * access takes 160 ns; see {@code docs/design/membership.md}). Batch lookups ({@link #mightContainAll})
 * also hash with the SIMD kernel and touch the blocks of 256 keys before testing them (about 15 ns
 * per key at 50M keys).
 */
// Its header format description is package-private; the protected members that return it are not API.
@SuppressWarnings("exports")
public final class BlockedBloomFilter extends MembershipFilter implements Mergeable<BlockedBloomFilter> {

    private static final int BLOCK_BYTES = BlockedBloomKernels.BLOCK_BYTES;
    private static final int WORDS = BLOCK_BYTES / Long.BYTES;

    private final BlockedBloomFormat format;
    private final long blocks;
    private final int bitsPerKey;

    private BlockedBloomFilter(SketchRegion region, BlockedBloomFormat format) {
        super(region, format.expectedItems(), format.falsePositiveRate());
        this.format = format;
        this.blocks = format.blocks();
        this.bitsPerKey = format.bitsPerKey();
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
     * Opens a blocked Bloom filter file; every parameter comes from its header.
     *
     * @param file the filter file
     * @param mode read-only, shared writer or exclusive writer
     * @return the open filter
     * @throws io.mapsketch.SketchFileException if the file is not a valid blocked Bloom
     *     filter, or is locked against this mode
     * @throws IOException if the file cannot be read
     */
    public static BlockedBloomFilter open(Path file, OpenMode mode) throws IOException {
        return open(file, mode, SketchKind.BLOCKED_BLOOM, BlockedBloomFilter::read);
    }

    private static BlockedBloomFilter read(SketchRegion region) throws IOException {
        return new BlockedBloomFilter(region, BlockedBloomFormat.read(HeaderReader.of(region)));
    }

    @Override
    protected BlockedBloomFormat format() {
        return format;
    }

    @Override
    protected boolean addHash(long hash) {
        return sharedWriters
                ? BlockedBloomKernels.addOneAtomic(payload.segment(), 0, blocks, bitsPerKey, hash)
                : BlockedBloomKernels.addOne(payload.segment(), 0, blocks, bitsPerKey, hash);
    }

    @Override
    boolean containsHash(long hash) {
        return BlockedBloomKernels.mightContainOne(payload.segment(), 0, blocks, bitsPerKey, hash);
    }

    @Override
    protected void addHashes(long[] hashes, int from, int count) {
        if (sharedWriters) {
            BlockedBloomKernels.addAtomic(payload.segment(), 0, blocks, bitsPerKey, hashes, from, count);
        } else {
            BlockedBloomKernels.add(payload.segment(), 0, blocks, bitsPerKey, hashes, from, count);
        }
    }

    @Override
    void containsHashes(long[] hashes, int count, boolean[] results, int resultsFrom) {
        BlockedBloomKernels.mightContain(
                payload.segment(), 0, blocks, bitsPerKey, hashes, 0, count, results, resultsFrom);
    }

    /**
     * ORs another filter into this one: afterwards it answers for the union of both key sets,
     * exactly as if every key of both had been added here.
     *
     * <p>Cost: one pass over both bit arrays (SIMD in {@code EXCLUSIVE} mode, atomic ORs of the words
     * that gain bits in {@code SHARED} mode).
     *
     * @param other a filter with the same blocks, bits per key, hash scheme and seed
     * @throws IncompatibleSketchException naming the parameter that differs
     * @throws IllegalStateException if this filter is read-only or either is closed
     */
    @Override
    public void merge(BlockedBloomFilter other) {
        requireMergeable(other);
        orIn(other);
    }

    /** The blocks, bits per key, hash scheme and seed, as {@link #merge} takes them. */
    @Override
    public void requireMergeable(BlockedBloomFilter other) {
        requireCompatible(Objects.requireNonNull(other, "other"), BlockedBloomFormat.SHAPE);
    }

    /** Adds one hash forwarded by the scalable filter this is a link of, and counts it. */
    boolean addLinked(long hash) {
        boolean changed = addHash(hash);
        countItems(1);
        return changed;
    }

    /** Adds hashes forwarded by the scalable filter this is a link of, and counts them. */
    void addLinked(long[] hashes, int from, int count) {
        addHashes(hashes, from, count);
        countItems(count);
    }

    /** Creation time recorded in this link's header, milliseconds since the epoch. */
    long createdMillis() {
        return region.header().createdMillis();
    }

    /**
     * Returns the number of 512-bit blocks.
     *
     * @return blocks
     */
    public long blockCount() {
        return blocks;
    }

    /**
     * Returns the bits each key sets in its block: 8 (one per word) or 16 (two per word).
     *
     * @return 8 or 16
     */
    public int bitsPerKey() {
        return bitsPerKey;
    }

    @Override
    public double fillRatio() {
        return bitFillRatio(blocks * BLOCK_BYTES * 8);
    }

    @Override
    public long estimatedItems() {
        return itemsOfFill(blocks * BLOCK_BYTES * 8.0, bitsPerKey, fillRatio());
    }

    /** The blocks and the bits each key sets in its block (its probes: the memory per key is another figure). */
    @Override
    void putShape(Map<String, Object> figures) {
        figures.put("blocks", blocks);
        figures.put("probes per key", bitsPerKey);
    }

    /**
     * Returns the probability that a key never added is reported present, computed exactly from the
     * filter's current bits: the mean over blocks of the product, over the eight words, of the chance
     * that the word holds a random probe pattern. Cost: one pass over the bit array.
     *
     * @return the current false-positive rate
     * @throws IllegalStateException if the filter is closed
     */
    @Override
    public double expectedFalsePositiveRate() {
        double sum = 0;
        int probesPerWord = bitsPerKey / WORDS;
        for (long block = 0; block < blocks; block++) {
            double product = 1;
            for (int w = 0; w < WORDS; w++) {
                double set = Long.bitCount(payload.getLongAcquire(block * BLOCK_BYTES + (long) w * Long.BYTES)) / 64.0;
                product *= probesPerWord == 1 ? set : set * set;
            }
            sum += product;
        }
        return sum / blocks;
    }

    /** An OR of bits: merging the same sketch again changes nothing. */
    @Override
    public boolean mergeIsIdempotent() {
        return true;
    }

    @Override
    public String toString() {
        return "BlockedBloomFilter[" + describe() + ", " + blocks + " blocks, " + bitsPerKey + " bits per key, "
                + itemsAdded() + " items]";
    }

    /** Builds a blocked Bloom filter from the expected items and the false-positive rate. */
    @SuppressWarnings("exports")
    public static final class Builder extends FilterBuilder<Builder, BlockedBloomFilter> {

        private Builder() {}

        /** Sizes the filter as {@code create} would, writing nothing; refuses parameters that cannot be sized. */
        void requireSizable() {
            header();
        }

        /** The header {@code create} would write, sized; refuses parameters that cannot be sized. */
        SketchHeader sizedHeader() {
            return header();
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected BlockedBloomFormat format() {
            return BlockedBloomFormat.sized(expectedItems(), falsePositiveRate());
        }

        @Override
        protected BlockedBloomFilter wrap(SketchRegion region) throws IOException {
            return read(region);
        }
    }
}
