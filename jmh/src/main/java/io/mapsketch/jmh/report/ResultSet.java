package io.mapsketch.jmh.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedSet;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The scores of every JMH JSON file ({@code -rf json}) in a folder, with the JVM that produced them.
 * A later file's score for the same benchmark, implementation and setting replaces an earlier one.
 */
public final class ResultSet {

    /** The prefix of the JMH result files in a results folder: {@code jmh-<suite>.json}. */
    public static final String FILE_PREFIX = "jmh-";

    private final Map<String, Score> scores = new LinkedHashMap<>();
    private final Map<String, JvmRun> jvms = new LinkedHashMap<>();
    private final Map<String, String> suites = new LinkedHashMap<>();

    /**
     * The JVM and JMH settings of a benchmark class's run.
     *
     * @param jdk the JDK version, e.g. {@code 25.0.3}
     * @param vm the VM's name and version
     * @param jvmArgs the flags of the forked JVMs
     * @param settings warm-up and measurement iterations and times, and forks, as JMH names them
     */
    public record JvmRun(String jdk, String vm, List<String> jvmArgs, String settings) {}

    private ResultSet() {}

    /**
     * Reads every {@code jmh-*.json} file in {@code folder}, in name order.
     *
     * @param folder the results folder
     * @return the scores found, possibly none
     * @throws UncheckedIOException if a file cannot be read or is not JMH's JSON
     */
    public static ResultSet read(Path folder) {
        ResultSet set = new ResultSet();
        ObjectMapper json = new ObjectMapper();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.filter(ResultSet::isJmhFile).sorted().toList()) {
                for (JsonNode run : json.readTree(file.toFile())) {
                    set.add(file, run);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the JMH results in " + folder, e);
        }
        return set;
    }

    private static boolean isJmhFile(Path file) {
        String name = file.getFileName().toString();
        return name.startsWith(FILE_PREFIX) && name.endsWith(".json");
    }

    private void add(Path file, JsonNode run) throws IOException {
        String qualified = run.path("benchmark").asText();
        int dot = qualified.lastIndexOf('.');
        int classDot = qualified.lastIndexOf('.', dot - 1);
        if (dot < 0 || classDot < 0) {
            throw new IOException(file + ": not a JMH result (benchmark name '" + qualified + "')");
        }
        String benchmark = qualified.substring(classDot + 1, dot);
        Map<String, String> setting = new LinkedHashMap<>();
        String impl = "";
        for (Map.Entry<String, JsonNode> param : run.path("params").properties()) {
            if (param.getKey().equals("impl")) {
                impl = param.getValue().asText();
            } else {
                setting.put(param.getKey(), param.getValue().asText());
            }
        }
        JsonNode metric = run.path("primaryMetric");
        String unit = metric.path("scoreUnit").asText();
        Score score = new Score(
                benchmark,
                qualified.substring(dot + 1),
                impl,
                setting,
                metric.path("score").asDouble(),
                parseError(metric.path("scoreError")),
                unit,
                unit.startsWith("ops/"),
                run.path("mode").asText().equals("sample") ? percentiles(metric.path("scorePercentiles")) : Map.of());
        scores.put(key(benchmark, score.method(), impl, setting), score);
        List<String> args = new ArrayList<>();
        run.path("jvmArgs").forEach(arg -> args.add(arg.asText()));
        jvms.put(
                benchmark,
                new JvmRun(
                        run.path("jdkVersion").asText(),
                        run.path("vmName").asText()
                                + ' '
                                + run.path("vmVersion").asText(),
                        args,
                        describeSettings(run)));
        String name = file.getFileName().toString();
        suites.put(
                benchmark,
                name.substring(FILE_PREFIX.length(), name.length() - ".json".length())
                        .split("-")[0]);
    }

    private static String key(String benchmark, String method, String impl, Map<String, String> setting) {
        return benchmark + '.' + method + '/' + impl + '/' + new TreeMap<>(setting);
    }

    private static Map<String, Double> percentiles(JsonNode percentiles) {
        Map<String, Double> values = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> percentile : percentiles.properties()) {
            values.put(percentile.getKey(), percentile.getValue().asDouble());
        }
        return values;
    }

    private static double parseError(JsonNode error) {
        return error.isNumber() ? error.asDouble() : Double.NaN;
    }

    private static String describeSettings(JsonNode run) {
        String mode = run.path("mode").asText();
        if (mode.equals("ss")) {
            return "%d fork(s), %d warm-up and %d measured single shots"
                    .formatted(
                            run.path("forks").asInt(),
                            run.path("warmupIterations").asInt(),
                            run.path("measurementIterations").asInt());
        }
        return "%d fork(s), %d x %s warm-up, %d x %s measured"
                .formatted(
                        run.path("forks").asInt(),
                        run.path("warmupIterations").asInt(),
                        run.path("warmupTime").asText(),
                        run.path("measurementIterations").asInt(),
                        run.path("measurementTime").asText());
    }

    /**
     * The scores of one benchmark class, in the order JMH ran them.
     *
     * @param benchmark the class's simple name
     * @return its scores, possibly none
     */
    public List<Score> of(String benchmark) {
        return scores.values().stream()
                .filter(s -> s.benchmark().equals(benchmark))
                .toList();
    }

    /**
     * The score of one benchmark method, implementation and setting.
     *
     * @param benchmark the class's simple name
     * @param method the method
     * @param impl the implementation
     * @param setting the other parameters
     * @return the score, or empty if that run is not in the results
     */
    public Optional<Score> find(String benchmark, String method, String impl, Map<String, String> setting) {
        return Optional.ofNullable(scores.get(key(benchmark, method, impl, setting)));
    }

    /**
     * The JVM that ran a benchmark class.
     *
     * @param benchmark the class's simple name
     * @return its JVM, or empty if the class is not in the results
     */
    public Optional<JvmRun> jvm(String benchmark) {
        return Optional.ofNullable(jvms.get(benchmark));
    }

    /**
     * The suite whose file holds a benchmark class's results: {@code membership} for
     * {@code jmh-membership.json}, {@code similarity} for {@code jmh-similarity-simhash-within.json}.
     *
     * @param benchmark the class's simple name
     * @return the suite, or empty if the class is not in the results
     */
    public Optional<String> suite(String benchmark) {
        return Optional.ofNullable(suites.get(benchmark));
    }

    /**
     * The suites whose result files the folder holds, distinct, in the order read.
     *
     * @return the suite names
     */
    public SequencedSet<String> suiteNames() {
        return new LinkedHashSet<>(suites.values());
    }

    /**
     * The JVMs of all benchmark classes, distinct, in the order first seen.
     *
     * @return the JVM runs
     */
    public SequencedSet<JvmRun> jvms() {
        return new LinkedHashSet<>(jvms.values());
    }

    /**
     * The best score among {@code candidates}: the highest throughput or the shortest time.
     *
     * @param candidates scores of one unit
     * @return the best, or empty if there are none
     */
    public static Optional<Score> best(List<Score> candidates) {
        return candidates.stream().max(Comparator.comparingDouble(s -> s.higherIsBetter() ? s.value() : -s.value()));
    }
}
