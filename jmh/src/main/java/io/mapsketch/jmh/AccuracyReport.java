package io.mapsketch.jmh;

import io.mapsketch.OpenMode;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BlockedBloomSizing;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.BloomSizing;
import io.mapsketch.membership.MembershipFilter;
import java.io.IOException;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Measures the false-positive rates of the Bloom filters against their formulas and prints the
 * table of {@code docs/accuracy.md}. Not a JMH benchmark: a plain main in the benchmarks jar, run as
 * {@code java --add-modules jdk.incubator.vector -cp jmh/target/benchmarks.jar io.mapsketch.jmh.AccuracyReport}.
 * Every random source is seeded, so the table is the same on every machine.
 */
public final class AccuracyReport {

    private static final long ITEMS = 1_000_000;
    private static final int PROBE_BATCH = 4096;

    private AccuracyReport() {}

    /**
     * Prints the table.
     *
     * @param args unused
     * @throws IOException never in practice: the filters are anonymous
     */
    public static void main(String[] args) throws IOException {
        System.out.println(
                "| layout | target p | bits/item | probes/key | measured at n | 95% CI | filter's estimate at n"
                        + " | measured at 2n | formula at 2n |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        for (double rate : new double[] {0.1, 0.01, 0.001, 0.0001}) {
            try (BloomFilter classic = BloomFilter.builder()
                    .expectedItems(ITEMS)
                    .falsePositiveRate(rate)
                    .seed(1)
                    .createAnonymous(OpenMode.EXCLUSIVE)) {
                row(
                        "classic",
                        rate,
                        classic,
                        classic.bitCount(),
                        classic.hashCount(),
                        BloomSizing.falsePositiveRate(classic.bitCount(), classic.hashCount(), 2 * ITEMS));
            }
            try (BlockedBloomFilter blocked = BlockedBloomFilter.builder()
                    .expectedItems(ITEMS)
                    .falsePositiveRate(rate)
                    .seed(1)
                    .createAnonymous(OpenMode.EXCLUSIVE)) {
                row(
                        "blocked",
                        rate,
                        blocked,
                        blocked.blockCount() * 512,
                        blocked.bitsPerKey(),
                        BlockedBloomSizing.falsePositiveRate(blocked.blockCount(), blocked.bitsPerKey(), 2 * ITEMS));
            }
        }
    }

    private static void row(
            String layout, double rate, MembershipFilter filter, long bits, int probesPerKey, double formulaAtTwice) {
        SplittableRandom keys = new SplittableRandom(2);
        filter.addAll(keys.longs(ITEMS).toArray());
        double estimateAtCapacity = filter.expectedFalsePositiveRate();
        long probes = PROBE_BATCH * (long) Math.ceil(Math.min(200_000_000, 10_000 / rate) / PROBE_BATCH);
        double atCapacity = measure(filter, probes, 3);
        filter.addAll(keys.longs(ITEMS).toArray());
        double atTwice = measure(filter, probes, 4);
        double halfWidth = 1.96 * Math.sqrt(atCapacity * (1 - atCapacity) / probes);
        System.out.printf(
                Locale.ROOT,
                "| %s | %s | %.2f | %d | %.4f%% | ±%.4f%% | %.4f%% | %.3f%% | %.3f%% |%n",
                layout,
                rate,
                (double) bits / ITEMS,
                probesPerKey,
                100 * atCapacity,
                100 * halfWidth,
                100 * estimateAtCapacity,
                100 * atTwice,
                100 * formulaAtTwice);
    }

    private static double measure(MembershipFilter filter, long probes, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] batch = new long[PROBE_BATCH];
        boolean[] found = new boolean[PROBE_BATCH];
        long positives = 0;
        for (long done = 0; done < probes; done += PROBE_BATCH) {
            for (int i = 0; i < batch.length; i++) {
                batch[i] = random.nextLong();
            }
            filter.mightContainAll(batch, found);
            for (boolean f : found) {
                positives += f ? 1 : 0;
            }
        }
        return (double) positives / probes;
    }
}
