package io.mapsketch.jmh.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The many-processes section: keys per second of {@code SHARED} adds from 1, 2 and 4 writer JVMs to one
 * file, from the JSON that {@code ManyWritersBenchmark --json} writes ({@code writers.json} in the results
 * folder), each row's speed-up over one writer of the same sketch and counter layout, and whether two
 * writers reach the target ({@value #TARGET}x one writer).
 */
final class WritersTable {

    /** The name of the many-writers file in a results folder. */
    static final String FILE_NAME = "writers.json";

    /** The speed-up two writer JVMs must reach over one. */
    static final double TARGET = 1.7;

    private WritersTable() {}

    /**
     * The table, or empty if the run did not time several writers.
     *
     * @throws IOException if the file exists but cannot be read
     */
    static Optional<String> render(Path folder) throws IOException {
        Path file = folder.resolve(FILE_NAME);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        JsonNode rows = new ObjectMapper().readTree(file.toFile());
        Map<String, Double> single = new HashMap<>();
        for (JsonNode row : rows) {
            if (row.path("params").path("writers").asInt() == 1) {
                single.put(group(row), row.path("primaryMetric").path("score").asDouble());
            }
        }
        StringBuilder out = new StringBuilder(
                "| sketch | counter layout | writer JVMs | keys | keys/s (median) | vs 1 writer | CPU per key | target |\n"
                        + "|---|---|--:|--:|--:|--:|--:|---|\n");
        for (JsonNode row : rows) {
            JsonNode params = row.path("params");
            int writers = params.path("writers").asInt();
            double score = row.path("primaryMetric").path("score").asDouble();
            Double one = single.get(group(row));
            double speedUp = one == null || one == 0 ? Double.NaN : score / one;
            out.append("| ")
                    .append(params.path("sketch").asText())
                    .append(" | ")
                    .append(params.path("impl").asText())
                    .append(" | ")
                    .append(writers)
                    .append(" | ")
                    .append(Format.count(params.path("keys").asLong()))
                    .append(" | ")
                    .append(Format.rate(score))
                    .append(" | ")
                    .append(Double.isNaN(speedUp) ? "–" : Format.ratio(speedUp))
                    .append(" | ")
                    .append(Format.nanos(row.path("secondaryMetrics")
                            .path("cpu")
                            .path("score")
                            .asDouble()))
                    .append(" ns")
                    .append(" | ")
                    .append(verdict(writers, speedUp))
                    .append(" |\n");
        }
        return Optional.of(out.toString());
    }

    /** Two writers are judged against the target; other counts are shown for their shape. */
    static String verdict(int writers, double speedUp) {
        if (writers != 2 || Double.isNaN(speedUp)) {
            return "";
        }
        return String.format(Locale.ROOT, "%s (>= %.1fx)", speedUp >= TARGET ? "met" : "missed", TARGET);
    }

    /** Rows of one sketch and counter layout are compared with that pair's one-writer row. */
    private static String group(JsonNode row) {
        JsonNode params = row.path("params");
        return params.path("sketch").asText() + '\n' + params.path("impl").asText();
    }
}
