package io.mapsketch.micrometer;

import static io.mapsketch.micrometer.Gauges.value;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.FilterWorker;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.testing.ChildJvm;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A second process that opens and adds to a {@code SHARED} filter moves this process's gauges. */
class SketchMetricsCrossProcessTest {

    private static final int KEYS = 200_000;

    @TempDir
    Path dir;

    @Test
    void anotherProcesssWriterAndItsAddsShowInTheGauges() throws Exception {
        Path file = dir.resolve("shared.bbf");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (BlockedBloomFilter filter = BlockedBloomFilter.builder()
                .expectedItems(2 * KEYS)
                .falsePositiveRate(0.01)
                .create(file, OpenMode.SHARED)) {
            new SketchMetrics(filter, Tags.empty(), Duration.ZERO).bindTo(registry);
            assertEquals(1, value(registry, "mapsketch.writers.attached"));
            assertEquals(0, value(registry, "mapsketch.items.added"));
            try (ChildJvm child =
                    ChildJvm.start(dir, FilterWorker.class, "blocked", file.toString(), "7", Integer.toString(KEYS))) {
                assertEquals("ready", child.readLine());
                assertEquals(2, value(registry, "mapsketch.writers.attached"), "the child's writer");
                child.go();
                assertEquals("done", child.readLine());
                assertEquals(0, child.waitFor(Duration.ofMinutes(2)));
            }
            assertEquals(1, value(registry, "mapsketch.writers.attached"), "the child closed its writer");
            assertEquals(KEYS, value(registry, "mapsketch.items.added"));
            assertEquals(KEYS, value(registry, "mapsketch.filter.estimated.items"), 0.03 * KEYS);
            assertEquals(filter.fillRatio(), value(registry, "mapsketch.filter.fill.ratio"));
        }
    }
}
