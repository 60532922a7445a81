package io.mapsketch.frequency;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.Mergeable;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.memory.HashScheme;
import io.mapsketch.memory.LiveCounters;
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
public sealed class CountMinSketch extends FrequencySketch implements Mergeable<CountMinSketch>
        permits SparkHashedCountMin {

    private final CountMinFormat format;

    CountMinSketch(SketchRegion region, CountMinFormat format) {
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

    /**
     * Reads a sketch; one of Spark's scheme counts as Spark does, in a class of its own that only such a
     * sketch loads (so that while every sketch hashes with XXH3 the JIT sees one implementation of each
     * key-form method).
     */
    private static CountMinSketch read(SketchRegion region) throws IOException {
        CountMinFormat format = CountMinFormat.read(HeaderReader.of(region));
        return region.header().hashScheme() == HashScheme.SPARK_MURMUR3_32
                ? SparkHashedCountMin.create(region, format)
                : new CountMinSketch(region, format);
    }

    /**
     * Tells whether the sketch counts as Spark's {@code CountMinSketch} does ({@link Builder#sparkHashing},
     * or imported from Spark), with the row multipliers Spark draws from {@link #hashSeed()}.
     *
     * @return {@code true} for Spark's hashing, {@code false} for mapsketch's own
     */
    public boolean hashesAsSpark() {
        return region.header().hashScheme() == HashScheme.SPARK_MURMUR3_32;
    }

    /**
     * Returns the counters as one array, row by row ({@code depth * width} of them, unsigned), as Spark's
     * {@code CountMinSketch} lays out its table. Cost: one pass over the counters.
     *
     * @return a new array
     * @throws IllegalStateException if the sketch is closed, or the table is more than an array holds
     */
    public long[] counterTable() {
        long size = (long) depth() * width();
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException(size + " counters are more than an array holds");
        }
        long[] table = new long[(int) size];
        for (int row = 0; row < depth(); row++) {
            for (int column = 0; column < width(); column++) {
                table[row * width() + column] = counters.counter(row, column);
            }
        }
        return table;
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

    /** The width, depth, counter width, hash scheme, seed and row scheme, as {@link #merge} takes them. */
    @Override
    public void requireMergeable(CountMinSketch other) {
        requireSameCounters(other);
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

    /** Builds a Count-Min sketch from epsilon and delta, or with Spark's hashing and counters. */
    @SuppressWarnings("exports")
    public static final class Builder extends CountMinBuilder<Builder, CountMinSketch> {

        private boolean sparkHashing;
        private long[] table;
        private long totalWeight;

        private Builder() {}

        /**
         * Counts keys as Spark's {@code CountMinSketchImpl} does, with the row multipliers Spark draws from
         * {@code seed}: a sketch that then answers as Spark's of the same dimensions and seed. Such a sketch
         * has 64-bit counters and plain update ({@link #counterBits(int)} 64, no conservative update), and
         * is sized with {@link #dimensions(int, int)}.
         *
         * @param seed the seed Spark's sketch was created with
         * @return this builder
         */
        public Builder sparkHashing(int seed) {
            this.sparkHashing = true;
            return seed(seed);
        }

        /**
         * Sets the counters the new sketch starts with, row by row, and N, their rows' common sum (an
         * imported sketch's); the items counter starts at 0.
         *
         * @param table {@code depth * width} counters, each in [0, {@code totalWeight}]; copied
         * @param totalWeight N, in [0, 2^63 - 2^55 - 1]
         * @return this builder
         * @throws IllegalArgumentException if a value is out of range
         */
        public Builder counters(long[] table, long totalWeight) {
            if (totalWeight < 0 || totalWeight > LiveCounters.LIMIT) {
                throw new IllegalArgumentException(
                        "totalWeight = " + totalWeight + ", must be in [0, " + LiveCounters.LIMIT + "]");
            }
            for (int i = 0; i < table.length; i++) {
                if (table[i] < 0 || table[i] > totalWeight) {
                    throw new IllegalArgumentException(
                            "table[" + i + "] = " + table[i] + ", must be in [0, totalWeight = " + totalWeight + "]");
                }
            }
            this.table = table.clone();
            this.totalWeight = totalWeight;
            return this;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected HashScheme hashScheme() {
            return sparkHashing ? HashScheme.SPARK_MURMUR3_32 : HashScheme.XXH3_64;
        }

        @Override
        protected CountMinFormat format() {
            CountMinFormat format = countMinFormat();
            if (table != null && table.length != (long) format.depth() * format.width()) {
                throw new IllegalArgumentException("table has " + table.length + " counters, must have depth * width = "
                        + (long) format.depth() * format.width());
            }
            if (table != null && format.counterBytes() == Integer.BYTES && totalWeight > 0xFFFF_FFFFL) {
                throw new IllegalArgumentException(
                        "totalWeight = " + totalWeight + " may not fit 32-bit counters: set counterBits(64)");
            }
            return format;
        }

        @Override
        protected ContentWriter<CountMinSketch> initialContent() {
            long[] counts = table;
            long weight = totalWeight;
            return counts == null ? null : sketch -> sketch.restore(counts, weight);
        }

        @Override
        protected CountMinSketch wrap(SketchRegion region) throws IOException {
            return read(region);
        }
    }
}
