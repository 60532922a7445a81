package io.mapsketch.internal;

import java.util.Arrays;
import java.util.List;

/**
 * The key walk of a merge of several tables into one ({@link KeyTable#mergeKeysOfAll}): the sources' indexes
 * walked one after the other in batches of {@link KeyBatch#SIZE} keys; a batch's keys found or inserted in
 * the destination and looked up in every later source, each lookup a batch ({@link KeyIndex#findAll}), the
 * slots found there marked ({@link SlotSet}) so that the walk of that source passes them over unread; then
 * each key handed with its records to the kind's merge. The reasons are in {@code docs/design/tables.md},
 * "Merges and unions".
 */
final class KeyMerge {

    private KeyMerge() {}

    /**
     * Hands every key of the {@code sources} once to {@code merge}, with its record in {@code into} (found or
     * inserted) and in each source (-1 where a source has not the key); a source's record is handed once.
     *
     * @param into the destination's index
     * @param hasher the destination's key hasher, which hashes as every source's
     * @param sources the sources' indexes, in the order of the sources
     * @param merge the kind's merge of one key
     * @throws io.mapsketch.TableFullException if a new key finds no room (the keys before it are merged)
     */
    static void walk(KeyIndex into, KeyHasher hasher, List<KeyIndex> sources, KeyTable.RecordsMerge merge) {
        int count = sources.size();
        SlotSet[] taken = new SlotSet[count];
        for (int s = 0; s < count; s++) {
            taken[s] = s == 0 ? SlotSet.NONE : new SlotSet(sources.get(s).slotCount());
        }
        long[][] found = new long[count][KeyBatch.SIZE];
        long[] here = new long[KeyBatch.SIZE];
        long[] records = new long[count];
        KeyBatch batch = new KeyBatch();
        for (int s = 0; s < count; s++) {
            int first = s;
            sources.get(s).forEachBatch(batch, hasher, taken[s], keys -> {
                System.arraycopy(keys.records, 0, found[first], 0, keys.size);
                into.findAll(keys);
                for (int i = 0; i < keys.size; i++) {
                    here[i] = keys.records[i] >= 0
                            ? keys.records[i]
                            : into.findOrInsert(keys.bytes, keys.offsets[i], keys.lengths[i], keys.hashes[i]);
                }
                for (int t = first + 1; t < count; t++) {
                    sources.get(t).findAll(keys);
                    for (int i = 0; i < keys.size; i++) {
                        if (keys.slots[i] >= 0) {
                            taken[t].add(keys.slots[i]);
                        }
                    }
                    System.arraycopy(keys.records, 0, found[t], 0, keys.size);
                }
                Arrays.fill(records, 0, first, -1);
                for (int i = 0; i < keys.size; i++) {
                    for (int t = first; t < count; t++) {
                        records[t] = found[t][i];
                    }
                    merge.merge(here[i], records);
                }
            });
        }
    }
}
