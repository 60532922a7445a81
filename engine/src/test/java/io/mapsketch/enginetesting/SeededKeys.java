package io.mapsketch.enginetesting;

import java.util.SplittableRandom;

/**
 * Keys drawn from a seed, for a test and the child JVMs it starts: a child gets the seed and count on
 * its command line and adds exactly the keys the parent then checks for. Properties generate their keys
 * instead ({@link KeyGenerators}), so that a failing case shrinks.
 */
public final class SeededKeys {

    private SeededKeys() {}

    /** The first {@code count} outputs of {@code new SplittableRandom(seed)}: any longs, repeats possible. */
    public static long[] of(long seed, int count) {
        return new SplittableRandom(seed).longs(count).toArray();
    }

    /** The first {@code count} distinct outputs of {@code new SplittableRandom(seed)}. */
    public static long[] distinctKeys(long seed, int count) {
        return new SplittableRandom(seed).longs().distinct().limit(count).toArray();
    }
}
