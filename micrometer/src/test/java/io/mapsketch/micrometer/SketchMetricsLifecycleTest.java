package io.mapsketch.micrometer;

import static io.mapsketch.micrometer.Gauges.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.SeededKeys;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.CountingBloomFilter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the gauges do around the sketch's life: NaN once it is closed, collected or unreadable, never an
 * exception into the registry; removed by {@link SketchMetrics#close()}; payload passes repeated within
 * the pass interval; one set of gauges shared by every registry.
 */
class SketchMetricsLifecycleTest {

    @TempDir
    Path dir;

    private BloomFilter filter(String name) throws IOException {
        return BloomFilter.builder()
                .expectedItems(10_000)
                .falsePositiveRate(0.01)
                .create(dir.resolve(name), OpenMode.SHARED);
    }

    @Test
    void aClosedSketchsGaugesReadNaN() throws IOException {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        BloomFilter filter = filter("closed.bf");
        filter.addAll(SeededKeys.of(1, 1_000));
        new SketchMetrics(filter).bindTo(registry);
        assertEquals(1_000, value(registry, "mapsketch.items.added"));
        filter.close();
        Gauges.values(registry).forEach((name, value) -> assertTrue(value.isNaN(), name + " reads " + value));
        assertEquals(Gauges.values(registry).size(), registry.getMeters().size(), "the gauges stay until closed");
    }

    @Test
    void closingTheBinderRemovesItsMetersFromEveryRegistry() throws IOException {
        SimpleMeterRegistry first = new SimpleMeterRegistry();
        SimpleMeterRegistry second = new SimpleMeterRegistry();
        try (BloomFilter filter = filter("removed.bf")) {
            SketchMetrics metrics = new SketchMetrics(filter);
            metrics.bindTo(first);
            metrics.bindTo(second);
            assertEquals(9, first.getMeters().size());
            assertEquals(9, second.getMeters().size());
            metrics.close();
            assertTrue(first.getMeters().isEmpty());
            assertTrue(second.getMeters().isEmpty());
            metrics.close();
            String message = assertThrows(IllegalStateException.class, () -> metrics.bindTo(first))
                    .getMessage();
            assertEquals("these sketch metrics are closed; make new ones to bind again", message);
        }
    }

    @Test
    void aSecondBinderOfTheSameFileAndTagsLeavesTheFirstsGauges() throws IOException {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (BloomFilter filter = filter("twice.bf")) {
            SketchMetrics first = new SketchMetrics(filter);
            first.bindTo(registry);
            SketchMetrics second = new SketchMetrics(filter);
            second.bindTo(registry);
            assertEquals(9, registry.getMeters().size());
            second.close();
            assertEquals(9, registry.getMeters().size(), "the first binder's gauges stay");
            first.close();
            assertTrue(registry.getMeters().isEmpty());
            SketchMetrics sharded = new SketchMetrics(filter, Tags.of("shard", "1"));
            sharded.bindTo(registry);
            SketchMetrics plain = new SketchMetrics(filter);
            plain.bindTo(registry);
            assertEquals(18, registry.getMeters().size(), "other tags, other gauges");
            plain.close();
            assertEquals(9, registry.getMeters().size());
            assertEquals(
                    "1", registry.get("mapsketch.items.added").gauge().getId().getTag("shard"));
            sharded.close();
        }
    }

    @Test
    void theGaugesDoNotKeepACollectedSketchAlive() throws IOException, InterruptedException {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        WeakReference<BloomFilter> collected = bindAndDrop(registry);
        for (int i = 0; i < 100 && collected.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertNull(collected.get(), "the registry's gauges held the sketch");
        assertTrue(Double.isNaN(value(registry, "mapsketch.items.added")));
    }

    /**
     * Binds an anonymous filter (off-heap memory the collector does not free: a few kilobytes that
     * this test leaks) and returns a weak reference to it, so that nothing else holds it.
     */
    private static WeakReference<BloomFilter> bindAndDrop(SimpleMeterRegistry registry) {
        BloomFilter filter =
                BloomFilter.builder().expectedItems(100).falsePositiveRate(0.01).createAnonymous(OpenMode.SHARED);
        filter.add(1L);
        new SketchMetrics(filter).bindTo(registry);
        assertEquals(1, value(registry, "mapsketch.items.added"));
        return new WeakReference<>(filter);
    }

    @Test
    void aReadThatFaultsReadsNaNAndDoesNotThrow() throws IOException {
        Path file = dir.resolve("truncated.cbf");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        CountingBloomFilter filter = CountingBloomFilter.builder()
                .expectedItems(100_000)
                .falsePositiveRate(0.01)
                .create(file, OpenMode.SHARED);
        filter.addAll(SeededKeys.of(2, 1_000));
        new SketchMetrics(filter, Tags.empty(), Duration.ZERO).bindTo(registry);
        assertFalse(Double.isNaN(value(registry, "mapsketch.filter.fill.ratio")));
        try (RandomAccessFile truncate = new RandomAccessFile(file.toFile(), "rw")) {
            truncate.setLength(4096);
        }
        assertTrue(Double.isNaN(value(registry, "mapsketch.filter.fill.ratio")), "a fault in the mapped pass");
        assertEquals(4096, value(registry, "mapsketch.file.size"));
        assertThrows(CorruptSketchFileException.class, filter::close, "the engine's own verdict on the file");
        assertTrue(Double.isNaN(value(registry, "mapsketch.file.size")), "closed");
    }

    @Test
    void aPassIsRepeatedWithinTheIntervalWhileLoadsAreFresh() throws IOException {
        try (BloomFilter filter = filter("interval.bf")) {
            SimpleMeterRegistry cached = new SimpleMeterRegistry();
            SimpleMeterRegistry fresh = new SimpleMeterRegistry();
            new SketchMetrics(filter, Tags.empty(), Duration.ofHours(1)).bindTo(cached);
            new SketchMetrics(filter, Tags.empty(), Duration.ZERO).bindTo(fresh);
            assertEquals(0, value(cached, "mapsketch.filter.fill.ratio"));
            filter.addAll(SeededKeys.of(3, 5_000));
            assertEquals(0, value(cached, "mapsketch.filter.fill.ratio"), "the pass of an hour ago, repeated");
            assertEquals(5_000, value(cached, "mapsketch.items.added"), "a load, read at every scrape");
            assertEquals(filter.fillRatio(), value(fresh, "mapsketch.filter.fill.ratio"));
            assertTrue(value(fresh, "mapsketch.filter.fill.ratio") > 0.2);
        }
    }

    @Test
    void aNegativePassIntervalIsRefused() throws IOException {
        try (BloomFilter filter = filter("negative.bf")) {
            String message = assertThrows(
                            IllegalArgumentException.class,
                            () -> new SketchMetrics(filter, Tags.empty(), Duration.ofSeconds(-1)))
                    .getMessage();
            assertEquals("passInterval = PT-1S, must be zero or positive", message);
        }
    }
}
