package io.mapsketch.interop;

import io.mapsketch.CreateOption;
import io.mapsketch.OpenMode;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.BloomProbing;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Guava's {@code BloomFilter}s in and out: the bytes its {@code writeTo} writes (strategy
 * {@code MURMUR128_MITZ_64}, Guava's default) become a mapped classic {@link BloomFilter} of Guava's
 * size that probes as Guava does ({@link BloomProbing#GUAVA_UTF8}, {@link BloomProbing#GUAVA_LONG}):
 * {@code mightContain} answers what Guava's answers and an add sets the bits Guava's {@code put} sets.
 * Such a filter exports back to the bytes Guava's {@code writeTo} would write, which its
 * {@code readFrom} reads. Guava's bytes do not say which funnel made the keys' bytes; the importer is
 * told, and the file records it. What is kept and lost is in {@code docs/interop.md}.
 *
 * <p>Errors: bytes that are not such a filter, or of more than 64 hash functions (mapsketch's most), are
 * a {@link ForeignSketchException} naming the source, the offset and the fault, and nothing is
 * written. Cost: one pass over the foreign bytes; an import then creates the file as a builder does, in
 * one step.
 */
public final class GuavaBloomFilter {

    /** The format's name, as the command spells it. */
    public static final String FORMAT = GuavaBloomImage.FORMAT;

    /** The funnel that turned the filter's keys into bytes, which Guava's bytes do not record. */
    public enum Funnel {
        /** {@code Funnels.stringFunnel(UTF_8)}: a {@code long} key is then looked up as its decimal string. */
        UTF8(BloomProbing.GUAVA_UTF8),
        /** {@code Funnels.longFunnel()}: a {@code long} key as its eight little-endian bytes. */
        LONG(BloomProbing.GUAVA_LONG);

        private final BloomProbing probing;

        Funnel(BloomProbing probing) {
            this.probing = probing;
        }

        /**
         * Returns the probing of a filter of this funnel.
         *
         * @return {@link BloomProbing#GUAVA_UTF8} or {@link BloomProbing#GUAVA_LONG}
         */
        public BloomProbing probing() {
            return probing;
        }
    }

    private GuavaBloomFilter() {}

    /**
     * Creates a classic Bloom filter file holding the bits of Guava's filter bytes, probing as Guava does
     * with {@code funnel}, and opens it. The file appears complete, or not at all.
     *
     * @param bytes what Guava's {@code writeTo} wrote
     * @param funnel the funnel Guava's filter was created with
     * @param file where to create the filter
     * @param mode {@code SHARED} or {@code EXCLUSIVE}
     * @param options as {@link BloomFilter.Builder#create}
     * @return the open filter: Guava's bits and probes, no items counted
     * @throws ForeignSketchException if the bytes are not such a filter (nothing is written)
     * @throws java.nio.file.FileAlreadyExistsException if the file exists and overwriting was not asked for
     * @throws IOException if the file cannot be written
     */
    public static BloomFilter importFrom(byte[] bytes, Funnel funnel, Path file, OpenMode mode, CreateOption... options)
            throws IOException {
        return create(GuavaBloomImage.parse(MemorySegment.ofArray(bytes), null), null, funnel, file, mode, options);
    }

    /**
     * As {@link #importFrom(byte[], Funnel, Path, OpenMode, CreateOption...)}, from a file that holds exactly
     * the bytes Guava's {@code writeTo} wrote.
     *
     * @param source the file of Guava's bytes
     * @param funnel the funnel Guava's filter was created with
     * @param file where to create the filter
     * @param mode {@code SHARED} or {@code EXCLUSIVE}
     * @param options as {@link BloomFilter.Builder#create}
     * @return the open filter
     * @throws ForeignSketchException naming {@code source} if its bytes are not such a filter
     * @throws IOException if the source cannot be read or the file cannot be written
     */
    public static BloomFilter importFrom(Path source, Funnel funnel, Path file, OpenMode mode, CreateOption... options)
            throws IOException {
        return create(ForeignFiles.parse(source, GuavaBloomImage::parse), source, funnel, file, mode, options);
    }

    /**
     * Returns the bytes Guava's {@code writeTo} writes for a filter of Guava's probes.
     *
     * @param filter a filter imported from Guava or built with a Guava probing; not modified
     * @return {@code 6 + 8 m / 64} bytes
     * @throws IllegalArgumentException if the filter probes otherwise
     * @throws IllegalStateException if the filter is closed
     */
    public static byte[] exportTo(BloomFilter filter) {
        BloomProbing probing = filter.probing();
        if (probing != BloomProbing.GUAVA_UTF8 && probing != BloomProbing.GUAVA_LONG) {
            throw new IllegalArgumentException(name(filter) + ": probes as " + probing
                    + ", so its bits mean nothing to Guava; only a filter of Guava's probes (GUAVA_UTF8 or"
                    + " GUAVA_LONG, imported from Guava) exports to Guava's bytes");
        }
        return new GuavaBloomImage(filter.hashCount(), ImmutableLongArray.adopt(filter.words())).toBytes();
    }

    /**
     * Writes {@link #exportTo(BloomFilter)} to a file, which then holds exactly Guava's bytes; an existing
     * file is replaced in one step.
     *
     * @param filter a filter of Guava's probes; not modified
     * @param destination the file to write
     * @throws IllegalArgumentException if the filter probes otherwise
     * @throws IOException if the file cannot be written (an existing one is left as it was)
     */
    public static void exportTo(BloomFilter filter, Path destination) throws IOException {
        ForeignFiles.replace(destination, exportTo(filter));
    }

    private static BloomFilter create(
            GuavaBloomImage image, Path source, Funnel funnel, Path file, OpenMode mode, CreateOption... options)
            throws IOException {
        Objects.requireNonNull(funnel, "funnel");
        ForeignImports.requireProbes(FORMAT, source, 1, image.hashFunctions());
        return BloomFilter.builder()
                .foreignImage(
                        funnel.probing(), image.hashFunctions(), image.words().toArray())
                .create(file, mode, options);
    }

    static String name(BloomFilter filter) {
        return filter.file().map(Path::toString).orElse("an anonymous Bloom filter");
    }
}
