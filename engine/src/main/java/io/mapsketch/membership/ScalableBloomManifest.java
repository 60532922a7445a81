package io.mapsketch.membership;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.memory.AtomicSegment;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The payload of a scalable Bloom filter's manifest: the number of links and, from format version
 * {@value ScalableBloomFormat#LISTED_LINKS_VERSION}, one entry per link with the shape, seed and creation time of the
 * link file it names, so that opening refuses a link file that is not the one the chain recorded.
 * Link files of such manifests carry the manifest's generation (a random
 * number drawn at creation) in their names, so a manifest created over an old one never adopts a
 * link of the old chain.
 *
 * <pre>
 * offset        size  field
 * ------------  ----  ----------------------------------------------------------
 *            0     8  link count (compare-and-set from i to i + 1)
 *            8    56  reserved, zero
 *     64 + 32 i    8  link i: blocks
 *  64 + 32 i + 8   8  link i: hash seed
 * 64 + 32 i + 16   8  link i: the link file's creation time (header offset 48)
 * 64 + 32 i + 24   4  link i: bits per key
 * 64 + 32 i + 28   4  reserved, zero
 * </pre>
 *
 * <p>Concurrency: a writer that creates (or, losing the race, opens) link i stores its entry, then
 * advances the count with a compare-and-set; racing writers store the same entry for the same file.
 * A reader that loads the count with acquire sees the entries below it.
 */
final class ScalableBloomManifest {

    /** The most links a chain may have. */
    static final int MAX_LINKS = 10_000;

    private static final long LINK_COUNT = 0;
    private static final long ENTRIES = 64;
    private static final int ENTRY_BYTES = 32;
    private static final long BLOCKS = 0;
    private static final long SEED = 8;
    private static final long CREATED = 16;
    private static final long BITS_PER_KEY = 24;
    private static final String LINK_PREFIX = "link-";
    private static final String LINK_SUFFIX = ".sketch";
    /** A link's rate is recomputed with {@code Math.pow}, which may differ in the last bits between JVMs. */
    private static final double RATE_TOLERANCE = 1e-12;

    private final AtomicSegment payload;
    private final Path directory;
    private final long generation;
    private final boolean listed;

    private ScalableBloomManifest(AtomicSegment payload, Path directory, long generation, boolean listed) {
        this.payload = payload;
        this.directory = directory;
        this.generation = generation;
        this.listed = listed;
    }

    /**
     * The manifest of the chain a manifest file's header describes, for links in {@code directory}
     * ({@code null} for an anonymous filter).
     */
    static ScalableBloomManifest of(AtomicSegment payload, Path directory, ScalableBloomFormat format) {
        return new ScalableBloomManifest(payload, directory, format.generation(), format.listsLinks());
    }

    /**
     * The manifest file of a scalable filter's directory ({@link ScalableBloomFilter#manifestOf}).
     *
     * @throws NoSuchFileException naming the directory if nothing is there
     * @throws CorruptSketchFileException naming the path if it is not a directory, or holds no manifest
     */
    static Path fileIn(Path directory) throws IOException {
        Path manifest = directory.resolve(ScalableBloomFilter.MANIFEST);
        if (Files.exists(manifest, LinkOption.NOFOLLOW_LINKS)) {
            return manifest;
        }
        if (!Files.exists(directory)) {
            throw new NoSuchFileException(directory.toString());
        }
        throw new CorruptSketchFileException(
                directory,
                Files.isDirectory(directory)
                        ? "is a directory but not a scalable Bloom filter (it holds no manifest)"
                        : "is not a directory, and a scalable Bloom filter is one");
    }

    /** Bytes of the payload of a manifest that lists its links, or does not. */
    static long payloadBytes(boolean listed) {
        return listed ? ENTRIES + (long) MAX_LINKS * ENTRY_BYTES : ENTRIES;
    }

    /** What a manifest payload holds, for the refusal of one of another size. */
    static String payloadDerivation(boolean listed) {
        return listed
                ? "one line holding the link count, then " + MAX_LINKS + " link entries of " + ENTRY_BYTES + " bytes"
                : "one cache line holding the link count";
    }

    /** The number of links published so far (acquire). */
    long linkCount() {
        return payload.getLongAcquire(LINK_COUNT);
    }

    /** Publishes link {@code index} by advancing the count from {@code index}; no effect if another writer did. */
    void advance(int index) {
        payload.compareAndSetLong(LINK_COUNT, index, index + 1L);
    }

    /** The file of link {@code index}. */
    Path linkFile(int index) {
        String name = listed
                ? String.format(Locale.ROOT, "%s%016x-%04d%s", LINK_PREFIX, generation, index, LINK_SUFFIX)
                : String.format(Locale.ROOT, "%s%04d%s", LINK_PREFIX, index, LINK_SUFFIX);
        return directory.resolve(name);
    }

    /** Stores the entry of link {@code index} before it is published; nothing to store before version 4. */
    void record(int index, BlockedBloomFilter link) {
        if (!listed) {
            return;
        }
        long entry = ENTRIES + (long) index * ENTRY_BYTES;
        payload.putLongRelease(entry + BLOCKS, link.blockCount());
        payload.putLongRelease(entry + SEED, link.hashSeed());
        payload.putLongRelease(entry + CREATED, link.createdMillis());
        payload.putIntRelease(entry + BITS_PER_KEY, link.bitsPerKey());
    }

    /**
     * Refuses link {@code index} unless it is the file its entry records and has the shape and seed
     * the chain gives it: {@code expectedItems} and {@code rate} (to a relative 10^-12) from the
     * manifest's parameters and {@code seed}, the manifest's. Manifests before version 4 have no
     * entries; their links' shape and seed are checked.
     */
    void validate(int index, BlockedBloomFilter link, long expectedItems, double rate, long seed, Path manifest)
            throws CorruptSketchFileException {
        Path file = link.file().orElse(null);
        require(file, "hash seed", seed, link.hashSeed());
        require(file, "expected items", expectedItems, link.expectedItems());
        if (Math.abs(rate - link.targetFalsePositiveRate()) > RATE_TOLERANCE * rate) {
            throw new CorruptSketchFileException(
                    file,
                    "false-positive rate is " + link.targetFalsePositiveRate() + ", but link " + index
                            + " of the chain in " + manifest + " has rate " + rate);
        }
        if (!listed) {
            return;
        }
        long entry = ENTRIES + (long) index * ENTRY_BYTES;
        String listedIn = "as link " + index + " is listed in " + manifest;
        requireListed(file, "blocks", payload.getLongAcquire(entry + BLOCKS), link.blockCount(), listedIn);
        requireListed(file, "hash seed", payload.getLongAcquire(entry + SEED), link.hashSeed(), listedIn);
        requireListed(file, "creation time", payload.getLongAcquire(entry + CREATED), link.createdMillis(), listedIn);
        requireListed(file, "bits per key", payload.getIntAcquire(entry + BITS_PER_KEY), link.bitsPerKey(), listedIn);
    }

    private static void require(Path file, String field, long expected, long actual) throws CorruptSketchFileException {
        if (expected != actual) {
            throw new CorruptSketchFileException(
                    file, field + " is " + actual + ", expected " + expected + " for its place in the chain");
        }
    }

    private static void requireListed(Path file, String field, long listed, long actual, String listedIn)
            throws CorruptSketchFileException {
        if (listed != actual) {
            throw new CorruptSketchFileException(
                    file,
                    field + " is " + actual + ", expected " + listed + " " + listedIn
                            + "; the link file is not the one the chain recorded");
        }
    }

    /**
     * Deletes the link files of {@code directory} that do not belong to this manifest's generation: the
     * chain of a manifest this one replaced, and links of older versions' names.
     *
     * @throws IOException if the directory cannot be listed or a file cannot be deleted
     */
    void removeOtherLinks() throws IOException {
        String own = LINK_PREFIX + String.format(Locale.ROOT, "%016x-", generation);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, LINK_PREFIX + "*" + LINK_SUFFIX)) {
            for (Path file : files) {
                if (!file.getFileName().toString().startsWith(own)) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }
}
