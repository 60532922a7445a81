package io.mapsketch.membership;

import io.mapsketch.internal.HeaderFields;
import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.memory.CorruptSketchFileException;
import io.mapsketch.memory.CreateOption;
import io.mapsketch.memory.OpenMode;
import io.mapsketch.memory.PayloadVerification;
import io.mapsketch.memory.SketchFileLayout;
import io.mapsketch.memory.SketchKind;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

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
 * <p>Files: a directory holding {@code manifest.sketch} (the parameters, the number of links as an
 * atomic word, and each link's shape, seed and creation time: {@link ScalableBloomManifest}) and one
 * blocked Bloom filter file per link, named by the chain's generation and the link's index. A link
 * appears atomically and complete; a process that opened the directory sees a link added by another
 * process at its next add or lookup, and refuses a link file that is not the one the manifest lists.
 *
 * <p>Concurrency: as {@link BlockedBloomFilter} within a link. When the newest link is full,
 * concurrent writers race to create the next one; exactly one creation wins and the others open
 * its file. A link may take a few more items than its capacity while that happens.
 *
 * <p>Cost: a lookup probes one cache line per link (the key is hashed once); an add, one line of
 * the newest link. Batch lookups probe each link with the blocked kernel.
 */
public final class ScalableBloomFilter extends MembershipFilter {

    /** Name of the manifest file in the filter's directory. */
    public static final String MANIFEST = "manifest.sketch";

    private static final int INITIAL_CAPACITY = 0;
    private static final int FALSE_POSITIVE_RATE = 1;
    private static final int TIGHTENING_RATIO = 2;
    private static final int GROWTH_FACTOR = 3;
    private static final int GENERATION = 4;
    private static final String[] PARAMETER_NAMES = {"initial capacity", "false-positive rate",
        "tightening ratio", "growth factor"};

    private final Path directory;
    private final ScalableBloomManifest manifest;
    private final double tighteningRatio;
    private final double growthFactor;
    private volatile BlockedBloomFilter[] links = new BlockedBloomFilter[0];

    private ScalableBloomFilter(SketchRegion manifest, Path directory, long generation, long initialCapacity,
                                double rate, double tighteningRatio, double growthFactor) {
        super(manifest, initialCapacity, rate);
        this.directory = directory;
        this.manifest = ScalableBloomManifest.of(payload, manifest.header().formatVersion(), directory, generation);
        this.tighteningRatio = tighteningRatio;
        this.growthFactor = growthFactor;
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
     * @throws io.mapsketch.memory.SketchFileException if the manifest or a link is not valid, or is
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
        Path manifest = directory.resolve(MANIFEST);
        if (Files.exists(manifest, LinkOption.NOFOLLOW_LINKS)) {
            return manifest;
        }
        if (!Files.exists(directory)) {
            throw new NoSuchFileException(directory.toString());
        }
        throw new CorruptSketchFileException(directory, Files.isDirectory(directory)
                ? "is a directory but not a scalable Bloom filter (it holds no manifest)"
                : "is not a directory, and a scalable Bloom filter is one");
    }

    private static ScalableBloomFilter read(SketchRegion manifest) throws IOException {
        long initial = HeaderFields.parameter(manifest, INITIAL_CAPACITY, "initial capacity", 1, Long.MAX_VALUE);
        double rate = HeaderFields.openIntervalParameter(manifest, FALSE_POSITIVE_RATE, "false-positive rate", 0, 1);
        double ratio = HeaderFields.openIntervalParameter(manifest, TIGHTENING_RATIO, "tightening ratio", 0, 1);
        double growth = HeaderFields.openIntervalParameter(manifest, GROWTH_FACTOR, "growth factor", 0.999, 1e6);
        int version = manifest.header().formatVersion();
        long generation = manifest.header().parameter(GENERATION);
        if ((generation == 0) == (version >= ScalableBloomManifest.LISTED_LINKS_VERSION)) {
            throw new CorruptSketchFileException(manifest.file().orElse(null), "header parameter 'link generation'"
                    + " (index " + GENERATION + ") is " + generation + ", expected "
                    + (generation == 0 ? "a non-zero value" : "zero") + " in format version " + version);
        }
        HeaderFields.requirePayload(manifest, ScalableBloomManifest.payloadBytes(version),
                ScalableBloomManifest.payloadDerivation(version));
        Path directory = manifest.file().map(Path::getParent).orElse(null);
        ScalableBloomFilter filter = new ScalableBloomFilter(manifest, directory, generation, initial, rate, ratio,
                growth);
        try {
            if (filter.manifest.linkCount() == 0 && manifest.mode().isWritable()) {
                filter.grow(0);
            }
            filter.refresh();
            return filter;
        } catch (IOException | RuntimeException e) {
            filter.closeLinks();
            throw e;
        }
    }

    /** The capacity of link i: {@code ceil(n0 * s^i)}. */
    long linkCapacity(int index) {
        return (long) Math.min(Long.MAX_VALUE, Math.ceil(expectedItems() * Math.pow(growthFactor, index)));
    }

    /** The rate of link i: {@code P (1 - r) r^i}. */
    double linkRate(int index) {
        return linkRate(targetFalsePositiveRate(), tighteningRatio, index);
    }

    private static double linkRate(double rate, double tighteningRatio, int index) {
        return rate * (1 - tighteningRatio) * Math.pow(tighteningRatio, index);
    }

    /** Opens the links that other writers (or processes) added since this view last looked. */
    private BlockedBloomFilter[] refresh() throws IOException {
        BlockedBloomFilter[] current = links;
        if (manifest.linkCount() == current.length) {
            return current;
        }
        synchronized (this) {
            current = links;
            long count = manifest.linkCount();
            if (count > ScalableBloomManifest.MAX_LINKS) {
                throw new CorruptSketchFileException(region.file().orElse(null),
                        "link count is " + count + ", expected at most " + ScalableBloomManifest.MAX_LINKS);
            }
            BlockedBloomFilter[] grown = Arrays.copyOf(current, (int) count);
            try {
                for (int i = current.length; i < count; i++) {
                    grown[i] = BlockedBloomFilter.open(manifest.linkFile(i), mode());
                    manifest.validate(i, grown[i], linkCapacity(i), linkRate(i), hashSeed(),
                            region.file().orElse(null));
                }
            } catch (IOException | RuntimeException e) {
                closeAll(Arrays.copyOfRange(grown, current.length, grown.length), e);
                throw e;
            }
            links = grown;
            return grown;
        }
    }

    /** Creates link {@code index} (or opens it if another writer won the race) and publishes the count. */
    private synchronized void grow(int index) throws IOException {
        if (links.length > index || manifest.linkCount() > index) {
            return;
        }
        if (index >= ScalableBloomManifest.MAX_LINKS) {
            throw new IllegalStateException(describe() + " has " + ScalableBloomManifest.MAX_LINKS + " links;"
                    + " recreate it with a larger initial capacity or growth factor");
        }
        BlockedBloomFilter.Builder builder;
        try {
            builder = BlockedBloomFilter.builder().expectedItems(linkCapacity(index)).falsePositiveRate(linkRate(index))
                    .seed(hashSeed());
            builder.requireSizable();
        } catch (IllegalArgumentException unsizable) {
            throw new IllegalStateException(describe() + " cannot grow: link " + index + " (" + linkCapacity(index)
                    + " items at rate " + linkRate(index) + ") cannot be sized (" + unsizable.getMessage()
                    + "); recreate it with a larger initial capacity, growth factor or tightening ratio", unsizable);
        }
        BlockedBloomFilter link;
        if (directory == null) {
            link = builder.createAnonymous(mode());
        } else {
            Path file = manifest.linkFile(index);
            try {
                link = builder.create(file, mode());
            } catch (FileAlreadyExistsException raced) {
                link = BlockedBloomFilter.open(file, mode());
                try {
                    manifest.validate(index, link, linkCapacity(index), linkRate(index), hashSeed(),
                            region.file().orElse(null));
                } catch (IOException | RuntimeException e) {
                    closeAll(new BlockedBloomFilter[] {link}, e);
                    throw e;
                }
            }
        }
        manifest.record(index, link);
        manifest.advance(index);
        BlockedBloomFilter[] grown = Arrays.copyOf(links, index + 1);
        grown[index] = link;
        links = grown;
    }

    /** The newest link, after growing the chain if it is full. */
    private BlockedBloomFilter newestLink() {
        try {
            BlockedBloomFilter[] current = refresh();
            int last = current.length - 1;
            if (current[last].itemsAdded() < linkCapacity(last)) {
                return current[last];
            }
            grow(last + 1);
            current = refresh();
            return current[current.length - 1];
        } catch (IOException e) {
            throw new UncheckedIOException(describe() + ": cannot open or create the next link", e);
        }
    }

    private BlockedBloomFilter[] currentLinks() {
        try {
            return refresh();
        } catch (IOException e) {
            throw new UncheckedIOException(describe() + ": cannot open a link added by another writer", e);
        }
    }

    @Override
    protected boolean addHash(long hash) {
        BlockedBloomFilter link = newestLink();
        return link.addLinked(hash);
    }

    @Override
    boolean containsHash(long hash) {
        for (BlockedBloomFilter link : currentLinks()) {
            if (link.containsHash(hash)) {
                return true;
            }
        }
        return false;
    }

    @Override
    protected void addHashes(long[] hashes, int from, int count) {
        int done = 0;
        while (done < count) {
            BlockedBloomFilter link = newestLink();
            long room = linkCapacity(links.length - 1) - link.itemsAdded();
            int n = (int) Math.max(1, Math.min(count - done, room));
            link.addLinked(hashes, from + done, n);
            done += n;
        }
    }

    @Override
    void containsHashes(long[] hashes, int count, boolean[] results, int resultsFrom) {
        BlockedBloomFilter[] current = currentLinks();
        if (current.length == 0) {
            Arrays.fill(results, resultsFrom, resultsFrom + count, false);
            return;
        }
        current[0].containsHashes(hashes, count, results, resultsFrom);
        if (current.length > 1) {
            boolean[] inLink = new boolean[count];
            for (int i = 1; i < current.length; i++) {
                current[i].containsHashes(hashes, count, inLink, 0);
                for (int j = 0; j < count; j++) {
                    results[resultsFrom + j] |= inLink[j];
                }
            }
        }
    }

    /**
     * Adds every key of another scalable filter to this one, link by link (growing this chain to
     * the other's length first), so this filter then answers for the union of both key sets.
     *
     * @param other a filter with the same initial capacity, rate, ratio, growth factor, hash scheme and seed
     * @throws IncompatibleSketchException naming the parameter that differs
     * @throws IllegalStateException if this filter is read-only or either is closed
     */
    public void merge(ScalableBloomFilter other) {
        Objects.requireNonNull(other, "other");
        requireWritable();
        requireCompatible(other, PARAMETER_NAMES);
        BlockedBloomFilter[] theirs = other.currentLinks();
        try {
            while (currentLinks().length < theirs.length) {
                grow(links.length);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(describe() + ": cannot create a link to merge into", e);
        }
        BlockedBloomFilter[] mine = currentLinks();
        for (int i = 0; i < theirs.length; i++) {
            mine[i].merge(theirs[i]);
        }
        countItems(other.itemsAdded());
    }

    /**
     * Returns the number of links in the chain, as this view last saw it.
     *
     * @return links, at least 1 for a writable filter
     */
    public int links() {
        return currentLinks().length;
    }

    /**
     * Returns the growth factor s: link i + 1 holds s times as many items as link i.
     *
     * @return s
     */
    public double growthFactor() {
        return growthFactor;
    }

    /**
     * Returns the tightening ratio r: link i + 1's rate is r times link i's.
     *
     * @return r
     */
    public double tighteningRatio() {
        return tighteningRatio;
    }

    /**
     * Returns the compound probability that an absent key is reported present:
     * {@code 1 - prod(1 - rate_i)} over the links' current rates. Cost: one pass over every link.
     *
     * @return the current false-positive rate, at most the target P
     */
    @Override
    public double expectedFalsePositiveRate() {
        double allNegative = 1;
        for (BlockedBloomFilter link : currentLinks()) {
            allNegative *= 1 - link.expectedFalsePositiveRate();
        }
        return 1 - allNegative;
    }

    /**
     * Returns the fraction of set bits over all links together.
     *
     * @return set bits / all bits
     */
    @Override
    public double fillRatio() {
        double set = 0;
        double bits = 0;
        for (BlockedBloomFilter link : currentLinks()) {
            double linkBits = link.blockCount() * 512.0;
            set += link.fillRatio() * linkBits;
            bits += linkBits;
        }
        return set / bits;
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
        long bytes = super.memoryBytes();
        for (BlockedBloomFilter link : currentLinks()) {
            bytes += link.memoryBytes();
        }
        return bytes;
    }

    @Override
    public void force() {
        for (BlockedBloomFilter link : currentLinks()) {
            link.force();
        }
        super.force();
    }

    /**
     * Verifies the manifest and every link file; cost: one read of every link's payload.
     *
     * @return the worst of their verifications, naming its file
     */
    @Override
    public PayloadVerification verify() throws IOException {
        PayloadVerification worst = super.verify();
        for (BlockedBloomFilter link : currentLinks()) {
            worst = worst.worseOf(link.verify());
        }
        return worst;
    }

    @Override
    public void close() throws IOException {
        try {
            closeLinks();
        } finally {
            super.close();
        }
    }

    private void closeLinks() throws IOException {
        IOException failure = null;
        for (BlockedBloomFilter link : links) {
            try {
                link.close();
            } catch (IOException e) {
                failure = e;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static void closeAll(BlockedBloomFilter[] opened, Exception failure) {
        for (BlockedBloomFilter link : opened) {
            if (link != null) {
                try {
                    link.close();
                } catch (IOException suppressed) {
                    failure.addSuppressed(suppressed);
                }
            }
        }
    }

    @Override
    public String toString() {
        return "ScalableBloomFilter[" + describe() + ", " + links.length + " links, " + itemsAdded() + " items]";
    }

    /** Builds a scalable Bloom filter: first-link capacity, compound rate, ratio and growth. */
    public static final class Builder extends FilterBuilder<Builder, ScalableBloomFilter> {

        private double tighteningRatio = 0.5;
        private double growthFactor = 2;

        private Builder() {
        }

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
        public ScalableBloomFilter create(Path directory, OpenMode mode, CreateOption... options)
                throws IOException {
            header();
            Files.createDirectories(directory);
            ScalableBloomFilter filter = super.create(directory.resolve(MANIFEST), mode, options);
            try {
                filter.manifest.removeOtherLinks();
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

        @Override
        protected SketchKind kind() {
            return SketchKind.SCALABLE_BLOOM;
        }

        /** The parameters, with a new chain's generation: random, never zero, drawn for each creation. */
        @Override
        protected long[] parameters() {
            requireFirstLinkSizable();
            long generation;
            do {
                generation = ThreadLocalRandom.current().nextLong();
            } while (generation == 0);
            return new long[] {expectedItems(), Double.doubleToLongBits(falsePositiveRate()),
                Double.doubleToLongBits(tighteningRatio), Double.doubleToLongBits(growthFactor), generation};
        }

        /** Refuses a rate whose first link, {@code n0} items at {@code P (1 - r)}, no blocked filter reaches. */
        private void requireFirstLinkSizable() {
            double linkRate = linkRate(falsePositiveRate(), tighteningRatio, 0);
            double lowest = BlockedBloomSizing.lowestRate(expectedItems());
            if (!(linkRate >= lowest)) {
                throw new IllegalArgumentException("falsePositiveRate = " + falsePositiveRate() + " with tighteningRatio = "
                        + tighteningRatio + " gives the first link (expectedItems = " + expectedItems() + ") the rate"
                        + " P (1 - r) = " + linkRate + ", which must be in [" + lowest + ", 1): the lowest rate of a"
                        + " blocked Bloom filter of that many items; fewer items reach lower rates");
            }
        }

        @Override
        protected long payloadBytes() {
            return ScalableBloomManifest.payloadBytes(SketchFileLayout.FORMAT_VERSION);
        }

        @Override
        protected ScalableBloomFilter wrap(SketchRegion region) throws IOException {
            return read(region);
        }
    }
}
