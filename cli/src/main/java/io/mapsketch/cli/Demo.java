package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.frequency.HeavyHitter;
import io.mapsketch.frequency.TopK;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BlockedBloomSizing;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.BloomSizing;
import io.mapsketch.membership.CountingBloomFilter;
import io.mapsketch.membership.MembershipFilter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code mapsketch demo}: builds the seed's Bloom filters, Count-Min and HyperLogLog sketches as real
 * files in a temporary directory and prints what was measured next to what the formulas say, has a
 * second JVM open one of the files, and ends with the files and {@code mapsketch info} of one of them.
 * Seeded: the same figures on every run.
 */
final class Demo {

    private static final int ITEMS = 10_000;
    private static final double RATE = 0.01;
    private static final int PROBES = 1_000_000;

    private final PrintWriter out;
    private final List<SketchFamily> families;

    Demo(PrintWriter out, List<SketchFamily> families) {
        this.out = out;
        this.families = families;
    }

    int run() throws IOException {
        Path dir = Files.createTempDirectory("mapsketch-demo-");
        out.println("mapsketch demo: real sketch files in " + dir);
        out.println();
        out.flush();
        Path classic = classicBloom(dir.resolve("members.bloom"));
        out.flush();
        blockedBloom(dir.resolve("members.bbf"));
        out.flush();
        countingBloom(dir.resolve("members.cbf"));
        out.flush();
        secondJvm(classic);
        out.flush();
        Path events = dir.resolve("events.topk");
        countMin(events);
        out.flush();
        hyperLogLog(dir);
        out.println();
        out.println("files:");
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.sorted().toList()) {
                out.printf(Locale.ROOT, "  %-18s %,10d bytes%n", file.getFileName(), Files.size(file));
            }
        }
        out.println();
        out.println("mapsketch info " + events + ":");
        Info.print(events, false, out);
        return 0;
    }

    private static String member(int i) {
        return "user-" + i;
    }

    private static String absent(int i) {
        return "visitor-" + i;
    }

    private Path classicBloom(Path file) throws IOException {
        try (BloomFilter filter = BloomFilter.builder()
                .expectedItems(ITEMS)
                .falsePositiveRate(RATE)
                .create(file, OpenMode.EXCLUSIVE)) {
            out.printf(Locale.ROOT, "Bloom filter (classic), %,d items at %.0f%%%n", ITEMS, 100 * RATE);
            out.printf(
                    Locale.ROOT,
                    "  sized   %,d bits (%.1f KB), k = %d, %.1f bits per item"
                            + "   [m = -n ln p / (ln 2)^2, k = (m/n) ln 2]%n",
                    filter.bitCount(),
                    filter.bitCount() / 8.0 / 1024,
                    filter.hashCount(),
                    (double) filter.bitCount() / ITEMS);
            addMembers(filter, 0, ITEMS);
            out.printf(Locale.ROOT, "  added   %,d items; false negatives: %d%n", ITEMS, falseNegatives(filter));
            printRate(
                    "at capacity", filter, BloomSizing.falsePositiveRate(filter.bitCount(), filter.hashCount(), ITEMS));
            addMembers(filter, ITEMS, 2 * ITEMS);
            printRate(
                    "at twice capacity",
                    filter,
                    BloomSizing.falsePositiveRate(filter.bitCount(), filter.hashCount(), 2L * ITEMS));
        }
        return file;
    }

    private void blockedBloom(Path file) throws IOException {
        try (BlockedBloomFilter filter = BlockedBloomFilter.builder()
                .expectedItems(ITEMS)
                .falsePositiveRate(RATE)
                .create(file, OpenMode.SHARED)) {
            long bits = filter.blockCount() * 512;
            out.printf(
                    Locale.ROOT,
                    "Blocked Bloom filter (one cache line per key), %,d items at %.0f%%%n",
                    ITEMS,
                    100 * RATE);
            out.printf(
                    Locale.ROOT,
                    "  sized   %,d blocks of 64 bytes, %.1f bits per item   [Poisson mixture over" + " block loads]%n",
                    filter.blockCount(),
                    (double) bits / ITEMS);
            addMembers(filter, 0, ITEMS);
            out.printf(Locale.ROOT, "  added   %,d items; false negatives: %d%n", ITEMS, falseNegatives(filter));
            printRate(
                    "at capacity",
                    filter,
                    BlockedBloomSizing.falsePositiveRate(filter.blockCount(), filter.bitsPerKey(), ITEMS));
        }
    }

    private void countingBloom(Path file) throws IOException {
        try (CountingBloomFilter filter = CountingBloomFilter.builder()
                .expectedItems(ITEMS)
                .falsePositiveRate(RATE)
                .create(file, OpenMode.EXCLUSIVE)) {
            out.printf(Locale.ROOT, "Counting Bloom filter (4-bit counters), %,d items at %.0f%%%n", ITEMS, 100 * RATE);
            addMembers(filter, 0, ITEMS);
            for (int i = 0; i < ITEMS / 2; i++) {
                filter.remove(member(i));
            }
            int kept = 0;
            int stillReported = 0;
            for (int i = 0; i < ITEMS; i++) {
                boolean found = filter.mightContain(member(i));
                if (i < ITEMS / 2) {
                    stillReported += found ? 1 : 0;
                } else {
                    kept += found ? 1 : 0;
                }
            }
            out.printf(
                    Locale.ROOT,
                    "  added %,d, removed %,d: kept items found %,d of %,d; removed items still"
                            + " reported %d (false positives, about %.2f%% expected)%n",
                    ITEMS,
                    ITEMS / 2,
                    kept,
                    ITEMS / 2,
                    stillReported,
                    100 * filter.expectedFalsePositiveRate());
        }
    }

    private void secondJvm(Path file) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"), "--add-modules", "jdk.incubator.vector"));
        String modulePath = System.getProperty("jdk.module.path");
        if (modulePath != null) {
            command.addAll(List.of(
                    "--enable-native-access=io.mapsketch.memory",
                    "--module-path",
                    modulePath,
                    "--module",
                    "io.mapsketch.cli/" + Main.class.getName()));
        } else {
            command.addAll(List.of(
                    "--enable-native-access=ALL-UNNAMED",
                    "-cp",
                    System.getProperty("java.class.path"),
                    Main.class.getName()));
        }
        command.addAll(List.of("bf", "exists", file.toString(), member(17), absent(17)));
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("the second JVM did not answer within 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the second JVM", e);
        }
        String answers = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                .strip()
                .replace('\n', ' ');
        out.printf(
                Locale.ROOT,
                "Second JVM (pid %d): mapsketch bf exists %s %s %s  ->  %s   (1 = may contain,"
                        + " 0 = certainly not)%n",
                process.pid(),
                file.getFileName(),
                member(17),
                absent(17),
                answers);
    }

    private void hyperLogLog(Path dir) throws IOException {
        out.println("HyperLogLog");
        for (int precision : new int[] {14, 10}) {
            try (HyperLogLog sketch = HyperLogLog.builder()
                    .precision(precision)
                    .create(dir.resolve("visitors-p" + precision + ".hll"), OpenMode.EXCLUSIVE)) {
                for (int i = 0; i < 300_000; i++) {
                    sketch.add(member(i % 200_000));
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
                small.add(member(i));
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
                left.add(member(i));
                right.add(member(40_000 + i));
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

    /** 50,000 events over 10,000 keys, Zipf with exponent 1, seeded: the seed's frequency demo. */
    private void countMin(Path file) throws IOException {
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

    private static void addMembers(MembershipFilter filter, int from, int to) {
        for (int i = from; i < to; i++) {
            filter.add(member(i));
        }
    }

    private static int falseNegatives(MembershipFilter filter) {
        int missing = 0;
        for (int i = 0; i < ITEMS; i++) {
            missing += filter.mightContain(member(i)) ? 0 : 1;
        }
        return missing;
    }

    private void printRate(String when, MembershipFilter filter, double formula) {
        int positives = 0;
        for (int i = 0; i < PROBES; i++) {
            positives += filter.mightContain(absent(i)) ? 1 : 0;
        }
        out.printf(
                Locale.ROOT,
                "  FPR %-18s measured %.2f%% over %,d absent items, formula %.2f%%%n",
                when,
                100.0 * positives / PROBES,
                PROBES,
                100 * formula);
    }
}
