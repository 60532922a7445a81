package io.mapsketch.cli;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.Regions;
import io.mapsketch.internal.SketchFacts;
import io.mapsketch.memory.SketchHeader;
import io.mapsketch.memory.SketchRegion;
import io.mapsketch.memory.WriterLockHolders;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code mapsketch info FILE [--json]}: what a sketch file holds, read-only: kind, format version, hash
 * scheme and seed, live counters, the writers registered and those holding the writer lock (which differ when
 * writers died or lost their locks) and the clean-close flag, then the figures the engine gives for
 * the sketch whatever its family ({@link SketchFacts#of}): its shape, memory and error, the fill,
 * estimated items and current false-positive rate of a filter, the error bound of Count-Min, the
 * estimate of a HyperLogLog.
 */
final class Info {

    private Info() {}

    /** Prints the facts of a file of any kind ({@code mapsketch info}). */
    static void print(Path path, boolean json, PrintWriter out) throws IOException {
        print(path, json, out, null);
    }

    /**
     * Prints the facts of the file at {@code path}.
     *
     * @param family the family whose {@code info} verb this is ({@code bf info}), which refuses files of other
     *     families; {@code null} for {@code mapsketch info}, which takes any file
     */
    static void print(Path path, boolean json, PrintWriter out, SketchFamily family) throws IOException {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("file", path.toString());
        Path headerFile = SketchFiles.headerFile(path);
        try (SketchRegion region = Regions.open(headerFile, OpenMode.READ_ONLY, null, null)) {
            SketchHeader header = region.header();
            SketchKind kind = Regions.kind(header);
            if (family != null && !family.reads(kind)) {
                throw new CommandFailure(path + ": a " + kind + " sketch, not one of this verb's kinds;"
                        + " 'mapsketch info' shows a file of any kind");
            }
            facts.put("kind", kind.name());
            facts.put("format version", header.formatVersion());
            facts.put("hash scheme", header.hashScheme().name());
            facts.put("hash seed", header.hashSeed());
            facts.put("created", Instant.ofEpochMilli(header.createdMillis()).toString());
            facts.put("items added", region.itemsAdded());
            facts.put("total weight", region.totalWeight());
            facts.put("attached writers", region.attachedWriters());
            putLockHolders(headerFile, facts);
            facts.put("cleanly closed", region.wasCleanlyClosed());
        }
        try (Sketch sketch = Sketch.open(path, OpenMode.READ_ONLY)) {
            facts.putAll(SketchFacts.of(sketch));
        }
        if (json) {
            out.println(toJson(facts));
        } else {
            facts.forEach((name, value) -> out.printf(Locale.ROOT, "%-29s %s%n", name + ":", value));
        }
    }

    /**
     * Who holds the writer lock, as the operating system lists it: the truth the registered count
     * ("attached writers") should match; where they differ, writers died or lost their locks, and the
     * next writer that opens the file alone repairs the count.
     */
    private static void putLockHolders(Path file, Map<String, Object> facts) throws IOException {
        Optional<List<WriterLockHolders.Holder>> holders = WriterLockHolders.of(file);
        if (holders.isEmpty()) {
            facts.put("writers holding the lock", "unknown (this operating system does not list file locks)");
            return;
        }
        facts.put("writers holding the lock", holders.get().size());
        if (!holders.get().isEmpty()) {
            facts.put(
                    "writer lock holders",
                    holders.get().stream()
                            .map(WriterLockHolders.Holder::toString)
                            .collect(Collectors.joining(", ")));
        }
    }

    /** One JSON object of name-value facts; names with spaces and dashes become underscores. */
    static String toJson(Map<String, Object> facts) {
        StringBuilder json = new StringBuilder("{");
        facts.forEach((name, value) -> {
            if (json.length() > 1) {
                json.append(", ");
            }
            json.append(quote(name.replace(' ', '_').replace('-', '_'))).append(": ");
            json.append(
                    value instanceof Number || value instanceof Boolean ? value.toString() : quote(value.toString()));
        });
        return json.append('}').toString();
    }

    /** A JSON string literal. */
    static String quote(String text) {
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        quoted.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }
}
