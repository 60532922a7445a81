package io.mapsketch.jmh;

import io.mapsketch.cardinality.HyperLogLogTable;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Batches of (key, item) pairs in the form {@link HyperLogLogTable#addAll(byte[], int[], int[], int[], int[],
 * int)} takes: one byte array holding the keys and the items, and each pair's offsets and lengths. Key
 * {@code k} is the 16 bytes {@code /page/0000000017} (its decimal number, zero-padded); item {@code i} of
 * key {@code k} is the 8 little-endian bytes of {@link KeyStreams#key} of {@code k * itemsPerKey + i}, so
 * items differ between keys and within one.
 */
final class TablePairs {

    /** Bytes of every key. */
    static final int KEY_BYTES = 16;

    final byte[] data;
    final int[] keyOffsets;
    final int[] keyLengths;
    final int[] itemOffsets;
    final int[] itemLengths;
    final int count;

    private TablePairs(int pairs, int keysInData) {
        data = new byte[keysInData * KEY_BYTES + pairs * Long.BYTES];
        keyOffsets = new int[pairs];
        keyLengths = new int[pairs];
        itemOffsets = new int[pairs];
        itemLengths = new int[pairs];
        count = pairs;
    }

    /** The bytes of key {@code k}. */
    static byte[] key(long k) {
        return String.format(Locale.ROOT, "/page/%010d", k).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Items {@code firstItem .. firstItem + items - 1} of keys {@code firstKey .. firstKey + keys - 1}, key by
     * key: the pairs of each key in a run, so the table finds each key once.
     */
    static TablePairs items(long firstKey, int keys, int firstItem, int items, int itemsPerKey) {
        TablePairs pairs = new TablePairs(keys * items, keys);
        int at = 0;
        int pair = 0;
        for (int k = 0; k < keys; k++) {
            int keyAt = at;
            at = putKey(pairs.data, at, firstKey + k);
            for (int i = 0; i < items; i++) {
                at = pairs.put(pair++, keyAt, at, (firstKey + k) * itemsPerKey + firstItem + i);
            }
        }
        return pairs;
    }

    /**
     * {@code count} pairs of keys drawn uniformly from {@code 0 .. keys - 1}, each with one of its
     * {@code itemsPerKey} items drawn uniformly, from {@code random}.
     */
    static TablePairs uniform(int count, int keys, int itemsPerKey, SplittableRandom random) {
        TablePairs pairs = new TablePairs(count, count);
        int at = 0;
        for (int pair = 0; pair < count; pair++) {
            long k = random.nextInt(keys);
            int keyAt = at;
            at = putKey(pairs.data, at, k);
            at = pairs.put(pair, keyAt, at, k * itemsPerKey + random.nextInt(itemsPerKey));
        }
        return pairs;
    }

    /** Adds every pair to {@code table}; returns whether a register grew. */
    boolean addTo(HyperLogLogTable table) {
        return table.addAll(data, keyOffsets, keyLengths, itemOffsets, itemLengths, count);
    }

    private static int putKey(byte[] data, int at, long k) {
        System.arraycopy(key(k), 0, data, at, KEY_BYTES);
        return at + KEY_BYTES;
    }

    private int put(int pair, int keyAt, int at, long itemIndex) {
        keyOffsets[pair] = keyAt;
        keyLengths[pair] = KEY_BYTES;
        itemOffsets[pair] = at;
        itemLengths[pair] = Long.BYTES;
        long item = KeyStreams.key(itemIndex);
        for (int b = 0; b < Long.BYTES; b++) {
            data[at + b] = (byte) (item >>> (8 * b));
        }
        return at + Long.BYTES;
    }
}
