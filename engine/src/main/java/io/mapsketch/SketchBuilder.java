package io.mapsketch;

import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.frequency.CountMinBuilder;
import io.mapsketch.internal.HeaderFormat;
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
        permits FilterBuilder, CountMinBuilder, HyperLogLog.Builder, MinHash.Builder, SimHash.Builder {

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
        SketchRegion region = Regions.create(file, header(), payloadFill(), mode, options);
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
            return wrap(region);
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
     * @throws IllegalArgumentException if the parameters cannot be sized
     */
    protected final SketchHeader header() {
        HeaderFormat format = format();
        return SketchHeader.forNewSketch(
                        format.kind().id(), HashScheme.XXH3_64, seed, format.encode(), format.payloadBytes())
                .withFormatVersion(format.versions().written());
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
