package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.cardinality.HyperLogLog;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;

/** The demo's distinct-count part: HyperLogLogs at two precisions, a small set, and a union of two shards. */
final class CardinalityDemo {

    private final PrintWriter out;

    CardinalityDemo(PrintWriter out) {
        this.out = out;
    }

    void hyperLogLog(Path dir) throws IOException {
        out.println("HyperLogLog");
        for (int precision : new int[] {14, 10}) {
            try (HyperLogLog sketch = HyperLogLog.builder()
                    .precision(precision)
                    .create(dir.resolve("visitors-p" + precision + ".hll"), OpenMode.EXCLUSIVE)) {
                for (int i = 0; i < 300_000; i++) {
                    sketch.add(Demo.member(i % 200_000));
                }
                out.printf(
                        Locale.ROOT,
                        "  p = %d (%,d bytes, %.2f%% standard error): 200,000 distinct in 300,000"
                                + " adds, estimate %,.0f (%+.2f%%)%n",
                        precision,
                        sketch.memoryBytes(),
                        100 * sketch.relativeStandardError(),
                        sketch.estimate(),
                        100 * (sketch.estimate() / 200_000 - 1));
            }
        }
        try (HyperLogLog small = HyperLogLog.builder().precision(14).createAnonymous(OpenMode.EXCLUSIVE)) {
            for (int i = 0; i < 1_000; i++) {
                small.add(Demo.member(i));
            }
            out.printf(
                    Locale.ROOT,
                    "  1,000 distinct: estimate %,.1f (classic raw + linear counting: %,.1f)%n",
                    small.estimate(),
                    small.classicEstimate());
        }
        try (HyperLogLog left =
                        HyperLogLog.builder().precision(14).create(dir.resolve("shard-a.hll"), OpenMode.EXCLUSIVE);
                HyperLogLog right =
                        HyperLogLog.builder().precision(14).create(dir.resolve("shard-b.hll"), OpenMode.EXCLUSIVE)) {
            for (int i = 0; i < 60_000; i++) {
                left.add(Demo.member(i));
                right.add(Demo.member(40_000 + i));
            }
            out.printf(
                    Locale.ROOT,
                    "  two shards of 60,000 sharing 20,000: union estimate %,.0f (truth 100,000),"
                            + " shards unchanged at %,.0f and %,.0f%n",
                    HyperLogLog.estimateUnion(left, right),
                    left.estimate(),
                    right.estimate());
        }
    }
}
