package io.mapsketch;

import io.mapsketch.cardinality.HyperLogLogBuilder;
import io.mapsketch.frequency.CountMinBuilder;
import io.mapsketch.internal.HeaderFormat;
import io.mapsketch.internal.KeyTableBuilder;
import io.mapsketch.internal.Regions;
import io.mapsketch.membership.FilterBuilder;
import io.mapsketch.memory.HashScheme;
import io.mapsketch.memory.SketchHeader;
import io.mapsketch.memory.SketchRegion;
import io.mapsketch.similarity.MinHash;
import io.mapsketch.similarity.SimHash;
import java.io.IOException;
import java.nio.file.Path;

/**
 * What every sketch builder shares: the hash seed and the two ways to create the sketch, mapped
 * to a new file or anonymous. Subclasses add the parameters of their question (items and error
 * rate, epsilon and delta, precision) and validate them when set.
 *
 * @param <B> the concrete builder, returned by the chaining methods
 * @param <S> the sketch it builds
 */
// The protected members name the unexported header format and the memory module's region: they are
// not API, since the hierarchy is sealed to this module's builders.
@SuppressWarnings("exports")
public abstract sealed class SketchBuilder<B extends SketchBuilder<B, S>, S extends Sketch>
        permits FilterBuilder, CountMinBuilder, HyperLogLogBuilder, KeyTableBuilder, MinHash.Builder, SimHash.Builder {

    /** The seed used when none is set; documented so that the same items give the same file. */
    public static final long DEFAULT_SEED = 0;

    private long seed = DEFAULT_SEED;

    /** Creates a builder with the default seed; only this module's sketches have builders. */
    protected SketchBuilder() {}

    /**
     * Sets the hash seed stored in the file. Sketches merge only with sketches of the same seed.
     *
     * @param seed any value; {@link #DEFAULT_SEED} when not set
     * @return this builder
     */
    public B seed(long seed) {
        this.seed = seed;
        return self();
    }

    /**
     * Creates the sketch in a new file and opens it. The file appears complete or not at all.
     *
     * @param file where to create it
     * @param mode {@code SHARED} (several writers, in any process) or {@code EXCLUSIVE} (one writer)
     * @param options {@link CreateOption#OVERWRITE_EXISTING} to replace an existing file that no writer has
     *     open ({@link CreateOption#REPLACE_IN_USE} even then), {@link CreateOption#OWNER_ONLY} for
     *     permissions 0600 instead of 0644 (advisable for sketches of personal data: a filter or Top-K file
     *     tells its readers which identifiers were probably added)
     * @return the open sketch, empty
     * @throws java.nio.file.FileAlreadyExistsException if the file exists and overwriting was not asked for
     * @throws SketchFileLockedException if overwriting was asked for and writers have the existing file open
     * @throws IllegalArgumentException if {@code mode} is {@code READ_ONLY}, or the parameters cannot be sized
     *     (naming the parameter, its value and the valid range); nothing was written
     * @throws IllegalStateException if a required parameter was not set
     * @throws IOException if the file cannot be written
     */
    public S create(Path file, OpenMode mode, CreateOption... options) throws IOException {
        SketchHeader header = header();
        ContentWriter<S> content = initialContent();
        SketchRegion region = content == null
                ? Regions.create(file, header, payloadFill(), mode, options)
                : Regions.create(file, header, payloadFill(), temporary -> write(temporary, content), mode, options);
        try {
            return wrap(region);
        } catch (IOException | RuntimeException e) {
            Regions.close(region);
            throw e;
        }
    }

    /**
     * Creates the sketch off-heap, not backed by any file; freed by {@code close()}.
     *
     * @param mode {@code SHARED} if several threads write it, {@code EXCLUSIVE} if one does
     * @return the sketch, empty
     * @throws IllegalArgumentException if {@code mode} is {@code READ_ONLY}, or the parameters cannot be sized
     *     (naming the parameter, its value and the valid range)
     * @throws IllegalStateException if a required parameter was not set
     */
    public S createAnonymous(OpenMode mode) {
        SketchRegion region = Regions.anonymous(header(), mode);
        try {
            if (payloadFill() != 0) {
                region.payload().segment().fill(payloadFill());
            }
            S sketch = wrap(region);
            ContentWriter<S> content = initialContent();
            if (content != null) {
                content.write(sketch);
            }
            return sketch;
        } catch (IOException | RuntimeException e) {
            try {
                region.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException("a new sketch's own header was refused: " + e.getMessage(), e);
        }
    }

    /**
     * The header of the new sketch: every parameter sized, nothing written. Refuses parameters that
     * cannot be sized, as {@code create} does before any file is written.
     *
     * @return the header {@code create} would write
     * @throws IllegalArgumentException if the parameters cannot be sized, or the kind cannot run the hash
     *     scheme at these parameters
     */
    protected final SketchHeader header() {
        HeaderFormat format = format();
        HashScheme scheme = hashScheme();
        format.requireRunnable(scheme);
        return SketchHeader.forNewSketch(format.kind().id(), scheme, seed, format.encode(), format.payloadBytes())
                .withFormatVersion(format.versions().written());
    }

    /**
     * Returns the hash scheme the new sketch hashes keys with: the native XXH3-64 unless a kind's builder
     * was told to hash as a foreign system does.
     *
     * @return the scheme the header records
     */
    protected HashScheme hashScheme() {
        return HashScheme.XXH3_64;
    }

    /**
     * Returns this builder as its concrete type, for chaining.
     *
     * @return this
     */
    protected abstract B self();

    /**
     * Sizes the new sketch: the header parameters its kind's format description writes, from which
     * the kind, the format version and the payload's size follow.
     *
     * @return the description of the new sketch
     * @throws IllegalArgumentException if the parameters cannot be sized
     * @throws IllegalStateException if a required parameter was not set
     */
    protected abstract HeaderFormat format();

    /**
     * Returns the value of every payload byte of an empty sketch: zero unless a kind says otherwise.
     *
     * @return the fill byte
     */
    protected byte payloadFill() {
        return 0;
    }

    /**
     * Writes the content of a new sketch into it.
     *
     * @param <S> the sketch
     */
    @FunctionalInterface
    protected interface ContentWriter<S> {

        /**
         * Writes the content into the new sketch, through its own update mechanics.
         *
         * @param sketch the new sketch, empty, open {@code EXCLUSIVE} for a file
         * @throws IOException to abandon the creation (nothing appears under the file's name)
         */
        void write(S sketch) throws IOException;
    }

    /**
     * Returns what a new sketch holds beyond its empty payload, written into it before {@code create}
     * hands it out; into a file, before the file gets its name, so that it appears with that content or
     * not at all.
     *
     * @return the writer of the content, or {@code null} when the sketch starts empty
     */
    protected ContentWriter<S> initialContent() {
        return null;
    }

    /** Opens the new file under its temporary name as its only writer, writes the content and closes it. */
    private void write(Path temporary, ContentWriter<S> content) throws IOException {
        SketchRegion region = Regions.open(temporary, OpenMode.EXCLUSIVE, null, null);
        S sketch;
        try {
            sketch = wrap(region);
        } catch (IOException | RuntimeException e) {
            Regions.close(region);
            throw e;
        }
        try (sketch) {
            content.write(sketch);
        }
    }

    /**
     * Reads the new region as the sketch, with the same checks as opening a file.
     *
     * @param region the region just created
     * @return the sketch over it
     * @throws IOException if the region is refused as a file of this kind would be
     */
    protected abstract S wrap(SketchRegion region) throws IOException;

    /**
     * Refuses to size a sketch while a required parameter is unset.
     *
     * @param name the parameter's name
     * @param set whether it was set
     * @throws IllegalStateException if it was not set
     */
    protected static void requireSet(String name, boolean set) {
        if (!set) {
            throw new IllegalStateException(name + " was not set; it is required to size the sketch");
        }
    }
}
