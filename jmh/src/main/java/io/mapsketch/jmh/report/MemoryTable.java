package io.mapsketch.jmh.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The memory section: the bytes of each sketch's state at the benchmarks' settings, from the JSON that
 * {@code MemoryFootprint} writes ({@code memory.json} in the results folder), with each size relative
 * to mapsketch's at the same setting.
 */
final class MemoryTable {

    /** The name of the footprint file in a results folder. */
    static final String FILE_NAME = "memory.json";

    private MemoryTable() {}

    /**
     * The table, or empty if the run measured no footprints.
     *
     * @throws IOException if the file exists but cannot be read
     */
    static Optional<String> render(Path folder) throws IOException {
        Path file = folder.resolve(FILE_NAME);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        JsonNode rows = new ObjectMapper().readTree(file.toFile());
        StringBuilder out = new StringBuilder(
                "| question | setting | implementation | bytes | vs mapsketch | measured as | note |\n"
                        + "|---|---|---|--:|--:|---|---|\n");
        Map<String, Long> mapsketchBytes = new HashMap<>();
        for (JsonNode row : rows) {
            if (row.path("impl").asText().startsWith("mapsketch")) {
                mapsketchBytes.putIfAbsent(group(row), row.path("bytes").asLong());
            }
        }
        for (JsonNode row : rows) {
            long bytes = row.path("bytes").asLong();
            long reference = mapsketchBytes.getOrDefault(group(row), 0L);
            out.append("| ")
                    .append(row.path("question").asText())
                    .append(" | ")
                    .append(row.path("setting").asText())
                    .append(" | ")
                    .append(row.path("impl").asText())
                    .append(" | ")
                    .append(Format.count(bytes))
                    .append(" (")
                    .append(Format.bytes(bytes))
                    .append(')')
                    .append(" | ")
                    .append(reference > 0 ? Format.ratio((double) bytes / reference) : "–")
                    .append(" | ")
                    .append(row.path("measure").asText())
                    .append(" | ")
                    .append(row.path("note").asText())
                    .append(" |\n");
        }
        return Optional.of(out.toString());
    }

    /** Rows of one question and setting are compared with that setting's first mapsketch row. */
    private static String group(JsonNode row) {
        return row.path("question").asText() + '\n' + row.path("setting").asText();
    }
}
