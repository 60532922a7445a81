package io.mapsketch.spark;

import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.frequency.FrequencySketch;
import io.mapsketch.membership.BlockedBloomRanges;
import io.mapsketch.membership.MembershipFilter;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.StringType;

/**
 * The key columns the functions take and how each is hashed: a string as its UTF-8 bytes (as the command
 * hashes a line), a long or an int as the engine's {@code long} key, a binary as its bytes. Every other
 * column type is refused, naming the function and the type.
 */
enum Keys {
    STRING(Encoders.STRING()),
    LONG(Encoders.LONG()),
    INT(Encoders.INT()),
    BINARY(Encoders.BINARY());

    private final Encoder<?> encoder;

    Keys(Encoder<?> encoder) {
        this.encoder = encoder;
    }

    /** The encoder of the key column's values, as the aggregate receives them. */
    Encoder<?> encoder() {
        return encoder;
    }

    /**
     * The key kind of a column type.
     *
     * @throws IllegalArgumentException naming the function, the column type and the supported ones
     */
    static Keys of(DataType type, String function) {
        if (type instanceof StringType) {
            return STRING;
        }
        if (type instanceof LongType) {
            return LONG;
        }
        if (type instanceof IntegerType) {
            return INT;
        }
        if (type instanceof BinaryType) {
            return BINARY;
        }
        throw new IllegalArgumentException(function + ": key column type = " + type.simpleString()
                + ", must be string, bigint, int or binary (cast other types to one of them)");
    }

    /** Adds a key value (a {@code String}, {@code Long}, {@code Integer} or {@code byte[]}) to a filter. */
    static void add(MembershipFilter filter, Object key) {
        switch (key) {
            case String s -> filter.add(s);
            case Long l -> filter.add(l.longValue());
            case Integer i -> filter.add(i.longValue());
            case byte[] b -> filter.add(b, 0, b.length);
            default -> throw refused(key);
        }
    }

    /** Adds a key value to a HyperLogLog. */
    static void add(HyperLogLog sketch, Object key) {
        switch (key) {
            case String s -> sketch.add(s);
            case Long l -> sketch.add(l.longValue());
            case Integer i -> sketch.add(i.longValue());
            case byte[] b -> sketch.add(b, 0, b.length);
            default -> throw refused(key);
        }
    }

    /** Adds {@code count} occurrences of a key value to a frequency sketch. */
    static void add(FrequencySketch sketch, Object key, long count) {
        switch (key) {
            case String s -> sketch.add(s, count);
            case Long l -> sketch.add(l.longValue(), count);
            case Integer i -> sketch.add(i.longValue(), count);
            case byte[] b -> sketch.add(b, 0, b.length, count);
            default -> throw refused(key);
        }
    }

    /** The hash a blocked Bloom filter of {@code ranges} computes for a key value, as {@link #add} adds it. */
    static long hash(BlockedBloomRanges ranges, Object key) {
        return switch (key) {
            case String s -> ranges.hash(s);
            case Long l -> ranges.hash(l.longValue());
            case Integer i -> ranges.hash(i.longValue());
            case byte[] b -> ranges.hash(b, 0, b.length);
            default -> throw refused(key);
        };
    }

    /** Tells whether a filter might hold a key value. */
    static boolean mightContain(MembershipFilter filter, Object key) {
        return switch (key) {
            case String s -> filter.mightContain(s);
            case Long l -> filter.mightContain(l.longValue());
            case Integer i -> filter.mightContain(i.longValue());
            case byte[] b -> filter.mightContain(b, 0, b.length);
            default -> throw refused(key);
        };
    }

    /** A frequency sketch's estimate of a key value's count. */
    static long estimate(FrequencySketch sketch, Object key) {
        return switch (key) {
            case String s -> sketch.estimate(s);
            case Long l -> sketch.estimate(l.longValue());
            case Integer i -> sketch.estimate(i.longValue());
            case byte[] b -> sketch.estimate(b, 0, b.length);
            default -> throw refused(key);
        };
    }

    private static IllegalArgumentException refused(Object key) {
        return new IllegalArgumentException("key of class " + key.getClass().getName()
                + ", must be a string, bigint, int or binary value (cast other types to one of them)");
    }
}
