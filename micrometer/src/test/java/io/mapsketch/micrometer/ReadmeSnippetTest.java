package io.mapsketch.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mapsketch.OpenMode;
import io.mapsketch.membership.BlockedBloomFilter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's metrics snippet, line for line, on the file its example writes. */
class ReadmeSnippetTest {

    @TempDir
    Path dir;

    @Test
    void readmeSnippetRunsAsPrinted() throws IOException {
        Path file = dir.resolve("visitors.bloom");
        try (BlockedBloomFilter filter = BlockedBloomFilter.builder()
                .expectedItems(10_000_000)
                .falsePositiveRate(0.01)
                .create(file, OpenMode.SHARED)) {
            filter.add("alice@example.com");
            filter.addAll(new long[] {42, 43, 44});
        }
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);

        MeterRegistry registry = new SimpleMeterRegistry(); // or the service's Prometheus registry
        try (BlockedBloomFilter filter = BlockedBloomFilter.open(file, OpenMode.SHARED);
                SketchMetrics metrics = new SketchMetrics(filter, Tags.of("service", "checkout"))) {
            metrics.bindTo(registry); // gauges read the file when scraped: no thread
            filter.add("bob@example.com");
            out.println(registry.get("mapsketch.items.added").gauge().value() + " items, "
                    + registry.get("mapsketch.filter.false.positive.rate")
                            .gauge()
                            .value() + " false positives");
        } // closing the metrics removes the gauges

        String line = printed.toString(StandardCharsets.UTF_8).strip();
        assertEquals("5.0 items, ", line.substring(0, "5.0 items, ".length()), line);
        double rate = Double.parseDouble(line.substring("5.0 items, ".length(), line.indexOf(" false")));
        assertEquals(0, rate, 1e-15, line);
        assertEquals(0, registry.getMeters().size());
    }
}
