package io.mapsketch.internal;

import java.util.Random;

/**
 * Where Spark's {@code CountMinSketch} counts an item in each row. Integral items ({@code byte},
 * {@code short}, {@code int}, {@code long}, widened to a {@code long}) use the row's multiplier
 * {@code a}: {@code h = a * item; h += h >> 32; h &= Integer.MAX_VALUE}, column {@code (int) h % width}.
 * Bytes (a string's UTF-8 bytes, a byte array) use the {@link SparkHashes} pair with seed 0,
 * whatever the sketch's seed: column {@code |(h1 + row * h2) % width|} in 32-bit arithmetic that wraps.
 *
 * <p>Cost: no allocation but in {@link #hashA}; a multiply, a shift and a remainder per row.
 */
public final class SparkCountMinBuckets {

    private SparkCountMinBuckets() {}

    /**
     * Returns the row multipliers Spark draws for a seed: {@code depth} draws of
     * {@code new java.util.Random(seed).nextInt(Integer.MAX_VALUE)}.
     *
     * @param seed the seed the sketch was created with
     * @param depth the number of rows, {@code >= 1}
     * @return a new array of {@code depth} multipliers
     * @throws IllegalArgumentException if {@code depth < 1}
     */
    public static long[] hashA(int seed, int depth) {
        if (depth < 1) {
            throw new IllegalArgumentException("depth = " + depth + ", must be >= 1");
        }
        Random random = new Random(seed);
        long[] multipliers = new long[depth];
        for (int row = 0; row < depth; row++) {
            multipliers[row] = random.nextInt(Integer.MAX_VALUE);
        }
        return multipliers;
    }

    /**
     * Returns the column of an integral item in the row whose multiplier is {@code hashA}.
     *
     * @param hashA the row's multiplier
     * @param item the item, widened to a {@code long}
     * @param width the counters per row, {@code >= 1}
     * @return the column, 0 to {@code width - 1}
     */
    public static int longBucket(long hashA, long item, int width) {
        long hash = hashA * item;
        hash += hash >> 32;
        hash &= Integer.MAX_VALUE;
        return (int) hash % width;
    }

    /**
     * Returns the column of an item's bytes in one row.
     *
     * @param pair the bytes' pair, {@link SparkHashes#pairOfBytes} with seed 0
     * @param row the row, 0 to {@code depth - 1}
     * @param width the counters per row, {@code >= 1}
     * @return the column, 0 to {@code width - 1}
     */
    public static int bytesBucket(long pair, int row, int width) {
        return Math.abs((SparkHashes.first(pair) + row * SparkHashes.second(pair)) % width);
    }
}
