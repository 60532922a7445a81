package io.mapsketch.enginetesting;

import io.mapsketch.OpenMode;
import io.mapsketch.similarity.MinHash;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Main class of the child JVMs of the MinHash cross-process test: {@code PATH COUNT SEED...} opens
 * the MinHash file SHARED, says {@code ready}, waits for a line on standard input, then adds the COUNT
 * {@link SeededKeys} of each SEED in turn with {@link #addStream}, and says {@code done}.
 */
public final class MinHashWorker {

    private MinHashWorker() {}

    public static void main(String[] args) throws Exception {
        try (MinHash minHash = MinHash.open(Path.of(args[0]), OpenMode.SHARED)) {
            System.out.println("ready");
            if (System.in.read() < 0) {
                return;
            }
            for (int s = 2; s < args.length; s++) {
                addStream(minHash, SeededKeys.of(Long.parseLong(args[s]), Integer.parseInt(args[1])));
            }
            System.out.println("done");
        }
    }

    /** Adds each key to row {@code key mod rows}: every other key singly, the rest in one batch per row. */
    public static void addStream(MinHash minHash, long[] keys) {
        int rows = minHash.rows();
        long[][] batches = new long[rows][keys.length];
        int[] filled = new int[rows];
        for (int i = 0; i < keys.length; i++) {
            int row = (int) Math.floorMod(keys[i], (long) rows);
            if (i % 2 == 0) {
                minHash.add(row, keys[i]);
            } else {
                batches[row][filled[row]++] = keys[i];
            }
        }
        for (int row = 0; row < rows; row++) {
            minHash.addAll(row, Arrays.copyOf(batches[row], filled[row]));
        }
    }
}
