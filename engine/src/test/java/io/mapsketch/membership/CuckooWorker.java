package io.mapsketch.membership;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.SeededKeys;
import io.mapsketch.internal.SketchInternals;
import io.mapsketch.memory.RegionLock;
import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.IntStream;

/**
 * Main class of the child JVMs of {@link CuckooCrossProcessTest}.
 *
 * <ul>
 *   <li>{@code churn FILE SEED COUNT}: opens SHARED, says {@code ready}, waits for a line on standard
 *       input, adds the COUNT keys of SEED ({@link SeededKeys}; every other key singly, the rest
 *       in one batch), removes every third of them ({@link #removed}), says {@code done}.</li>
 *   <li>{@code die-holding FILE KEY}: opens SHARED, takes the filter's lock and copies KEY's fingerprint
 *       into a free slot of its other bucket, as a move does before it overwrites the old slot, says
 *       {@code torn} and sleeps until killed: a writer that dies in the middle of a path of moves.</li>
 * </ul>
 */
public final class CuckooWorker {

    private CuckooWorker() {}

    public static void main(String[] args) throws Exception {
        try (CuckooFilter filter = CuckooFilter.open(Path.of(args[1]), OpenMode.SHARED)) {
            switch (args[0]) {
                case "churn" -> churn(filter, SeededKeys.of(Long.parseLong(args[2]), Integer.parseInt(args[3])));
                case "die-holding" -> {
                    new RegionLock(SketchInternals.payload(filter), CuckooTable.LOCK).lock();
                    copyToOtherBucket(
                            filter.table(), SketchInternals.hasher(filter).hash(Long.parseLong(args[2])));
                    System.out.println("torn");
                    Thread.sleep(Long.MAX_VALUE);
                }
                default -> throw new IllegalArgumentException("unknown command " + args[0]);
            }
        }
    }

    private static void churn(CuckooFilter filter, long[] keys) throws IOException {
        System.out.println("ready");
        if (System.in.read() < 0) {
            return;
        }
        long[] batch = new long[keys.length / 2];
        for (int i = 0; i < keys.length; i++) {
            if (i % 2 == 0) {
                filter.add(keys[i]);
            } else {
                batch[i / 2] = keys[i];
            }
        }
        filter.addAll(batch);
        for (long key : removed(keys)) {
            filter.remove(key);
        }
        System.out.println("done");
    }

    /** The keys a churn removes again: every third. */
    static long[] removed(long[] keys) {
        return IntStream.range(0, keys.length)
                .filter(i -> i % 3 == 0)
                .mapToLong(i -> keys[i])
                .toArray();
    }

    /** The keys a churn leaves in the filter. */
    static long[] kept(long[] keys) {
        return IntStream.range(0, keys.length)
                .filter(i -> i % 3 != 0)
                .mapToLong(i -> keys[i])
                .toArray();
    }

    /** Writes the key's fingerprint into a free slot of the bucket it is not in: the first half of a move. */
    static void copyToOtherBucket(CuckooTable table, long hash) {
        int fingerprint = table.fingerprint(hash);
        long first = table.bucket(hash);
        long second = table.alternate(first, fingerprint);
        long other = table.find(first, fingerprint) >= 0 ? second : first;
        int free = table.find(other, 0);
        if (free < 0) {
            throw new IllegalStateException("bucket " + other + " is full; choose a key with a free slot there");
        }
        table.write(other, free, fingerprint);
    }
}
