package io.mapsketch.interop;

import io.mapsketch.internal.SparkCountMinBuckets;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The bytes of a Spark {@code CountMinSketch} as its {@code writeTo} writes them (version 1, the
 * only one), every field big-endian:
 *
 * <pre>
 * offset       size         field
 * 0            4            version: 1
 * 4            8            total count: the sum of every increment
 * 12           4            depth d (rows), 1 or more
 * 16           4            width w (counters per row), 1 or more
 * 20           8 d          hashA: one multiplier per row, each in [0, 2^31 - 1)
 * 20 + 8 d     8 d w        the counters, row by row
 * </pre>
 *
 * The seed the sketch was created with is not in the bytes: it only drew the multipliers
 * ({@link SparkCountMinBuckets#hashA}), which are. Every counter lies between 0 and the total count.
 *
 * @param totalCount the sum of every increment, {@code >= 0}
 * @param depth the number of rows, {@code >= 1}
 * @param width the counters per row, {@code >= 1}
 * @param hashA the multiplier of each row, {@code depth} of them
 * @param table the counters, row by row, {@code depth * width} of them
 */
record SparkCountMinImage(long totalCount, int depth, int width, ImmutableLongArray hashA, ImmutableLongArray table) {

    /** The format's name, as the command spells it. */
    public static final String FORMAT = "spark-cms";
    /** The one version Spark writes. */
    public static final int VERSION = 1;

    private static final long HASH_A_OFFSET = 20;

    /**
     * Checks the parameters.
     *
     * @throws IllegalArgumentException if a size is below 1, the arrays do not have
     *     {@code depth} and {@code depth * width} values, a multiplier is outside
     *     {@code [0, 2^31 - 1)} or a counter outside {@code [0, totalCount]}
     */
    public SparkCountMinImage {
        if (depth < 1 || width < 1) {
            throw new IllegalArgumentException("depth = " + depth + ", width = " + width + ": both must be >= 1");
        }
        if (Objects.requireNonNull(hashA, "hashA").length() != depth) {
            throw new IllegalArgumentException("hashA has " + hashA.length() + " values, must have depth = " + depth);
        }
        if (Objects.requireNonNull(table, "table").length() != (long) depth * width) {
            throw new IllegalArgumentException(
                    "table has " + table.length() + " counters, must have depth * width = " + (long) depth * width);
        }
        if (totalCount < 0) {
            throw new IllegalArgumentException("totalCount = " + totalCount + ", must be >= 0");
        }
        int badMultiplier = firstOutside(hashA, 0, Integer.MAX_VALUE - 1L);
        if (badMultiplier >= 0) {
            throw new IllegalArgumentException("hashA[" + badMultiplier + "] = " + hashA.get(badMultiplier)
                    + ", must be in [0, " + (Integer.MAX_VALUE - 1) + "]");
        }
        int badCounter = firstOutside(table, 0, totalCount);
        if (badCounter >= 0) {
            throw new IllegalArgumentException("counter " + badCounter + " = " + table.get(badCounter)
                    + ", must be in [0, totalCount = " + totalCount + "]");
        }
    }

    /**
     * Reads a sketch's bytes: exactly the bytes {@code writeTo} writes, nothing after them.
     *
     * @param bytes the foreign bytes
     * @param source the file they came from, for messages; {@code null} for an array
     * @return the image
     * @throws ForeignSketchException if the bytes are truncated or longer than the sizes say, of
     *     another version, declare a size below 1 or a table larger than an array holds, or hold a
     *     negative total, a multiplier Spark cannot draw or a counter outside {@code [0, total]}
     */
    public static SparkCountMinImage parse(MemorySegment bytes, Path source) throws ForeignSketchException {
        ForeignBytes in = new ForeignBytes(FORMAT, bytes, source);
        int version = in.readInt(0, "the version");
        if (version != VERSION) {
            throw in.fault(0, "version " + version + ", Spark's Count-Min sketches are version " + VERSION);
        }
        long totalCount = in.readLong(4, "the total count");
        if (totalCount < 0) {
            throw in.fault(4, "total count " + totalCount + ", must be >= 0");
        }
        int depth = in.readInt(12, "the depth");
        if (depth < 1) {
            throw in.fault(12, "depth " + depth + ", must be at least 1");
        }
        int width = in.readInt(16, "the width");
        if (width < 1) {
            throw in.fault(16, "width " + width + ", must be at least 1");
        }
        long counters = (long) depth * width;
        long tableOffset = HASH_A_OFFSET + (long) depth * Long.BYTES;
        String sizes = depth + " rows of " + width + " counters and their multipliers";
        if (counters > (Long.MAX_VALUE - tableOffset) / Long.BYTES) {
            throw in.fault(in.size(), "truncated: " + sizes + " take more than 2^63 bytes, there are " + in.size());
        }
        in.requireLength(tableOffset + counters * Long.BYTES, sizes);
        if (counters > Integer.MAX_VALUE - 8) {
            throw in.fault(12, "a table of " + counters + " counters is more than one array holds");
        }
        ImmutableLongArray hashA = in.readLongs(HASH_A_OFFSET, depth);
        int badMultiplier = firstOutside(hashA, 0, Integer.MAX_VALUE - 1L);
        if (badMultiplier >= 0) {
            throw in.fault(
                    HASH_A_OFFSET + (long) badMultiplier * Long.BYTES,
                    "multiplier of row " + badMultiplier + " is " + hashA.get(badMultiplier)
                            + ", Spark draws them in [0, " + (Integer.MAX_VALUE - 1) + "]");
        }
        ImmutableLongArray table = in.readLongs(tableOffset, (int) counters);
        int badCounter = firstOutside(table, 0, totalCount);
        if (badCounter >= 0) {
            throw in.fault(
                    tableOffset + (long) badCounter * Long.BYTES,
                    "counter " + badCounter % width + " of row " + badCounter / width + " is " + table.get(badCounter)
                            + ", outside [0, total count " + totalCount + "]");
        }
        return new SparkCountMinImage(totalCount, depth, width, hashA, table);
    }

    /**
     * Reads a sketch's bytes from an array.
     *
     * @param bytes exactly the bytes {@code writeTo} wrote
     * @return the image
     * @throws ForeignSketchException as {@link #parse(MemorySegment, Path)}
     */
    public static SparkCountMinImage parse(byte[] bytes) throws ForeignSketchException {
        return parse(MemorySegment.ofArray(bytes), null);
    }

    /**
     * Returns one counter.
     *
     * @param row the row, 0 to {@code depth - 1}
     * @param column the column, 0 to {@code width - 1}
     * @return the counter
     * @throws IndexOutOfBoundsException if {@code row} or {@code column} is outside the table
     */
    public long counter(int row, int column) {
        Objects.checkIndex(row, depth);
        Objects.checkIndex(column, width);
        return table.get(row * width + column);
    }

    /**
     * Returns the length of the bytes {@link #writeTo} writes.
     *
     * @return {@code 20 + 8 d + 8 d w}
     */
    public long byteSize() {
        return HASH_A_OFFSET + ((long) depth + table.length()) * Long.BYTES;
    }

    /**
     * Writes the bytes Spark's {@code writeTo} writes for this sketch.
     *
     * @param target the segment written
     * @param offset where the first byte goes
     * @throws IndexOutOfBoundsException if {@link #byteSize()} bytes do not fit there
     * @throws IllegalArgumentException if {@code target} is read-only
     */
    public void writeTo(MemorySegment target, long offset) {
        ForeignBytesWriter.at(target, offset, byteSize())
                .putInt(VERSION)
                .putLong(totalCount)
                .putInt(depth)
                .putInt(width)
                .putLongs(hashA)
                .putLongs(table);
    }

    /**
     * Returns the bytes Spark's {@code writeTo} writes for this sketch.
     *
     * @return a new array of {@link #byteSize()} bytes
     * @throws IllegalStateException if that is more than a byte array holds
     */
    public byte[] toBytes() {
        byte[] bytes = ForeignBytesWriter.newArray(byteSize(), FORMAT);
        writeTo(MemorySegment.ofArray(bytes), 0);
        return bytes;
    }

    /** Returns the index of the first value outside {@code [low, high]}, or -1. */
    private static int firstOutside(ImmutableLongArray values, long low, long high) {
        for (int i = 0; i < values.length(); i++) {
            long value = values.get(i);
            if (value < low || value > high) {
                return i;
            }
        }
        return -1;
    }
}
