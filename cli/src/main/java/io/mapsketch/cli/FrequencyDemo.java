package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.frequency.HeavyHitter;
import io.mapsketch.frequency.TopK;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/** The demo's frequency part: a Count-Min sketch with Top-K candidates over a seeded Zipf stream. */
final class FrequencyDemo {

    private final PrintWriter out;

    FrequencyDemo(PrintWriter out) {
        this.out = out;
    }

    /** 50,000 events over 10,000 keys, Zipf with exponent 1, seeded: the seed's frequency demo. */
    void countMin(Path file) throws IOException {
        int keys = 10_000;
        int events = 50_000;
        double[] cumulative = new double[keys];
        double total = 0;
        for (int rank = 1; rank <= keys; rank++) {
            total += 1.0 / rank;
            cumulative[rank - 1] = total;
        }
        long[] truth = new long[keys];
        SplittableRandom random = new SplittableRandom(2026);
        try (TopK sketch = TopK.builder().k(100).epsilon(0.001).delta(0.01).create(file, OpenMode.EXCLUSIVE)) {
            for (int e = 0; e < events; e++) {
                int index = Arrays.binarySearch(cumulative, random.nextDouble() * total);
                int rank = index >= 0 ? index : -index - 1;
                truth[rank]++;
                sketch.add("item-" + (rank + 1));
            }
            long maxOver = 0;
            long sumOver = 0;
            int seen = 0;
            int beyondBound = 0;
            for (int rank = 0; rank < keys; rank++) {
                if (truth[rank] > 0) {
                    long over = sketch.estimate("item-" + (rank + 1)) - truth[rank];
                    maxOver = Math.max(maxOver, over);
                    sumOver += over;
                    seen++;
                    beyondBound += over > sketch.errorBound() ? 1 : 0;
                }
            }
            out.printf(
                    Locale.ROOT,
                    "Count-Min, eps 0.001, delta 0.01: %,d x %d counters (%,d bytes; %,d with the Top-K"
                            + " candidates)   [w = ceil(e/eps), d = ceil(ln 1/delta)]%n",
                    sketch.width(),
                    sketch.depth(),
                    sketch.counterMemoryBytes(),
                    sketch.memoryBytes());
            out.printf(
                    Locale.ROOT,
                    "  %,d Zipf events over %,d keys (%,d seen): bound eps x N = %d; overestimate max %d,"
                            + " mean %.2f; keys beyond the bound %d (at most %.0f%% may be)%n",
                    events,
                    keys,
                    seen,
                    sketch.errorBound(),
                    maxOver,
                    (double) sumOver / seen,
                    beyondBound,
                    100 * sketch.delta());
            StringBuilder top = new StringBuilder();
            for (HeavyHitter hitter : sketch.top(5)) {
                int rank = Integer.parseInt(hitter.keyAsString().substring("item-".length())) - 1;
                top.append(String.format(
                        Locale.ROOT, "  %s %d (exact %d)", hitter.keyAsString(), hitter.estimate(), truth[rank]));
            }
            out.println("  top 5 by sketch (Top-K, k = 100):" + top);
        }
    }
}
