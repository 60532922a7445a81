package io.mapsketch.interop;

import java.util.Arrays;
import java.util.Objects;

/**
 * An immutable array of {@code long}s: the words of a foreign bit array or the counters of a
 * foreign table, as its codec decoded them. Bit {@code i} of a bit array is bit {@code i & 63} of
 * word {@code i >>> 6}, the numbering of Guava's and Spark's bit arrays. Equality is by contents.
 */
final class ImmutableLongArray {

    private final long[] values;

    private ImmutableLongArray(long[] values) {
        this.values = values;
    }

    /**
     * Returns an array holding a copy of {@code values}.
     *
     * @param values the values, copied
     * @return the immutable array
     */
    public static ImmutableLongArray copyOf(long... values) {
        return new ImmutableLongArray(Objects.requireNonNull(values, "values").clone());
    }

    /** Wraps an array the caller gives up; only the codecs, which decode into a fresh array, call it. */
    static ImmutableLongArray adopt(long[] values) {
        return new ImmutableLongArray(values);
    }

    /**
     * Returns the number of values.
     *
     * @return the length
     */
    public int length() {
        return values.length;
    }

    /**
     * Returns one value.
     *
     * @param index from 0 to {@code length() - 1}
     * @return the value
     * @throws IndexOutOfBoundsException if {@code index} is outside the array
     */
    public long get(int index) {
        return values[index];
    }

    /**
     * Returns whether a bit is set, the values read as the words of a bit array.
     *
     * @param bit from 0 to {@code 64 * length() - 1}
     * @return whether bit {@code bit & 63} of word {@code bit >>> 6} is set
     * @throws IndexOutOfBoundsException if {@code bit} is outside the words
     */
    public boolean testBit(long bit) {
        Objects.checkIndex(bit, (long) values.length * Long.SIZE);
        return (values[(int) (bit >>> 6)] & (1L << bit)) != 0;
    }

    /**
     * Returns a copy of the values.
     *
     * @return a new array
     */
    public long[] toArray() {
        return values.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ImmutableLongArray that && Arrays.equals(values, that.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    /** Returns the length and, for up to 8 values, the values themselves. */
    @Override
    public String toString() {
        return values.length <= 8
                ? Arrays.toString(values)
                : "[" + values.length + " values: " + values[0] + ", " + values[1] + ", ...]";
    }
}
