package io.mapsketch.frequency;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.Mergeable;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Count-Min sketch: "how often does X occur?" in {@code d} rows of {@code w} unsigned counters,
 * sized from epsilon and delta. Adds, estimates, error direction, saturation, conservative update
 * and concurrency are those of {@link FrequencySketch}; this class adds creation, opening and merge.
 *
 * <p>Error direction: overcount only, by at most {@code ceil(epsilon N)} with probability at least
 * {@code 1 - delta}; an estimate is below the truth only when it is saturated.
 */
// Its header format description is package-private; the protected members that return it are not API.
@SuppressWarnings("exports")
public final class CountMinSketch extends FrequencySketch implements Mergeable<CountMinSketch> {

    private final CountMinFormat format;

    private CountMinSketch(SketchRegion region, CountMinFormat format) {
        super(region, format);
        this.format = format;
    }

    /**
     * Starts a builder; {@code epsilon} and {@code delta} are required.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Opens a Count-Min file; every parameter comes from its header. Cost: header checks only.
     *
     * @param file the sketch file
     * @param mode read-only, shared writer or exclusive writer
     * @return the open sketch
     * @throws CorruptSketchFileException if a parameter is out of range, the width or depth do not
     *     follow from epsilon and delta, or the payload is not the size they imply
     * @throws io.mapsketch.SketchFileException if the file is not a valid Count-Min file or
     *     is locked against this mode
     * @throws IOException if the file cannot be read
     */
    public static CountMinSketch open(Path file, OpenMode mode) throws IOException {
        return open(file, mode, SketchKind.COUNT_MIN, CountMinSketch::read);
    }

    private static CountMinSketch read(SketchRegion region) throws IOException {
        return new CountMinSketch(region, CountMinFormat.read(HeaderReader.of(region)));
    }

    @Override
    protected CountMinFormat format() {
        return format;
    }

    /**
     * Merges another sketch into this one by counter-wise saturating sum; N and the items counter
     * add up. For plain sketches the result is exactly the sketch of the concatenated streams. For
     * conservative sketches estimates stay never below the truth but are bounded only by the plain
     * sketch's {@code ceil(epsilon N)}.
     *
     * <p>Cost: one pass over both payloads: the SIMD saturating-sum kernel in {@code EXCLUSIVE}
     * mode, a compare-and-set of each non-zero counter in {@code SHARED} mode.
     *
     * @param other a sketch with the same width, depth, counter width, hash scheme, seed and row scheme
     *     (files of format version 4 and later, or earlier); not modified
     * @throws IncompatibleSketchException naming the parameter that differs
     * @throws IllegalArgumentException if the merged N would pass 2^63 - 1
     * @throws IllegalStateException if this sketch is read-only or either is closed
     */
    @Override
    public void merge(CountMinSketch other) {
        mergeCounters(other);
    }

    /**
     * Merges another sketch into this one {@code weight} times over, as if its stream had been added
     * {@code weight} times: every counter, N and the items added grow by {@code weight} times the
     * other's (RedisBloom's CMS.MERGE WEIGHTS); weight 1 is {@link #merge(CountMinSketch)}. Cost: one pass
     * over both payloads, counter by counter for a weight above 1.
     *
     * @param other a sketch as {@link #merge(CountMinSketch)} takes; not modified
     * @param weight how many times to take it, in [1, 2^63 - 1]
     * @throws IncompatibleSketchException naming the parameter that differs
     * @throws IllegalArgumentException if {@code weight} is out of range or the merged N would pass
     *     2^63 - 2^55 - 1; nothing is merged
     * @throws IllegalStateException if this sketch is read-only or either is closed
     */
    public void merge(CountMinSketch other, long weight) {
        mergeCounters(other, weight);
    }

    @Override
    public String toString() {
        return "CountMinSketch[" + describe() + ", " + shapeText() + "]";
    }

    /** Builds a Count-Min sketch from epsilon and delta. */
    @SuppressWarnings("exports")
    public static final class Builder extends CountMinBuilder<Builder, CountMinSketch> {

        private Builder() {}

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected CountMinFormat format() {
            return countMinFormat();
        }

        @Override
        protected CountMinSketch wrap(SketchRegion region) throws IOException {
            return read(region);
        }
    }
}
