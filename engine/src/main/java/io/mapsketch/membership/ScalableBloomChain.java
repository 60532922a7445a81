package io.mapsketch.membership;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.OpenMode;
import io.mapsketch.PayloadVerification;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The chain of links of one open scalable Bloom filter: link i is a blocked Bloom filter sized for
 * {@code ceil(n0 s^i)} items at rate {@code P (1 - r) r^i}; the chain grows by one link when the
 * newest is full, and opens, in this view, the links that other writers or processes added. Every
 * link is checked against its manifest entry before it is used. The filter's figures over all links
 * (rate, fill, estimated items, memory), its force and its verification come from here too. Why the
 * rates and the race are shaped so is in {@code docs/design/membership.md}.
 *
 * <p>Concurrency: the links array is replaced, never changed, and published through a volatile
 * field; growing and opening new links are serialised per view, and writers in other views race
 * through the link file's creation ({@link ScalableBloomManifest}). Cost: a look at the chain is a
 * volatile load and a load of the manifest's link count; opening or creating a link maps its file.
 */
final class ScalableBloomChain {

    /** The filter's directory, or {@code null} for an anonymous filter (links are anonymous too). */
    private final Path directory;

    private final ScalableBloomManifest manifest;
    /** The manifest file, for messages; {@code null} when anonymous. */
    private final Path manifestFile;
    /** The filter as messages name it. */
    private final String name;

    private final OpenMode mode;
    private final long seed;
    private final long initialCapacity;
    private final double rate;
    private final double tighteningRatio;
    private final double growthFactor;
    private volatile BlockedBloomFilter[] links = new BlockedBloomFilter[0];

    /**
     * The chain of the manifest in {@code manifestRegion}, of the filter {@code name} open in {@code mode}:
     * its links live beside the manifest file and hash with its seed; no link is opened yet.
     */
    ScalableBloomChain(SketchRegion manifestRegion, String name, OpenMode mode, ScalableBloomFormat format) {
        this.manifestFile = manifestRegion.file().orElse(null);
        this.directory = manifestFile == null ? null : manifestFile.getParent();
        this.manifest = ScalableBloomManifest.of(manifestRegion.payload(), directory, format);
        this.name = name;
        this.mode = mode;
        this.seed = manifestRegion.header().hashSeed();
        this.initialCapacity = format.initialCapacity();
        this.rate = format.falsePositiveRate();
        this.tighteningRatio = format.tighteningRatio();
        this.growthFactor = format.growthFactor();
    }

    /** The rate of link i of a chain of compound rate P and tightening ratio r: {@code P (1 - r) r^i}. */
    static double linkRate(double rate, double tighteningRatio, int index) {
        return rate * (1 - tighteningRatio) * Math.pow(tighteningRatio, index);
    }

    /**
     * Refuses a rate whose first link, {@code n0} items at {@code P (1 - r)}, no blocked filter reaches.
     *
     * @throws IllegalArgumentException naming the rate, the ratio, the first link's rate and its range
     */
    static void requireFirstLinkSizable(long expectedItems, double rate, double tighteningRatio) {
        double linkRate = linkRate(rate, tighteningRatio, 0);
        double lowest = BlockedBloomSizing.lowestRate(expectedItems);
        if (!(linkRate >= lowest)) {
            throw new IllegalArgumentException("falsePositiveRate = " + rate + " with tighteningRatio = "
                    + tighteningRatio + " gives the first link (expectedItems = " + expectedItems + ") the rate"
                    + " P (1 - r) = " + linkRate + ", which must be in [" + lowest + ", 1): the lowest rate of a"
                    + " blocked Bloom filter of that many items; fewer items reach lower rates");
        }
    }

    /** The capacity of link i: {@code ceil(n0 * s^i)}. */
    long linkCapacity(int index) {
        return (long) Math.min(Long.MAX_VALUE, Math.ceil(initialCapacity * Math.pow(growthFactor, index)));
    }

    /** The rate of link i: {@code P (1 - r) r^i}. */
    double linkRate(int index) {
        return linkRate(rate, tighteningRatio, index);
    }

    /**
     * Opens the links the manifest lists, first creating link 0 if a writable filter has none yet; closes
     * the links it opened if one is refused.
     */
    void openLinks() throws IOException {
        try {
            if (manifest.linkCount() == 0 && mode.isWritable()) {
                grow(0);
            }
            refresh();
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** The links as this view last saw them, without looking for new ones. */
    BlockedBloomFilter[] seen() {
        return links;
    }

    /** The links, after opening those that other writers added since this view last looked. */
    BlockedBloomFilter[] current() {
        try {
            return refresh();
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": cannot open a link added by another writer", e);
        }
    }

    /** The newest link, after growing the chain if it is full. */
    BlockedBloomFilter newest() {
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
            throw new UncheckedIOException(name + ": cannot open or create the next link", e);
        }
    }

    /**
     * Adds the hashes {@code hashes[from, from + count)} to the newest link, growing the chain whenever
     * that link has taken its capacity.
     */
    void addAll(long[] hashes, int from, int count) {
        int done = 0;
        while (done < count) {
            BlockedBloomFilter link = newest();
            long room = linkCapacity(links.length - 1) - link.itemsAdded();
            int n = (int) Math.max(1, Math.min(count - done, room));
            link.addLinked(hashes, from + done, n);
            done += n;
        }
    }

    /**
     * Merges another chain of the same parameters link by link, growing this one to the other's length
     * first.
     */
    void merge(ScalableBloomChain other) {
        BlockedBloomFilter[] theirs = other.current();
        try {
            while (current().length < theirs.length) {
                grow(links.length);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": cannot create a link to merge into", e);
        }
        BlockedBloomFilter[] mine = current();
        for (int i = 0; i < theirs.length; i++) {
            mine[i].merge(theirs[i]);
        }
    }

    /**
     * Looks up a batch of hashes in every link ({@link MembershipFilter#containsHashes}): the first link
     * writes the answers, each later one ORs its own in.
     */
    void containsAll(long[] hashes, int count, boolean[] results, int resultsFrom) {
        BlockedBloomFilter[] current = current();
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

    /** The compound false-positive rate of the links' current bits: {@code 1 - prod(1 - rate_i)}. */
    double falsePositiveRate() {
        double allNegative = 1;
        for (BlockedBloomFilter link : current()) {
            allNegative *= 1 - link.expectedFalsePositiveRate();
        }
        return 1 - allNegative;
    }

    /** The fraction of set bits over all links together. */
    double fillRatio() {
        double set = 0;
        double bits = 0;
        for (BlockedBloomFilter link : current()) {
            double linkBits = link.blockCount() * 512.0;
            set += link.fillRatio() * linkBits;
            bits += linkBits;
        }
        return set / bits;
    }

    /** The keys the links hold, each link's estimated from its fill, summed (at most {@code Long.MAX_VALUE}). */
    long estimatedItems() {
        long sum = 0;
        for (BlockedBloomFilter link : current()) {
            long items = link.estimatedItems();
            sum = items > Long.MAX_VALUE - sum ? Long.MAX_VALUE : sum + items;
        }
        return sum;
    }

    /** The memory of the links' bit arrays. */
    long memoryBytes() {
        long bytes = 0;
        for (BlockedBloomFilter link : current()) {
            bytes += link.memoryBytes();
        }
        return bytes;
    }

    /** Makes every link's bits durable. */
    void force() {
        for (BlockedBloomFilter link : current()) {
            link.force();
        }
    }

    /**
     * Verifies every link: the worst of the manifest's verification and the links' (of equal ones the
     * first, the manifest's before the links').
     */
    PayloadVerification verify(PayloadVerification manifestVerification) throws IOException {
        PayloadVerification worst = manifestVerification;
        for (BlockedBloomFilter link : current()) {
            worst = worst.worseOf(link.verify());
        }
        return worst;
    }

    /** Deletes the link files in the directory that are not this chain's (those of a chain it replaced). */
    void removeOtherLinks() throws IOException {
        manifest.removeOtherLinks();
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
                throw new CorruptSketchFileException(
                        manifestFile,
                        "link count is " + count + ", expected at most " + ScalableBloomManifest.MAX_LINKS);
            }
            BlockedBloomFilter[] grown = Arrays.copyOf(current, (int) count);
            try {
                for (int i = current.length; i < count; i++) {
                    grown[i] = BlockedBloomFilter.open(manifest.linkFile(i), mode);
                    manifest.validate(i, grown[i], linkCapacity(i), linkRate(i), seed, manifestFile);
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
            throw new IllegalStateException(name + " has " + ScalableBloomManifest.MAX_LINKS + " links;"
                    + " recreate it with a larger initial capacity or growth factor");
        }
        BlockedBloomFilter.Builder builder;
        try {
            builder = BlockedBloomFilter.builder()
                    .expectedItems(linkCapacity(index))
                    .falsePositiveRate(linkRate(index))
                    .seed(seed);
            builder.requireSizable();
        } catch (IllegalArgumentException unsizable) {
            throw new IllegalStateException(
                    name + " cannot grow: link " + index + " (" + linkCapacity(index)
                            + " items at rate " + linkRate(index) + ") cannot be sized (" + unsizable.getMessage()
                            + "); recreate it with a larger initial capacity, growth factor or tightening ratio",
                    unsizable);
        }
        BlockedBloomFilter link;
        if (directory == null) {
            link = builder.createAnonymous(mode);
        } else {
            Path file = manifest.linkFile(index);
            try {
                link = builder.create(file, mode);
            } catch (FileAlreadyExistsException raced) {
                link = BlockedBloomFilter.open(file, mode);
                try {
                    manifest.validate(index, link, linkCapacity(index), linkRate(index), seed, manifestFile);
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

    /** Closes every link this view opened; throws the last failure after trying them all. */
    void close() throws IOException {
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
}
