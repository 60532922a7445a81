package io.mapsketch.internal;

import java.util.Arrays;
import java.util.List;

/**
 * The key walk of a merge of several tables into one ({@link KeyTable#mergeKeysOfAll}): the sources' indexes
 * walked one after the other in batches of {@link KeyBatch#SIZE} keys; a batch's keys found or inserted in
 * the destination, the ones a walk of an earlier source took dropped ({@link RecordSet}), the others looked
 * up in every later source, each lookup a batch ({@link KeyIndex#findAll}); then each key handed with its
 * records to the kind's merge. The reasons are in {@code docs/design/tables.md}, "Merges and unions".
 */
final class KeyMerge {

    private KeyMerge() {}

    /**
     * Hands every key of the {@code sources} once to {@code merge}, with its record in {@code into} (found or
     * inserted) and in each source (-1 where a source has not the key).
     *
     * @param into the destination's index
     * @param hasher the destination's key hasher, which hashes as every source's
     * @param capacity the destination's key capacity, which bounds the keys a merge takes
     * @param sources the sources' indexes, in the order of the sources
     * @param merge the kind's merge of one key
     * @throws io.mapsketch.TableFullException if a new key finds no room (the keys before it are merged)
     */
    static void walk(
            KeyIndex into, KeyHasher hasher, long capacity, List<KeyIndex> sources, KeyTable.RecordsMerge merge) {
        int count = sources.size();
        long reserved = 0;
        for (KeyIndex source : sources) {
            reserved = Math.min(capacity, reserved + source.reserved());
        }
        RecordSet merged = count > 1 ? new RecordSet(reserved) : null;
        long[][] found = new long[count][KeyBatch.SIZE];
        long[] here = new long[KeyBatch.SIZE];
        long[] records = new long[count];
        KeyBatch batch = new KeyBatch();
        for (int s = 0; s < count; s++) {
            int first = s;
            sources.get(s).forEachBatch(batch, hasher, keys -> {
                long[] walked = found[first];
                System.arraycopy(keys.records, 0, walked, 0, keys.size);
                into.findAll(keys);
                int taken = 0;
                for (int i = 0; i < keys.size; i++) {
                    long record = keys.records[i] >= 0
                            ? keys.records[i]
                            : into.findOrInsert(keys.bytes, keys.offsets[i], keys.lengths[i], keys.hashes[i]);
                    if (merged == null || merged.add(record)) { // else taken from an earlier source
                        here[taken] = record;
                        walked[taken] = walked[i];
                        keys.offsets[taken] = keys.offsets[i];
                        keys.lengths[taken] = keys.lengths[i];
                        keys.hashes[taken++] = keys.hashes[i];
                    }
                }
                keys.size = taken;
                for (int t = first + 1; t < count; t++) {
                    sources.get(t).findAll(keys);
                    System.arraycopy(keys.records, 0, found[t], 0, taken);
                }
                for (int i = 0; i < taken; i++) {
                    Arrays.fill(records, 0, first, -1);
                    for (int t = first; t < count; t++) {
                        records[t] = found[t][i];
                    }
                    merge.merge(here[i], records);
                }
            });
        }
    }
}
