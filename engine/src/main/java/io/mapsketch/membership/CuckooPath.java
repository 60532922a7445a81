package io.mapsketch.membership;

/**
 * The path search of a cuckoo insert whose two buckets are full: breadth-first from both buckets at
 * once and without writing anything, the shortest chain of moves (each fingerprint to its other bucket)
 * that ends in a bucket with a free slot, over at most {@value CuckooTable#MAX_KICKS} buckets. Only a
 * chain that was found is carried out, from its free end back to the key's bucket, each fingerprint
 * copied to its other bucket before its old slot is overwritten; a search that fails leaves the table
 * as it was.
 *
 * <p>Writers only, one at a time: the search reuses this object's arrays, so it allocates nothing.
 * Cost: up to {@value CuckooTable#MAX_KICKS} bucket reads, each checked against the buckets already
 * explored (quadratic in the path's breadth, bounded by the limit).
 */
final class CuckooPath {

    private final CuckooTable table;
    private final long[] pathBucket = new long[CuckooTable.MAX_KICKS];
    private final int[] pathParent = new int[CuckooTable.MAX_KICKS];
    private final int[] pathSlot = new int[CuckooTable.MAX_KICKS];

    CuckooPath(CuckooTable table) {
        this.table = table;
    }

    /**
     * Stores a fingerprint whose buckets {@code first} and {@code second} are both full, after moving
     * others along the shortest path to a free slot.
     *
     * @return {@code false} if no path was found within the limit (nothing changed)
     */
    boolean moveToInsert(long first, long second, int fingerprint) {
        pathBucket[0] = first;
        pathBucket[1] = second;
        pathParent[0] = -1;
        pathParent[1] = -1;
        int nodes = 2;
        for (int head = 0; head < nodes; head++) {
            long bucket = pathBucket[head];
            long slots = table.slotsOf(bucket, false);
            for (int slot = 0; slot < CuckooTable.BUCKET_SIZE; slot++) {
                if (nodes == CuckooTable.MAX_KICKS) {
                    return false;
                }
                long next = table.alternate(bucket, table.fingerprintIn(slots, slot));
                if (explored(next, nodes)) {
                    continue;
                }
                pathBucket[nodes] = next;
                pathParent[nodes] = head;
                pathSlot[nodes] = slot;
                int free = table.find(next, 0);
                if (free >= 0) {
                    carryOut(nodes, free, fingerprint);
                    return true;
                }
                nodes++;
            }
        }
        return false;
    }

    private boolean explored(long bucket, int nodes) {
        for (int node = 0; node < nodes; node++) {
            if (pathBucket[node] == bucket) {
                return true;
            }
        }
        return false;
    }

    /** Moves every fingerprint of the path one step along it, from its free end, then stores the new one. */
    private void carryOut(int node, int freeSlot, int fingerprint) {
        long target = pathBucket[node];
        int targetSlot = freeSlot;
        while (pathParent[node] >= 0) {
            long source = pathBucket[pathParent[node]];
            int sourceSlot = pathSlot[node];
            table.copyAndCountMove(source, sourceSlot, target, targetSlot);
            target = source;
            targetSlot = sourceSlot;
            node = pathParent[node];
        }
        table.write(target, targetSlot, fingerprint);
    }
}
