package io.mapsketch.jmh;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.jmh.ManyWritersWorker.Shape;
import io.mapsketch.memory.RegionMode;
import io.mapsketch.memory.SketchFileLayout;
import io.mapsketch.memory.SketchRegion;
import io.mapsketch.memory.SketchRegions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Several processes adding to one {@code SHARED} file at once: for each sketch (blocked Bloom at 50M keys,
 * Count-Min of 64 MiB, HyperLogLog at p = 14), each counter layout and 1, 2 and 4 writer JVMs, a fresh file
 * takes {@code --keys} distinct keys (50M by default: the Bloom filter from empty to capacity; HyperLogLog thirty
 * times as many, {@link ManyWritersWorker.Shape#keys}, so that its round lasts as long), split evenly among the
 * writers ({@link ManyWritersWorker}), one {@code add} per key. The score is keys per second from
 * the first writer's first add to the last writer's last, the median of {@code --rounds} fresh files; the
 * file's items counter (and Count-Min's N) must then equal the keys added, or the run fails. Beside it, the
 * writers' CPU time per key (their adding threads' CPU time summed, over the keys): unlike the wall-clock
 * score, it does not depend on how much of the machine other programs take, and a cache line that the
 * writers pass between cores shows in it as stalled cycles.
 *
 * <p>Counter layouts ({@code impl}): {@code mapsketch-slots}, every writer adds its counts in a counter slot
 * of its own; {@code mapsketch-shared-word}, this process holds every counter slot of the file while the
 * writers run, so each writer adds to the live line's shared words (what every writer did before files had
 * slots, and what a writer beyond the slots does).
 *
 * <p>Not a JMH benchmark (JMH forks one process per trial); it writes JSON records of the same shape
 * ({@code benchmark}, {@code params}, {@code primaryMetric.score} in {@code ops/s}) with {@code --json FILE}.
 * Run: {@code java -cp jmh/target/benchmarks.jar io.mapsketch.jmh.ManyWritersBenchmark [--keys N] [--rounds
 * R] [--writers 1,2,4] [--sketches blocked-bloom,count-min,hyperloglog] [--impls
 * mapsketch-slots,mapsketch-shared-word] [--json FILE]}.
 */
public final class ManyWritersBenchmark {

    private ManyWritersBenchmark() {}

    /**
     * Runs the benchmark and prints one line per sketch, counter layout and writer count.
     *
     * @param args pairs of options, see the class comment
     * @throws Exception if a writer fails, or a count is not the keys added
     */
    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        long keys = Long.parseLong(options.getOrDefault("keys", "50000000"));
        int rounds = Integer.parseInt(options.getOrDefault("rounds", "3"));
        int[] writerCounts = Arrays.stream(
                        options.getOrDefault("writers", "1,2,4").split(","))
                .mapToInt(Integer::parseInt)
                .toArray();
        List<String> sketches = List.of(options.getOrDefault("sketches", "blocked-bloom,count-min,hyperloglog")
                .split(","));
        List<String> impls = List.of(options.getOrDefault("impls", "mapsketch-slots,mapsketch-shared-word")
                .split(","));
        Path directory = Files.createTempDirectory("many-writers");
        List<String> records = new ArrayList<>();
        System.out.printf(
                Locale.ROOT,
                "%-14s %-22s %7s %14s %14s %8s %12s%n",
                "sketch",
                "impl",
                "writers",
                "keys/s",
                "best",
                "vs 1",
                "cpu ns/key");
        for (String label : sketches) {
            Shape shape = Shape.of(label);
            long sketchKeys = shape.keys(keys);
            for (String impl : impls) {
                double single = 0;
                for (int writers : writerCounts) {
                    double[] scores = new double[rounds];
                    double[] cpu = new double[rounds];
                    for (int round = 0; round < rounds; round++) {
                        double[] result = run(shape, impl, writers, sketchKeys, directory.resolve("sketch-" + round));
                        scores[round] = result[0];
                        cpu[round] = result[1];
                    }
                    Arrays.sort(scores);
                    Arrays.sort(cpu);
                    double median = scores[rounds / 2];
                    single = writers == 1 ? median : single;
                    System.out.printf(
                            Locale.ROOT,
                            "%-14s %-22s %7d %14.0f %14.0f %8s %12.1f%n",
                            label,
                            impl,
                            writers,
                            median,
                            scores[rounds - 1],
                            single > 0 ? String.format(Locale.ROOT, "%.2fx", median / single) : "-",
                            cpu[rounds / 2]);
                    records.add(record(label, impl, writers, sketchKeys, scores, cpu[rounds / 2]));
                }
            }
        }
        if (options.containsKey("json")) {
            Files.writeString(Path.of(options.get("json")), "[\n" + String.join(",\n", records) + "\n]\n");
        }
    }

    /**
     * One fresh file, {@code writers} processes adding {@code keys} keys to it; returns keys per second and the
     * writers' CPU nanoseconds per key.
     */
    private static double[] run(Shape shape, String impl, int writers, long keys, Path file) throws Exception {
        Files.deleteIfExists(file);
        shape.create(file).close();
        List<SketchRegion> held = new ArrayList<>();
        List<Process> processes = new ArrayList<>();
        try {
            if (impl.equals("mapsketch-shared-word")) {
                for (int i = 0; i < SketchFileLayout.COUNTER_SLOTS; i++) {
                    held.add(SketchRegions.open(file, RegionMode.SHARED));
                }
            } else if (!impl.equals("mapsketch-slots")) {
                throw new IllegalArgumentException(
                        "impl = " + impl + ", must be mapsketch-slots or mapsketch-shared-word");
            }
            long share = keys / writers;
            for (int w = 0; w < writers; w++) {
                long count = w == writers - 1 ? keys - share * (writers - 1) : share;
                processes.add(start(shape, file, w * share, count));
            }
            List<BufferedReader> outputs = new ArrayList<>();
            for (Process process : processes) {
                BufferedReader out =
                        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
                expect(out, "ready");
                outputs.add(out);
            }
            for (Process process : processes) {
                OutputStream in = process.getOutputStream();
                in.write("go\n".getBytes(StandardCharsets.US_ASCII));
                in.flush();
            }
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            long cpu = 0;
            for (BufferedReader out : outputs) {
                String[] done = expect(out, "done").split(" ");
                first = Math.min(first, Long.parseLong(done[1]));
                last = Math.max(last, Long.parseLong(done[2]));
                cpu += Long.parseLong(done[3]);
            }
            for (Process process : processes) {
                if (process.waitFor() != 0) {
                    throw new IllegalStateException("a writer exited with status " + process.exitValue());
                }
            }
            checkCounts(file, keys);
            return new double[] {keys * 1e9 / (last - first), (double) cpu / keys};
        } finally {
            for (Process process : processes) {
                process.destroyForcibly();
            }
            for (SketchRegion region : held) {
                region.close();
            }
            Files.deleteIfExists(file);
        }
    }

    private static Process start(Shape shape, Path file, long first, long count) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        return new ProcessBuilder(
                        java,
                        "--add-modules",
                        "jdk.incubator.vector",
                        "-cp",
                        System.getProperty("java.class.path"),
                        ManyWritersWorker.class.getName(),
                        shape.label,
                        file.toString(),
                        Long.toString(first),
                        Long.toString(count))
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    private static String expect(BufferedReader out, String word) throws IOException {
        String line = out.readLine();
        if (line == null || !line.startsWith(word)) {
            throw new IllegalStateException("a writer said " + line + ", expected " + word);
        }
        return line;
    }

    /** Every add counted: the items counter, and Count-Min's N, equal the keys added. */
    private static void checkCounts(Path file, long keys) throws IOException {
        try (Sketch sketch = Sketch.open(file, OpenMode.READ_ONLY)) {
            long weight = sketch instanceof CountMinSketch counts ? counts.totalWeight() : keys;
            if (sketch.itemsAdded() != keys || weight != keys) {
                throw new IllegalStateException(
                        "counted " + sketch.itemsAdded() + " items and N = " + weight + " of " + keys + " adds");
            }
        }
    }

    private static String record(String sketch, String impl, int writers, long keys, double[] scores, double cpu) {
        StringBuilder raw = new StringBuilder();
        for (double score : scores) {
            raw.append(raw.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%.1f", score));
        }
        return String.format(
                Locale.ROOT,
                "  {\"benchmark\" : \"io.mapsketch.jmh.ManyWritersBenchmark.add\", \"mode\" : \"thrpt\", "
                        + "\"params\" : {\"sketch\" : \"%s\", \"impl\" : \"%s\", \"writers\" : \"%d\", \"keys\" : \"%d\"}, "
                        + "\"primaryMetric\" : {\"score\" : %.1f, \"scoreUnit\" : \"ops/s\", \"rawData\" : [[%s]]}, "
                        + "\"secondaryMetrics\" : {\"cpu\" : {\"score\" : %.2f, \"scoreUnit\" : \"ns/op\"}}}",
                sketch,
                impl,
                writers,
                keys,
                scores[scores.length / 2],
                raw,
                cpu);
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException(
                        "arguments = " + String.join(" ", args)
                                + ", must be pairs of --keys N, --rounds R, --writers LIST, --sketches LIST, --impls LIST, --json FILE");
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        return options;
    }
}
