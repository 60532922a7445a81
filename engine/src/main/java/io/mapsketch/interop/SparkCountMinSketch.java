package io.mapsketch.interop;

import io.mapsketch.CreateOption;
import io.mapsketch.OpenMode;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.frequency.FrequencySketch;
import io.mapsketch.internal.SparkCountMinBuckets;
import io.mapsketch.memory.LiveCounters;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.OptionalInt;

/**
 * Spark's {@code CountMinSketch}es in and out: the bytes its {@code writeTo} writes (what
 * {@code df.stat.countMinSketch} returns, serialised) become a mapped {@link CountMinSketch} of Spark's
 * depth, width, counters and total that counts as Spark does ({@link CountMinSketch.Builder#sparkHashing}):
 * {@code estimate} answers Spark's {@code estimateCount} for strings, byte arrays and integral keys (as
 * {@code long}s), and an add raises the counters Spark's {@code add} raises. Such a sketch exports back to
 * the bytes Spark's {@code writeTo} would write. Spark's bytes hold the row multipliers, not the seed they
 * were drawn from; the import finds that seed ({@code java.util.Random}'s generator is invertible) and the
 * file records it.
 *
 * <p>Counters are 64-bit, as Spark's, so every counter fits; N is capped as every mapsketch Count-Min
 * sketch caps it, at {@code 2^63 - 2^55 - 1}: a sketch whose total is above is refused, and an add that
 * would pass it is refused (Spark's total would go on and wrap past {@code 2^63 - 1}).
 *
 * <p>Errors: bytes that are not such a sketch, or whose multipliers no seed draws, or whose shape mapsketch
 * does not hold (width below 3, depth above 745, total above the cap), are a {@link ForeignSketchException}
 * naming the source, the offset and the fault, and nothing is written. Cost: one pass over the foreign
 * bytes and a search of 2^17 generator states; an import then creates the file as a builder does.
 */
public final class SparkCountMinSketch {

    /** The format's name, as the command spells it. */
    public static final String FORMAT = SparkCountMinImage.FORMAT;

    /** Where the depth, the width and the first multiplier lie in Spark's bytes. */
    private static final long DEPTH_OFFSET = 12;

    private static final long WIDTH_OFFSET = 16;
    private static final long MULTIPLIERS_OFFSET = 20;
    private static final long TOTAL_OFFSET = 4;

    private SparkCountMinSketch() {}

    /**
     * Creates a Count-Min file holding the counters of Spark's sketch bytes, counting as Spark does, and
     * opens it. The file appears complete, or not at all.
     *
     * @param bytes what Spark's {@code writeTo} wrote
     * @param file where to create the sketch
     * @param mode {@code SHARED} or {@code EXCLUSIVE}
     * @param options as {@link CountMinSketch.Builder#create}
     * @return the open sketch: Spark's counters and N, no items counted
     * @throws ForeignSketchException if the bytes are not such a sketch (nothing is written)
     * @throws java.nio.file.FileAlreadyExistsException if the file exists and overwriting was not asked for
     * @throws IOException if the file cannot be written
     */
    public static CountMinSketch importFrom(byte[] bytes, Path file, OpenMode mode, CreateOption... options)
            throws IOException {
        return create(SparkCountMinImage.parse(MemorySegment.ofArray(bytes), null), null, file, mode, options);
    }

    /**
     * As {@link #importFrom(byte[], Path, OpenMode, CreateOption...)}, from a file that holds exactly the
     * bytes Spark's {@code writeTo} wrote.
     *
     * @param source the file of Spark's bytes
     * @param file where to create the sketch
     * @param mode {@code SHARED} or {@code EXCLUSIVE}
     * @param options as {@link CountMinSketch.Builder#create}
     * @return the open sketch
     * @throws ForeignSketchException naming {@code source} if its bytes are not such a sketch
     * @throws IOException if the source cannot be read or the file cannot be written
     */
    public static CountMinSketch importFrom(Path source, Path file, OpenMode mode, CreateOption... options)
            throws IOException {
        return create(ForeignFiles.parse(source, SparkCountMinImage::parse), source, file, mode, options);
    }

    /**
     * Returns the bytes Spark's {@code writeTo} writes for a sketch that counts as Spark does.
     *
     * @param sketch a sketch imported from Spark or built with {@link CountMinSketch.Builder#sparkHashing};
     *     not modified
     * @return {@code 20 + 8 d + 8 d w} bytes
     * @throws IllegalArgumentException if the sketch counts otherwise
     * @throws IllegalStateException if the sketch is closed
     */
    public static byte[] exportTo(CountMinSketch sketch) {
        if (!sketch.hashesAsSpark()) {
            throw new IllegalArgumentException(sketch.file().map(Path::toString).orElse("an anonymous Count-Min sketch")
                    + ": counts with mapsketch's own hashing, so its counters mean nothing to Spark; only a sketch"
                    + " that counts as Spark does (imported from Spark, or built with sparkHashing) exports to"
                    + " Spark's bytes");
        }
        long[] multipliers = SparkCountMinBuckets.hashA((int) sketch.hashSeed(), sketch.depth());
        return new SparkCountMinImage(
                        sketch.totalWeight(),
                        sketch.depth(),
                        sketch.width(),
                        ImmutableLongArray.adopt(multipliers),
                        ImmutableLongArray.adopt(sketch.counterTable()))
                .toBytes();
    }

    /**
     * Writes {@link #exportTo(CountMinSketch)} to a file, which then holds exactly Spark's bytes; an
     * existing file is replaced in one step.
     *
     * @param sketch a sketch that counts as Spark does; not modified
     * @param destination the file to write
     * @throws IllegalArgumentException if the sketch counts otherwise
     * @throws IOException if the file cannot be written (an existing one is left as it was)
     */
    public static void exportTo(CountMinSketch sketch, Path destination) throws IOException {
        ForeignFiles.replace(destination, exportTo(sketch));
    }

    private static CountMinSketch create(
            SparkCountMinImage image, Path source, Path file, OpenMode mode, CreateOption... options)
            throws IOException {
        if (image.width() < 3) {
            throw fault(
                    source, WIDTH_OFFSET, "width " + image.width() + ", a mapsketch Count-Min sketch has at least 3");
        }
        if (image.depth() > FrequencySketch.MAX_DEPTH) {
            throw fault(
                    source,
                    DEPTH_OFFSET,
                    "depth " + image.depth() + ", a mapsketch Count-Min sketch has at most "
                            + FrequencySketch.MAX_DEPTH);
        }
        if (image.totalCount() > LiveCounters.LIMIT) {
            throw fault(
                    source,
                    TOTAL_OFFSET,
                    "total count " + image.totalCount() + ", above the largest N a mapsketch sketch holds, "
                            + LiveCounters.LIMIT);
        }
        OptionalInt seed = SparkCountMinSeed.of(image.hashA().toArray());
        if (seed.isEmpty()) {
            throw fault(
                    source,
                    MULTIPLIERS_OFFSET,
                    "the row multipliers are not those java.util.Random draws from any int seed, as Spark draws them");
        }
        return CountMinSketch.builder()
                .dimensions(image.width(), image.depth())
                .counterBits(64)
                .sparkHashing(seed.getAsInt())
                .counters(image.table().toArray(), image.totalCount())
                .create(file, mode, options);
    }

    private static ForeignSketchException fault(Path source, long offset, String fault) {
        return new ForeignSketchException(FORMAT, source, offset, fault);
    }
}
