package io.mapsketch.internal;

import java.util.Arrays;
import java.util.function.LongPredicate;
import java.util.stream.Collectors;

/**
 * One header parameter of a sketch kind: its slot among the header's 16 int64 parameters, the name
 * that refusals, merges and {@code docs/file-format.md} give it, and the values a file may hold
 * there. {@link HeaderReader} refuses a file whose slot holds any other value.
 */
public sealed interface HeaderParameter permits HeaderParameter.Ranged, HeaderParameter.Interval {

    /**
     * Returns the slot, in [0, 16).
     *
     * @return the parameter's index in the header
     */
    int index();

    /**
     * Returns the name messages give the parameter.
     *
     * @return the name
     */
    String name();

    /**
     * Returns the value stored as {@code bits}, as a description holds it.
     *
     * @param bits the slot's 64 bits
     * @return a {@code Long} or a {@code Double}
     */
    Object decode(long bits);

    /**
     * An integer in [min, max] that {@code allowed} accepts ({@code expected} says which, for a
     * refusal; {@code null} when every value of the range is allowed).
     *
     * @param index the slot
     * @param name the name
     * @param min the smallest value
     * @param max the largest value
     * @param allowed which values of the range a file may hold
     * @param expected what {@code allowed} accepts, in words
     */
    record Ranged(int index, String name, long min, long max, LongPredicate allowed, String expected)
            implements HeaderParameter {

        /**
         * Returns this parameter holding {@code value}.
         *
         * @param value the value
         * @return the named value
         */
        public HeaderValue of(long value) {
            return new HeaderValue(this, value);
        }

        @Override
        public Object decode(long bits) {
            return bits;
        }
    }

    /**
     * A double, stored as its IEEE-754 bits, strictly between {@code above} and {@code below}.
     *
     * @param index the slot
     * @param name the name
     * @param above the open lower bound
     * @param below the open upper bound
     */
    record Interval(int index, String name, double above, double below) implements HeaderParameter {

        /**
         * Returns this parameter holding {@code value}.
         *
         * @param value the value
         * @return the named value
         */
        public HeaderValue of(double value) {
            return new HeaderValue(this, Double.doubleToLongBits(value));
        }

        @Override
        public Object decode(long bits) {
            return Double.longBitsToDouble(bits);
        }
    }

    /**
     * An integer parameter that may hold any value of [min, max].
     *
     * @param index the slot
     * @param name the name
     * @param min the smallest value
     * @param max the largest value
     * @return the parameter
     */
    static Ranged ranged(int index, String name, long min, long max) {
        return new Ranged(index, name, min, max, value -> true, null);
    }

    /**
     * An integer parameter that holds one of {@code values}, given in increasing order.
     *
     * @param index the slot
     * @param name the name
     * @param values the values a file may hold
     * @return the parameter
     */
    static Ranged oneOf(int index, String name, long... values) {
        long[] allowed = values.clone();
        String all = Arrays.stream(allowed).mapToObj(Long::toString).collect(Collectors.joining(", "));
        int lastComma = all.lastIndexOf(", ");
        String expected = lastComma < 0 ? all : all.substring(0, lastComma) + " or " + all.substring(lastComma + 2);
        return new Ranged(
                index,
                name,
                allowed[0],
                allowed[allowed.length - 1],
                value -> Arrays.stream(allowed).anyMatch(v -> v == value),
                expected);
    }

    /**
     * An integer parameter that holds a power of two in [min, max].
     *
     * @param index the slot
     * @param name the name
     * @param min the smallest value
     * @param max the largest value
     * @return the parameter
     */
    static Ranged powerOfTwo(int index, String name, long min, long max) {
        return new Ranged(index, name, min, max, value -> Long.bitCount(value) == 1, "a power of two");
    }

    /**
     * A double parameter strictly between {@code above} and {@code below}.
     *
     * @param index the slot
     * @param name the name
     * @param above the open lower bound
     * @param below the open upper bound
     * @return the parameter
     */
    static Interval interval(int index, String name, double above, double below) {
        return new Interval(index, name, above, below);
    }
}
