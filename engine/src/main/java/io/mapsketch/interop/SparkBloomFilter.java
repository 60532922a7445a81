package io.mapsketch.interop;

import io.mapsketch.CreateOption;
import io.mapsketch.OpenMode;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.BloomProbing;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * Spark's {@code BloomFilter}s in and out: the bytes its {@code writeTo} writes, version 1 or 2 (what
 * {@code df.stat.bloomFilter} returns, serialised), become a mapped classic {@link BloomFilter} of
 * Spark's size, seed and version that probes as Spark does ({@link BloomProbing#SPARK_V1},
 * {@link BloomProbing#SPARK_V2}): {@code mightContain} answers what Spark's answers for strings, byte
 * arrays and integral keys (as {@code long}s), and an add sets the bits Spark's {@code put} sets. Such a
 * filter exports back to the bytes Spark's {@code writeTo} would write. What is kept and lost is in
 * {@code docs/interop.md}.
 *
 * <p>Errors: bytes that are not such a filter, or of more than 64 hash functions, are a
 * {@link ForeignSketchException} naming the source, the offset and the fault, and nothing is written.
 * Cost: one pass over the foreign bytes; an import then creates the file as a builder does, in one step.
 */
public final class SparkBloomFilter {

    /** The format's name, as the command spells it. */
    public static final String FORMAT = SparkBloomImage.FORMAT;

    private SparkBloomFilter() {}

    /**
     * Creates a classic Bloom filter file holding the bits of Spark's filter bytes, probing as Spark does,
     * and opens it. The file appears complete, or not at all.
     *
     * @param bytes what Spark's {@code writeTo} wrote
     * @param file where to create the filter
     * @param mode {@code SHARED} or {@code EXCLUSIVE}
     * @param options as {@link BloomFilter.Builder#create}
     * @return the open filter: Spark's bits, probes and seed, no items counted
     * @throws ForeignSketchException if the bytes are not such a filter (nothing is written)
     * @throws java.nio.file.FileAlreadyExistsException if the file exists and overwriting was not asked for
     * @throws IOException if the file cannot be written
     */
    public static BloomFilter importFrom(byte[] bytes, Path file, OpenMode mode, CreateOption... options)
            throws IOException {
        return create(SparkBloomImage.parse(MemorySegment.ofArray(bytes), null), null, file, mode, options);
    }

    /**
     * As {@link #importFrom(byte[], Path, OpenMode, CreateOption...)}, from a file that holds exactly the
     * bytes Spark's {@code writeTo} wrote.
     *
     * @param source the file of Spark's bytes
     * @param file where to create the filter
     * @param mode {@code SHARED} or {@code EXCLUSIVE}
     * @param options as {@link BloomFilter.Builder#create}
     * @return the open filter
     * @throws ForeignSketchException naming {@code source} if its bytes are not such a filter
     * @throws IOException if the source cannot be read or the file cannot be written
     */
    public static BloomFilter importFrom(Path source, Path file, OpenMode mode, CreateOption... options)
            throws IOException {
        return create(ForeignFiles.parse(source, SparkBloomImage::parse), source, file, mode, options);
    }

    /**
     * Returns the bytes Spark's {@code writeTo} writes for a filter of Spark's probes.
     *
     * @param filter a filter imported from Spark or built with a Spark probing; not modified
     * @return {@code 12 + m / 8} bytes for version 1, {@code 16 + m / 8} for version 2
     * @throws IllegalArgumentException if the filter probes otherwise
     * @throws IllegalStateException if the filter is closed
     */
    public static byte[] exportTo(BloomFilter filter) {
        BloomProbing probing = filter.probing();
        if (probing != BloomProbing.SPARK_V1 && probing != BloomProbing.SPARK_V2) {
            throw new IllegalArgumentException(GuavaBloomFilter.name(filter) + ": probes as " + probing
                    + ", so its bits mean nothing to Spark; only a filter of Spark's probes (SPARK_V1 or SPARK_V2,"
                    + " imported from Spark) exports to Spark's bytes");
        }
        return new SparkBloomImage(
                        probing == BloomProbing.SPARK_V1 ? 1 : 2,
                        filter.hashCount(),
                        (int) filter.hashSeed(),
                        ImmutableLongArray.adopt(filter.words()))
                .toBytes();
    }

    /**
     * Writes {@link #exportTo(BloomFilter)} to a file, which then holds exactly Spark's bytes; an existing
     * file is replaced in one step.
     *
     * @param filter a filter of Spark's probes; not modified
     * @param destination the file to write
     * @throws IllegalArgumentException if the filter probes otherwise
     * @throws IOException if the file cannot be written (an existing one is left as it was)
     */
    public static void exportTo(BloomFilter filter, Path destination) throws IOException {
        ForeignFiles.replace(destination, exportTo(filter));
    }

    private static BloomFilter create(
            SparkBloomImage image, Path source, Path file, OpenMode mode, CreateOption... options) throws IOException {
        ForeignImports.requireProbes(FORMAT, source, Integer.BYTES, image.hashFunctions());
        return BloomFilter.builder()
                .foreignImage(
                        image.version() == 1 ? BloomProbing.SPARK_V1 : BloomProbing.SPARK_V2,
                        image.hashFunctions(),
                        image.words().toArray())
                .seed(image.seed())
                .create(file, mode, options);
    }
}
