package io.mapsketch.jmh;

import io.mapsketch.OpenMode;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.frequency.HeavyHitter;
import io.mapsketch.frequency.TopK;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Measures Count-Min's overestimates and Top-K's recall on seeded Zipf streams and prints the tables
 * of {@code docs/accuracy.md}. Not a JMH benchmark: a plain main in the benchmarks jar, run as
 * {@code java --add-modules jdk.incubator.vector -cp jmh/target/benchmarks.jar
 * io.mapsketch.jmh.FrequencyAccuracyReport}. Every stream is seeded, so the tables are the same on
 * every machine.
 */
public final class FrequencyAccuracyReport {

    private static final int EVENTS = 1_000_000;
    private static final int RANKS = 100_000;
    private static final double DELTA = 0.01;
    private static final int K = 100;

    private FrequencyAccuracyReport() {}

    /**
     * Prints both tables.
     *
     * @param args unused
     * @throws IOException never in practice: the sketches are anonymous
     */
    public static void main(String[] args) throws IOException {
        System.out.println("| Zipf exponent | epsilon | update | bound eps N | keys beyond the bound | max overestimate"
                + " | mean overestimate |");
        System.out.println("|---:|---:|---|---:|---:|---:|---:|");
        for (double exponent : new double[] {0.8, 1.0, 1.2}) {
            long[] stream = KeyStreams.zipf(EVENTS, RANKS, exponent, 11);
            Map<Long, Long> exact = counts(stream);
            for (double epsilon : new double[] {0.01, 0.001, 0.0001}) {
                for (boolean conservative : new boolean[] {false, true}) {
                    countMinRow(stream, exact, exponent, epsilon, conservative);
                }
            }
        }
        System.out.println();
        System.out.println("| Zipf exponent | epsilon | exact top 100 listed | listed keys never below their count |");
        System.out.println("|---:|---:|---:|---|");
        for (double exponent : new double[] {0.8, 1.0, 1.2}) {
            long[] stream = KeyStreams.zipf(EVENTS, RANKS, exponent, 11);
            Map<Long, Long> exact = counts(stream);
            for (double epsilon : new double[] {0.001, 0.0001}) {
                topKRow(stream, exact, exponent, epsilon);
            }
        }
    }

    private static void countMinRow(
            long[] stream, Map<Long, Long> exact, double exponent, double epsilon, boolean conservative)
            throws IOException {
        try (CountMinSketch sketch = CountMinSketch.builder()
                .epsilon(epsilon)
                .delta(DELTA)
                .conservativeUpdate(conservative)
                .seed(5)
                .createAnonymous(OpenMode.EXCLUSIVE)) {
            sketch.addAll(stream);
            long bound = sketch.errorBound();
            long beyond = 0;
            long max = 0;
            double sum = 0;
            for (Map.Entry<Long, Long> entry : exact.entrySet()) {
                long over = sketch.estimate(entry.getKey()) - entry.getValue();
                if (over < 0) {
                    throw new IllegalStateException("undercount of key " + entry.getKey());
                }
                beyond += over > bound ? 1 : 0;
                max = Math.max(max, over);
                sum += over;
            }
            System.out.printf(
                    Locale.ROOT,
                    "| %.1f | %s | %s | %,d | %.3f%% of %,d | %,d | %.2f |%n",
                    exponent,
                    plain(epsilon),
                    conservative ? "conservative" : "plain",
                    bound,
                    100.0 * beyond / exact.size(),
                    exact.size(),
                    max,
                    sum / exact.size());
        }
    }

    private static void topKRow(long[] stream, Map<Long, Long> exact, double exponent, double epsilon)
            throws IOException {
        try (TopK sketch =
                TopK.builder().k(K).epsilon(epsilon).delta(DELTA).seed(5).createAnonymous(OpenMode.EXCLUSIVE)) {
            for (long key : stream) {
                sketch.add(key);
            }
            Set<Long> truth = new HashSet<>(exact.entrySet().stream()
                    .sorted(Map.Entry.<Long, Long>comparingByValue(Comparator.reverseOrder())
                            .thenComparing(Map.Entry.comparingByKey()))
                    .limit(K)
                    .map(Map.Entry::getKey)
                    .toList());
            int found = 0;
            boolean sound = true;
            for (HeavyHitter hitter : sketch.top()) {
                found += truth.contains(hitter.keyAsLong()) ? 1 : 0;
                sound &= hitter.estimate() >= exact.getOrDefault(hitter.keyAsLong(), 0L);
            }
            System.out.printf(
                    Locale.ROOT, "| %.1f | %s | %d | %s |%n", exponent, plain(epsilon), found, sound ? "yes" : "NO");
        }
    }

    private static String plain(double value) {
        return BigDecimal.valueOf(value).toPlainString();
    }

    private static Map<Long, Long> counts(long[] stream) {
        Map<Long, Long> counts = new HashMap<>();
        for (long key : stream) {
            counts.merge(key, 1L, Long::sum);
        }
        return counts;
    }
}
