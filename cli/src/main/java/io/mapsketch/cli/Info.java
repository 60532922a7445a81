package io.mapsketch.cli;

import io.mapsketch.engine.BlockedBloomFilter;
import io.mapsketch.engine.BloomFilter;
import io.mapsketch.engine.CountingBloomFilter;
import io.mapsketch.engine.HyperLogLog;
import io.mapsketch.engine.MembershipFilter;
import io.mapsketch.engine.MinHash;
import io.mapsketch.engine.ScalableBloomFilter;
import io.mapsketch.engine.SimHash;
import io.mapsketch.memory.AccessMode;
import io.mapsketch.memory.SketchHeader;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code mapsketch info FILE [--json]}: what a sketch file holds, read-only: kind, hash scheme and
 * seed, sizes, live counters, the clean-close flag, and the sketch's own health figures (fill and
 * current false-positive rate for filters, estimate and error for HyperLogLog, shape and error for
 * MinHash, capacity and fill for SimHash).
 */
final class Info {

    private Info() {
    }

    static void print(Path path, boolean json, PrintStream out) throws IOException {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("file", path.toString());
        Path headerFile = Files.isDirectory(path) ? path.resolve(ScalableBloomFilter.MANIFEST) : path;
        try (SketchRegion region = SketchRegion.open(headerFile, AccessMode.READ_ONLY)) {
            SketchHeader header = region.header();
            facts.put("kind", header.kind().name());
            facts.put("hash scheme", header.hashScheme().name());
            facts.put("hash seed", header.hashSeed());
            facts.put("created", Instant.ofEpochMilli(header.createdMillis()).toString());
            facts.put("items added", region.itemsAdded());
            facts.put("total weight", region.totalWeight());
            facts.put("attached writers", region.attachedWriters());
            facts.put("cleanly closed", region.wasCleanlyClosed());
        }
        switch ((String) facts.get("kind")) {
            case "HYPERLOGLOG" -> {
                try (HyperLogLog sketch = HyperLogLog.open(path, AccessMode.READ_ONLY)) {
                    facts.put("precision", sketch.precision());
                    facts.put("memory bytes", sketch.memoryBytes());
                    facts.put("estimate", Math.round(sketch.estimate()));
                    facts.put("relative standard error", sketch.relativeStandardError());
                }
            }
            case "MINHASH" -> {
                try (MinHash sketch = MinHash.open(path, AccessMode.READ_ONLY)) {
                    facts.put("rows", sketch.rows());
                    facts.put("signature length", sketch.signatureLength());
                    facts.put("memory bytes", sketch.memoryBytes());
                    facts.put("standard error", sketch.standardError());
                }
            }
            case "SIMHASH" -> {
                try (SimHash table = SimHash.open(path, AccessMode.READ_ONLY)) {
                    facts.put("capacity", table.capacity());
                    facts.put("fingerprints", table.size());
                    facts.put("memory bytes", table.memoryBytes());
                }
            }
            case "BLOOM", "BLOCKED_BLOOM", "COUNTING_BLOOM", "SCALABLE_BLOOM" -> {
                try (MembershipFilter filter = MembershipFilter.open(path, AccessMode.READ_ONLY)) {
                    describeFilter(filter, facts);
                }
            }
            default -> facts.put("details", "this version of the command reads no more of this kind");
        }
        if (json) {
            out.println(toJson(facts));
        } else {
            facts.forEach((name, value) -> out.printf(Locale.ROOT, "%-29s %s%n", name + ":", value));
        }
    }

    private static void describeFilter(MembershipFilter filter, Map<String, Object> facts) {
        switch (filter) {
            case BloomFilter classic -> {
                facts.put("bits", classic.bitCount());
                facts.put("hashes", classic.hashCount());
            }
            case BlockedBloomFilter blocked -> {
                facts.put("blocks", blocked.blockCount());
                facts.put("bits per key", blocked.bitsPerKey());
            }
            case CountingBloomFilter counting -> {
                facts.put("counters", counting.counterCount());
                facts.put("hashes", counting.hashCount());
            }
            case ScalableBloomFilter scalable -> {
                facts.put("links", scalable.links());
                facts.put("growth factor", scalable.growthFactor());
                facts.put("tightening ratio", scalable.tighteningRatio());
            }
            default -> {
            }
        }
        facts.put("memory bytes", filter.memoryBytes());
        facts.put("expected items", filter.expectedItems());
        facts.put("target false-positive rate", filter.targetFalsePositiveRate());
        facts.put("fill ratio", filter.fillRatio());
        facts.put("current false-positive rate", filter.expectedFalsePositiveRate());
        facts.put("over capacity", filter.isOverCapacity());
    }

    private static String toJson(Map<String, Object> facts) {
        StringBuilder json = new StringBuilder("{");
        facts.forEach((name, value) -> {
            if (json.length() > 1) {
                json.append(", ");
            }
            json.append(quote(name.replace(' ', '_').replace('-', '_'))).append(": ");
            json.append(value instanceof Number || value instanceof Boolean ? value.toString() : quote(value.toString()));
        });
        return json.append('}').toString();
    }

    private static String quote(String text) {
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
