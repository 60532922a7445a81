package io.mapsketch.example;

import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.OpenMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * What a service does with mapsketch: creates a blocked Bloom filter and a HyperLogLog in files,
 * adds keys (the filter's as UTF-8 bytes), reopens both read-only and checks their answers (the
 * filter's asked as strings). Prints one line per check, the
 * same on every run; exits with status 1 at the first wrong answer.
 */
public final class Main {
    private static final int KEYS = 10_000;
    private static final int DISTINCT = 100_000;

    private Main() {}

    /**
     * Runs the checks in a temporary folder, which it deletes.
     *
     * @param args none
     * @throws IOException if a sketch file cannot be created or read
     */
    public static void main(String[] args) throws IOException {
        Path folder = Files.createTempDirectory("mapsketch-example");
        try {
            Module module = Main.class.getModule();
            System.out.println(module.isNamed() ? "running as module " + module.getName() : "running on the class path");
            bloomFilter(folder.resolve("visitors.bloom"));
            hyperLogLog(folder.resolve("visitors.hll"));
        } finally {
            try (Stream<Path> files = Files.walk(folder)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
    }

    private static void bloomFilter(Path file) throws IOException {
        try (BlockedBloomFilter filter = BlockedBloomFilter.builder()
                .expectedItems(KEYS).falsePositiveRate(0.01)
                .create(file, OpenMode.SHARED)) {
            for (int i = 0; i < KEYS; i++) {
                // Keys often arrive as bytes; they are the same keys as the strings looked up below.
                byte[] key = ("visitor-" + i).getBytes(StandardCharsets.UTF_8);
                filter.add(key, 0, key.length);
            }
        }
        try (BlockedBloomFilter filter = BlockedBloomFilter.open(file, OpenMode.READ_ONLY)) {
            int found = 0;
            int falsePositives = 0;
            for (int i = 0; i < KEYS; i++) {
                found += filter.mightContain("visitor-" + i) ? 1 : 0;
                falsePositives += filter.mightContain("stranger-" + i) ? 1 : 0;
            }
            check(found == KEYS, "bloom: only " + found + " of " + KEYS + " added keys found after reopening");
            check(falsePositives < KEYS / 50, "bloom: " + falsePositives + " false positives among " + KEYS
                    + " keys never added, 2% or more");
            System.out.println("bloom: " + KEYS + " of " + KEYS + " added keys found after reopening read-only");
            System.out.println("bloom: false positives among " + KEYS + " keys never added: fewer than 2%");
        }
    }

    private static void hyperLogLog(Path file) throws IOException {
        long[] keys = new long[DISTINCT];
        for (int i = 0; i < DISTINCT; i++) {
            keys[i] = 1_000_003L * i;
        }
        try (HyperLogLog sketch = HyperLogLog.builder().precision(14).create(file, OpenMode.SHARED)) {
            sketch.addAll(keys);
        }
        try (HyperLogLog sketch = HyperLogLog.open(file, OpenMode.READ_ONLY)) {
            double error = Math.abs(sketch.estimate() - DISTINCT) / DISTINCT;
            check(error <= 3 * sketch.relativeStandardError(), "hll: estimate " + sketch.estimate() + " of "
                    + DISTINCT + " distinct keys is off by more than 3 standard errors");
            System.out.printf("hll: estimate of %d distinct keys within 3 standard errors (%.2f%% each)%n",
                    DISTINCT, 100 * sketch.relativeStandardError());
        }
    }

    private static void check(boolean holds, String failure) {
        if (!holds) {
            System.err.println("mapsketch example: " + failure);
            System.exit(1);
        }
    }
}
