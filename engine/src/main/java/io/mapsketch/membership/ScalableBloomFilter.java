package io.mapsketch.membership;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.CreateOption;
import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.Mergeable;
import io.mapsketch.OpenMode;
import io.mapsketch.PayloadVerification;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * A Bloom filter that grows without bound while keeping a compound false-positive rate: a chain
 * of blocked Bloom filters (links), link i sized for {@code n0 s^i} items at rate
 * {@code P (1 - r) r^i}, so the rates sum to at most P however many links there are (Almeida et
 * al., "Scalable Bloom Filters"). Inserts go to the newest link; when it has taken its capacity
 * the next link is created. Lookups check every link.
 *
 * <p>Error direction: false positives only, at most {@link #targetFalsePositiveRate()} P whatever
 * the number of items; {@link #expectedFalsePositiveRate()} is the compound rate of the links'
 * current bits. Memory grows by about the factor s per link, plus {@code log2(1/r)} bits per item
 * for each tightening.
 *
 * <p>Files: a directory holding {@code manifest.sketch} (the parameters, the number of links and
 * each link's shape, seed and creation time: {@link ScalableBloomManifest}) and one blocked Bloom
 * filter file per link. A process sees a link added by another process at its next add or lookup,
 * and refuses a link file that is not the one the manifest lists.
 *
 * <p>Concurrency: as {@link BlockedBloomFilter} within a link. Writers that find the newest link full
 * race to create the next one and exactly one creation wins; a link may take a few more items than
 * its capacity meanwhile. How the chain grows is in {@code docs/design/membership.md}.
 *
 * <p>Cost: a lookup probes one cache line per link (the key is hashed once); an add, one line of
 * the newest link. Batch lookups probe each link with the blocked kernel.
 */
// Its header format description is package-private; the protected members that return it are not API.
@SuppressWarnings("exports")
public final class ScalableBloomFilter extends MembershipFilter implements Mergeable<ScalableBloomFilter> {

    /** Name of the manifest file in the filter's directory. */
    public static final String MANIFEST = "manifest.sketch";

    private final ScalableBloomFormat format;
    private final ScalableBloomChain chain;

    private ScalableBloomFilter(SketchRegion manifest, ScalableBloomFormat format) {
        super(manifest, format.initialCapacity(), format.falsePositiveRate());
        this.format = format;
        this.chain = new ScalableBloomChain(manifest, describe(), mode(), format);
    }

    /**
     * Starts a builder: {@code expectedItems} (the first link's capacity) and {@code falsePositiveRate}
     * (the compound target) are required; the tightening ratio defaults to 0.5 and the growth factor to 2.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Opens a scalable filter from its directory; every parameter comes from the manifest.
     *
     * @param directory the filter's directory
     * @param mode read-only, shared writer or exclusive writer (links are opened in the same mode)
     * @return the open filter
     * @throws io.mapsketch.SketchFileException if the manifest or a link is not valid, or is
     *     locked against this mode, or the path is not a scalable filter's directory ({@link #manifestOf})
     * @throws IOException if a file cannot be read
     */
    public static ScalableBloomFilter open(Path directory, OpenMode mode) throws IOException {
        return open(manifestOf(directory), mode, SketchKind.SCALABLE_BLOOM, ScalableBloomFilter::read);
    }

    /**
     * Returns the manifest of a scalable filter's directory, refusing a path that is no such directory
     * in terms of the path itself.
     *
     * @param directory the filter's directory
     * @return the manifest file in it
     * @throws NoSuchFileException naming the directory if nothing is there
     * @throws CorruptSketchFileException naming the path if it is not a directory, or a directory that
     *     holds no manifest
     */
    public static Path manifestOf(Path directory) throws IOException {
        return ScalableBloomManifest.fileIn(directory);
    }

    private static ScalableBloomFilter read(SketchRegion manifest) throws IOException {
        ScalableBloomFormat format = ScalableBloomFormat.read(HeaderReader.of(manifest));
        ScalableBloomFilter filter = new ScalableBloomFilter(manifest, format);
        filter.chain.openLinks();
        return filter;
    }

    @Override
    protected ScalableBloomFormat format() {
        return format;
    }

    @Override
    protected boolean addHash(long hash) {
        BlockedBloomFilter link = chain.newest();
        return link.addLinked(hash);
    }

    @Override
    boolean containsHash(long hash) {
        for (BlockedBloomFilter link : chain.current()) {
            if (link.containsHash(hash)) {
                return true;
            }
        }
        return false;
    }

    @Override
    protected void addHashes(long[] hashes, int from, int count) {
        chain.addAll(hashes, from, count);
    }

    @Override
    void containsHashes(long[] hashes, int count, boolean[] results, int resultsFrom) {
        chain.containsAll(hashes, count, results, resultsFrom);
    }

    /**
     * Adds every key of another scalable filter to this one, link by link (growing this chain to
     * the other's length first), so this filter then answers for the union of both key sets.
     *
     * @param other a filter with the same initial capacity, rate, ratio, growth factor, hash scheme and seed
     * @throws IncompatibleSketchException naming the parameter that differs
     * @throws IllegalStateException if this filter is read-only or either is closed
     */
    @Override
    public void merge(ScalableBloomFilter other) {
        requireMergeable(other);
        requireWritable();
        chain.merge(other.chain);
        countItems(other.itemsAdded());
    }

    /** The initial capacity, rate, ratio, growth factor, hash scheme and seed, as {@link #merge} takes them. */
    @Override
    public void requireMergeable(ScalableBloomFilter other) {
        requireCompatible(Objects.requireNonNull(other, "other"), ScalableBloomFormat.SHAPE);
    }

    /**
     * Returns the number of links in the chain, as this view last saw it.
     *
     * @return links, at least 1 for a writable filter
     */
    public int links() {
        return chain.current().length;
    }

    /**
     * Returns the growth factor s: link i + 1 holds s times as many items as link i.
     *
     * @return s
     */
    public double growthFactor() {
        return format.growthFactor();
    }

    /**
     * Returns the tightening ratio r: link i + 1's rate is r times link i's.
     *
     * @return r
     */
    public double tighteningRatio() {
        return format.tighteningRatio();
    }

    /**
     * Returns the compound probability that an absent key is reported present:
     * {@code 1 - prod(1 - rate_i)} over the links' current rates. Cost: one pass over every link.
     *
     * @return the current false-positive rate, at most the target P
     */
    @Override
    public double expectedFalsePositiveRate() {
        return chain.falsePositiveRate();
    }

    /**
     * Returns the fraction of set bits over all links together.
     *
     * @return set bits / all bits
     */
    @Override
    public double fillRatio() {
        return chain.fillRatio();
    }

    /**
     * Returns the keys the links hold, each link's estimated from its fill, summed.
     *
     * @return the estimate
     */
    @Override
    public long estimatedItems() {
        return chain.estimatedItems();
    }

    @Override
    void putShape(Map<String, Object> figures) {
        figures.put("links", links());
        figures.put("growth factor", growthFactor());
        figures.put("tightening ratio", tighteningRatio());
    }

    /** An empty filter of this one's parameters and seed, in a directory, with a chain of its own. */
    @Override
    protected ScalableBloomFilter createEmptyLike(Path directory, OpenMode mode, CreateOption... options)
            throws IOException {
        return builder()
                .expectedItems(format.initialCapacity())
                .falsePositiveRate(format.falsePositiveRate())
                .tighteningRatio(format.tighteningRatio())
                .growthFactor(format.growthFactor())
                .seed(hashSeed())
                .create(directory, mode, options);
    }

    /**
     * Tells whether the compound rate exceeds the target; a scalable filter has no fixed capacity.
     *
     * @return {@code true} if {@link #expectedFalsePositiveRate()} is above the target
     */
    @Override
    public boolean isOverCapacity() {
        return expectedFalsePositiveRate() > targetFalsePositiveRate();
    }

    /**
     * Returns the memory of all links' bit arrays plus the manifest's line.
     *
     * @return bytes of sketch memory
     */
    @Override
    public long memoryBytes() {
        return super.memoryBytes() + chain.memoryBytes();
    }

    @Override
    public void force() {
        chain.force();
        super.force();
    }

    /**
     * Verifies the manifest and every link file; cost: one read of every link's payload.
     *
     * @return the worst of their verifications, naming its file
     */
    @Override
    public PayloadVerification verify() throws IOException {
        return chain.verify(super.verify());
    }

    @Override
    public void close() throws IOException {
        try {
            chain.close();
        } finally {
            super.close();
        }
    }

    /** An OR of bits: merging the same sketch again changes nothing. */
    @Override
    public boolean mergeIsIdempotent() {
        return true;
    }

    @Override
    public String toString() {
        return "ScalableBloomFilter[" + describe() + ", " + chain.seen().length + " links, " + itemsAdded() + " items]";
    }

    /** Builds a scalable Bloom filter: first-link capacity, compound rate, ratio and growth. */
    @SuppressWarnings("exports")
    public static final class Builder extends FilterBuilder<Builder, ScalableBloomFilter> {

        private double tighteningRatio = 0.5;
        private double growthFactor = 2;

        private Builder() {}

        /**
         * Sets r: each link's rate is r times the previous one's. Smaller r costs memory per link but
         * keeps more of the budget for later links.
         *
         * @param tighteningRatio r, in (0, 1); 0.5 if not set
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder tighteningRatio(double tighteningRatio) {
            if (!(tighteningRatio > 0 && tighteningRatio < 1)) {
                throw new IllegalArgumentException("tighteningRatio = " + tighteningRatio + ", must be in (0, 1)");
            }
            this.tighteningRatio = tighteningRatio;
            return this;
        }

        /**
         * Sets s: each link holds s times as many items as the previous one.
         *
         * @param growthFactor s, in [1, 1000000); 2 if not set
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder growthFactor(double growthFactor) {
            if (!(growthFactor >= 1 && growthFactor < 1e6)) {
                throw new IllegalArgumentException("growthFactor = " + growthFactor + ", must be in [1, 1000000)");
            }
            this.growthFactor = growthFactor;
            return this;
        }

        /**
         * Creates the filter in a directory (created if missing): its manifest and the first link. With
         * {@link CreateOption#OVERWRITE_EXISTING} the new manifest replaces an existing one and the old
         * chain's link files are deleted; the new chain's links have names of their own, so none of the
         * old chain is ever read as part of the new one.
         *
         * @param directory the filter's directory
         * @param mode {@code SHARED} or {@code EXCLUSIVE}
         * @param options {@link CreateOption#OVERWRITE_EXISTING} to replace an existing filter
         * @return the open filter, empty
         * @throws java.nio.file.FileAlreadyExistsException if the directory already holds a filter
         * @throws IllegalArgumentException if the first link cannot be sized (nothing is written)
         * @throws IOException if a file cannot be written or an old link cannot be deleted
         */
        @Override
        public ScalableBloomFilter create(Path directory, OpenMode mode, CreateOption... options) throws IOException {
            header();
            Files.createDirectories(directory);
            ScalableBloomFilter filter = super.create(directory.resolve(MANIFEST), mode, options);
            try {
                filter.chain.removeOtherLinks();
                return filter;
            } catch (IOException | RuntimeException e) {
                try {
                    filter.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            }
        }

        @Override
        protected Builder self() {
            return this;
        }

        /** The parameters, with a new chain's generation, drawn for each creation. */
        @Override
        protected ScalableBloomFormat format() {
            return ScalableBloomFormat.sized(expectedItems(), falsePositiveRate(), tighteningRatio, growthFactor);
        }

        @Override
        protected ScalableBloomFilter wrap(SketchRegion region) throws IOException {
            return read(region);
        }
    }
}
