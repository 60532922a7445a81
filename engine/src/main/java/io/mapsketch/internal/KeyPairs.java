package io.mapsketch.internal;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The key walk of a batch of (key, item) pairs ({@link KeyTable#forEachPair}): the items hashed
 * {@value KeyHasher#BATCH} at a time, the keys {@link KeyBatch#SIZE} at a time, each batch's keys hashed and
 * found together ({@link KeyIndex#findAll}, their cache misses overlapped), then handed pair by pair in order.
 * The reasons are in {@code docs/design/tables.md}, "Where the time of adds and roll-ups goes".
 */
final class KeyPairs {

    private KeyPairs() {}

    /**
     * Hands {@code count} pairs to {@code step} in order, each with its key's record in {@code index}, a key
     * not found inserted if {@code insert} (else its record -1), and its item's hash by {@code hasher}.
     *
     * @throws IndexOutOfBoundsException if {@code count} exceeds an array (before any step) or a range lies
     *     outside {@code data} (the pairs before it are taken)
     * @throws io.mapsketch.TableFullException if inserting and a new key finds no room (the pairs before it
     *     are taken)
     */
    static void walk(
            KeyIndex index,
            KeyHasher hasher,
            byte[] data,
            int[] keyOffsets,
            int[] keyLengths,
            int[] itemOffsets,
            int[] itemLengths,
            int count,
            boolean insert,
            KeyTable.PairStep step) {
        Objects.checkFromIndexSize(0, count, keyOffsets.length);
        Objects.checkFromIndexSize(0, count, keyLengths.length);
        KeyBatch keys = new KeyBatch();
        keys.bytes = MemorySegment.ofArray(data);
        hasher.forEachBatch(data, itemOffsets, itemLengths, count, (hashes, first, n) -> {
            for (int from = 0; from < n; from += keys.size) {
                int size = 0;
                for (int pair = (int) first + from; size < KeyBatch.SIZE && from + size < n; size++, pair++) {
                    int offset = keyOffsets[pair];
                    int length = keyLengths[pair];
                    if (offset < 0 || length < 0 || offset > data.length - length) {
                        break;
                    }
                    keys.offsets[size] = offset;
                    keys.lengths[size] = length;
                    keys.hashes[size] = index.hash(keys.bytes, offset, length);
                }
                if (size == 0) { // the pairs before it are taken
                    int pair = (int) first + from;
                    Objects.checkFromIndexSize(keyOffsets[pair], keyLengths[pair], data.length);
                }
                keys.size = size;
                index.findAll(keys);
                for (int i = 0; i < size; i++) {
                    long record = keys.records[i];
                    if (record < 0 && insert) {
                        record = index.findOrInsert(keys.bytes, keys.offsets[i], keys.lengths[i], keys.hashes[i]);
                    }
                    step.take((int) first + from + i, record, hashes[from + i]);
                }
            }
        });
    }
}
