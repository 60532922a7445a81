package io.mapsketch.enginetesting;

import java.util.SplittableRandom;

/**
 * The (key, item) pairs a killed inserter adds to a table and its test checks, the same on both sides:
 * drawn in order from one seeded generator. A quarter of the pairs go to {@value #HOT_KEYS} hot keys
 * (which turn a HyperLogLog key dense), the rest to a pool of keys that grows by one every third pair,
 * so that most pairs bring a key that is new or nearly so, up to {@value #KEYS} keys.
 */
public final class TablePairs {

    /** The pairs there are; an inserter adds at most these. */
    public static final int PAIRS = 400_000;
    /** The distinct keys the pairs use at most. */
    public static final int KEYS = 12_000;
    /** The hot keys. */
    public static final int HOT_KEYS = 4;

    private final int[] keys = new int[PAIRS];
    private final long[] items = new long[PAIRS];

    /** Draws the pairs. */
    public TablePairs() {
        SplittableRandom random = new SplittableRandom(23);
        for (int n = 0; n < PAIRS; n++) {
            keys[n] = random.nextInt(4) == 0
                    ? random.nextInt(HOT_KEYS)
                    : HOT_KEYS + random.nextInt(Math.min(n / 3 + 1, KEYS - HOT_KEYS));
            items[n] = random.nextLong();
        }
    }

    /** The key of pair {@code n}. */
    public String key(int n) {
        return "key-" + keys[n];
    }

    /** The item of pair {@code n}. */
    public long item(int n) {
        return items[n];
    }
}
