package io.mapsketch.jmh;

import io.mapsketch.OpenMode;
import io.mapsketch.membership.BloomFilter;
import java.io.IOException;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Measures the false-positive rate of small classic Bloom filters sized for tiny rates, where the
 * probes' double hashing sets a floor under the formula: an absent key whose k probes all coincide
 * with one present key's, about {@code 2 / (k m)^2} of the time, is a false positive whatever the
 * fill. Prints the table of the audit in {@code docs/accuracy.md}. Not a JMH benchmark: a plain main
 * in the benchmarks jar, run as
 * {@code java --add-modules jdk.incubator.vector -cp jmh/target/benchmarks.jar io.mapsketch.jmh.BloomProbeFloorReport}
 * (about two minutes). Every random source is seeded.
 */
public final class BloomProbeFloorReport {

    private static final int PROBE_BATCH = 4096;

    private BloomProbeFloorReport() {}

    /**
     * Prints the table.
     *
     * @param args unused
     * @throws IOException never in practice: the filters are anonymous
     */
    public static void main(String[] args) throws IOException {
        System.out.println("| items n | target p | bits m | probes k | keys asked | false positives | measured rate"
                + " | floor 2 n / (k m)^2 |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|");
        row(10, 1e-6, 100_000_000);
        row(100, 1e-9, 1_000_000_000);
        row(100, 1e-12, 1_000_000_000);
    }

    private static void row(int items, double rate, long asked) throws IOException {
        try (BloomFilter filter = BloomFilter.builder()
                .expectedItems(items)
                .falsePositiveRate(rate)
                .seed(1)
                .createAnonymous(OpenMode.EXCLUSIVE)) {
            SplittableRandom random = new SplittableRandom(items);
            filter.addAll(random.longs(items).toArray());
            long[] batch = new long[PROBE_BATCH];
            boolean[] found = new boolean[PROBE_BATCH];
            long positives = 0;
            for (long done = 0; done < asked; done += PROBE_BATCH) {
                for (int i = 0; i < batch.length; i++) {
                    batch[i] = random.nextLong();
                }
                filter.mightContainAll(batch, found);
                for (boolean f : found) {
                    positives += f ? 1 : 0;
                }
            }
            double km = (double) filter.hashCount() * filter.bitCount();
            System.out.printf(
                    Locale.ROOT,
                    "| %,d | %.0e | %,d | %d | %,d | %,d | %.2e | %.1e |%n",
                    items,
                    rate,
                    filter.bitCount(),
                    filter.hashCount(),
                    asked,
                    positives,
                    (double) positives / asked,
                    2 * items / (km * km));
        }
    }
}
