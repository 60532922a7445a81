package io.mapsketch.micrometer;

import static io.mapsketch.micrometer.Gauges.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.enginetesting.SeededKeys;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.frequency.TopK;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.CountingBloomFilter;
import io.mapsketch.membership.CuckooFilter;
import io.mapsketch.membership.MembershipFilter;
import io.mapsketch.membership.ScalableBloomFilter;
import io.mapsketch.similarity.MinHash;
import io.mapsketch.similarity.SimHash;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every family's gauges, bound to a {@link SimpleMeterRegistry}, read the figures of a real file filled
 * to a known count: the common ones, then the family's own.
 */
class SketchMetricsTest {

    private static final int KEYS = 20_000;
    private static final long[] FILL = SeededKeys.distinctKeys(25, KEYS);

    private static final List<String> COMMON =
            List.of("mapsketch.file.size", "mapsketch.items.added", "mapsketch.payload", "mapsketch.writers.attached");
    private static final List<String> FILTER = List.of(
            "mapsketch.filter.estimated.items",
            "mapsketch.filter.expected.items",
            "mapsketch.filter.false.positive.rate",
            "mapsketch.filter.fill.ratio",
            "mapsketch.filter.target.false.positive.rate");

    @TempDir
    Path dir;

    /** Binds {@code sketch} with no pass interval, so that every read is fresh. */
    private static SimpleMeterRegistry bound(Sketch sketch) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new SketchMetrics(sketch, Tags.of("service", "test"), Duration.ZERO).bindTo(registry);
        return registry;
    }

    private static Set<String> names(SimpleMeterRegistry registry) {
        Set<String> names = new TreeSet<>();
        registry.getMeters().forEach(meter -> names.add(meter.getId().getName()));
        return names;
    }

    private static Set<String> union(List<String> first, List<String> second, String... more) {
        Set<String> names = new TreeSet<>(first);
        names.addAll(second);
        names.addAll(List.of(more));
        return names;
    }

    /** The common gauges of a sketch opened from {@code file} by one writer, and the tags of every meter. */
    private static void assertCommon(SimpleMeterRegistry registry, Sketch sketch, Path location, long items)
            throws IOException {
        assertEquals(items, value(registry, "mapsketch.items.added"));
        assertEquals(1, value(registry, "mapsketch.writers.attached"));
        assertEquals(sketch.memoryBytes(), value(registry, "mapsketch.payload"));
        long onDisk;
        try (var files = Files.isDirectory(location) ? Files.list(location) : Stream.of(location)) {
            onDisk = files.mapToLong(file -> file.toFile().length()).sum();
        }
        assertEquals(onDisk, value(registry, "mapsketch.file.size"));
        for (Meter meter : registry.getMeters()) {
            assertEquals(
                    List.of(
                            Tag.of("file", location.toString()),
                            Tag.of("kind", sketch.kind().name()),
                            Tag.of("service", "test")),
                    meter.getId().getTags(),
                    meter.getId().getName());
        }
        assertEquals("bytes", registry.get("mapsketch.payload").gauge().getId().getBaseUnit());
        assertEquals(
                "bytes", registry.get("mapsketch.file.size").gauge().getId().getBaseUnit());
    }

    /** A filter at {@link #KEYS} of 2 x KEYS capacity at 1%: its fill and rate, and its estimate within 3%. */
    private static void assertFilter(SimpleMeterRegistry registry, MembershipFilter filter) {
        assertEquals(2 * KEYS, value(registry, "mapsketch.filter.expected.items"));
        assertEquals(0.01, value(registry, "mapsketch.filter.target.false.positive.rate"));
        assertEquals(filter.fillRatio(), value(registry, "mapsketch.filter.fill.ratio"));
        assertEquals(filter.expectedFalsePositiveRate(), value(registry, "mapsketch.filter.false.positive.rate"));
        double estimated = value(registry, "mapsketch.filter.estimated.items");
        assertEquals(filter.estimatedItems(), estimated);
        assertEquals(KEYS, estimated, 0.03 * KEYS, "estimated items");
        double rate = value(registry, "mapsketch.filter.false.positive.rate");
        assertTrue(rate > 0 && rate < 0.01, "at half its capacity the filter's rate is under its target: " + rate);
    }

    @FunctionalInterface
    interface FilterFactory {
        MembershipFilter create(Path file) throws IOException;
    }

    @Test
    void bloomAndBlockedBloomFiltersShowTheirFillAndRate() throws IOException {
        FilterFactory bloom = file -> BloomFilter.builder()
                .expectedItems(2 * KEYS)
                .falsePositiveRate(0.01)
                .create(file, OpenMode.SHARED);
        FilterFactory blocked = file -> BlockedBloomFilter.builder()
                .expectedItems(2 * KEYS)
                .falsePositiveRate(0.01)
                .create(file, OpenMode.SHARED);
        for (FilterFactory factory : List.of(bloom, blocked)) {
            Path file = Files.createTempFile(dir, "filter", ".sketch");
            try (MembershipFilter filter = factory.create(file.resolveSibling(file.getFileName() + ".bf"))) {
                filter.addAll(FILL);
                SimpleMeterRegistry registry = bound(filter);
                assertEquals(union(COMMON, FILTER), names(registry));
                assertCommon(registry, filter, filter.file().orElseThrow(), KEYS);
                assertFilter(registry, filter);
            }
        }
    }

    @Test
    void aCountingBloomFilterShowsItsSaturatedCounters() throws IOException {
        Path file = dir.resolve("counting.filter");
        try (CountingBloomFilter filter = CountingBloomFilter.builder()
                .expectedItems(2 * KEYS)
                .falsePositiveRate(0.01)
                .create(file, OpenMode.EXCLUSIVE)) {
            filter.addAll(FILL);
            SimpleMeterRegistry registry = bound(filter);
            assertEquals(union(COMMON, FILTER, "mapsketch.counters.saturated"), names(registry));
            assertCommon(registry, filter, file, KEYS);
            assertFilter(registry, filter);
            assertEquals(0, value(registry, "mapsketch.counters.saturated"));
            for (int i = 0; i < 15; i++) {
                filter.add(-1L);
            }
            assertEquals(filter.hashCount(), value(registry, "mapsketch.counters.saturated"), 1);
            assertEquals(filter.saturatedCounters(), value(registry, "mapsketch.counters.saturated"));
        }
    }

    @Test
    void aCuckooFilterShowsItsOccupiedSlotsAsItsItems() throws IOException {
        Path file = dir.resolve("cuckoo.filter");
        try (CuckooFilter filter = CuckooFilter.builder()
                .expectedItems(2 * KEYS)
                .falsePositiveRate(0.01)
                .create(file, OpenMode.SHARED)) {
            filter.addAll(FILL);
            SimpleMeterRegistry registry = bound(filter);
            assertEquals(union(COMMON, FILTER), names(registry));
            assertCommon(registry, filter, file, KEYS);
            assertFilter(registry, filter);
            assertEquals(KEYS, value(registry, "mapsketch.filter.estimated.items"), "a slot per key");
        }
    }

    @Test
    void aScalableFilterShowsItsLinksAndItsDirectorysBytes() throws IOException {
        Path directory = dir.resolve("scalable");
        try (ScalableBloomFilter filter = ScalableBloomFilter.builder()
                .expectedItems(KEYS / 4)
                .falsePositiveRate(0.01)
                .create(directory, OpenMode.SHARED)) {
            SimpleMeterRegistry registry = bound(filter);
            assertEquals(1, value(registry, "mapsketch.filter.links"));
            filter.addAll(FILL);
            assertEquals(union(COMMON, FILTER, "mapsketch.filter.links"), names(registry));
            assertCommon(registry, filter, directory, KEYS);
            assertEquals(filter.links(), value(registry, "mapsketch.filter.links"));
            assertTrue(filter.links() >= 3, "a chain of " + filter.links() + " links for 4 x its first capacity");
            assertEquals(KEYS / 4, value(registry, "mapsketch.filter.expected.items"));
            assertEquals(KEYS, value(registry, "mapsketch.filter.estimated.items"), 0.03 * KEYS);
            assertEquals(filter.expectedFalsePositiveRate(), value(registry, "mapsketch.filter.false.positive.rate"));
        }
    }

    @Test
    void countMinAndTopKShowTheirWeightErrorBoundAndSaturation() throws IOException {
        List<String> frequency = List.of(
                "mapsketch.counters.saturated", "mapsketch.frequency.error.bound", "mapsketch.frequency.total.weight");
        Path cmsFile = dir.resolve("counts.cms");
        Path topFile = dir.resolve("top.topk");
        try (CountMinSketch cms = CountMinSketch.builder()
                        .epsilon(0.001)
                        .delta(0.01)
                        .counterBits(32)
                        .create(cmsFile, OpenMode.SHARED);
                TopK top = TopK.builder().k(10).epsilon(0.001).delta(0.01).create(topFile, OpenMode.SHARED)) {
            for (var sketch : List.of(cms, top)) {
                for (long key : FILL) {
                    sketch.add(key, 3);
                }
                SimpleMeterRegistry registry = bound(sketch);
                assertEquals(union(COMMON, frequency), names(registry));
                assertCommon(registry, sketch, sketch == cms ? cmsFile : topFile, KEYS);
                assertEquals(3.0 * KEYS, value(registry, "mapsketch.frequency.total.weight"));
                assertEquals(Math.ceil(0.001 * 3 * KEYS), value(registry, "mapsketch.frequency.error.bound"));
                assertEquals(0, value(registry, "mapsketch.counters.saturated"));
            }
            SimpleMeterRegistry registry = bound(cms);
            cms.add(7L, 0xFFFF_FFFFL);
            assertEquals(cms.depth(), value(registry, "mapsketch.counters.saturated"), "the key's counter in each row");
        }
    }

    @Test
    void aHyperLogLogShowsItsEstimateAndItsStandardError() throws IOException {
        Path file = dir.resolve("distinct.hll");
        try (HyperLogLog hll = HyperLogLog.builder().precision(12).create(file, OpenMode.EXCLUSIVE)) {
            hll.addAll(FILL);
            hll.addAll(FILL);
            SimpleMeterRegistry registry = bound(hll);
            assertEquals(
                    union(COMMON, List.of("mapsketch.hll.estimate", "mapsketch.hll.relative.standard.error")),
                    names(registry));
            assertCommon(registry, hll, file, 2 * KEYS);
            double error = value(registry, "mapsketch.hll.relative.standard.error");
            assertEquals(1.04 / Math.sqrt(4096), error, 1e-12);
            assertEquals(hll.estimate(), value(registry, "mapsketch.hll.estimate"));
            assertEquals(KEYS, value(registry, "mapsketch.hll.estimate"), 4 * error * KEYS, "repeats count once");
        }
    }

    @Test
    void minHashAndSimHashShowTheCommonGauges() throws IOException {
        Path minHashFile = dir.resolve("signatures.minhash");
        Path simHashFile = dir.resolve("fingerprints.simhash");
        try (MinHash minHash = MinHash.builder().rows(2).signatureLength(64).create(minHashFile, OpenMode.SHARED);
                SimHash simHash = SimHash.builder().capacity(100).create(simHashFile, OpenMode.SHARED)) {
            minHash.addAll(0, FILL);
            simHash.append(0x5555_5555_5555_5555L);
            for (Sketch sketch : List.of(minHash, simHash)) {
                SimpleMeterRegistry registry = bound(sketch);
                assertEquals(new TreeSet<>(COMMON), names(registry));
                assertCommon(registry, sketch, sketch == minHash ? minHashFile : simHashFile, sketch.itemsAdded());
            }
        }
    }

    @Test
    void anAnonymousSketchIsTaggedSoAndHasNoFileSize() throws IOException {
        try (BloomFilter filter =
                BloomFilter.builder().expectedItems(100).falsePositiveRate(0.01).createAnonymous(OpenMode.SHARED)) {
            filter.add(1L);
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            new SketchMetrics(filter).bindTo(registry);
            assertEquals(
                    union(
                            List.of(),
                            FILTER,
                            "mapsketch.items.added",
                            "mapsketch.payload",
                            "mapsketch.writers.attached"),
                    names(registry));
            assertEquals(
                    List.of(Tag.of("file", "anonymous"), Tag.of("kind", "BLOOM")),
                    registry.get("mapsketch.items.added").gauge().getId().getTags());
            assertEquals(1, value(registry, "mapsketch.items.added"));
            assertEquals(0, value(registry, "mapsketch.writers.attached"), "no file, no registered writer");
        }
    }

    @Test
    void theCallersTagsReplaceTheFileAndKindTags() throws IOException {
        try (BloomFilter filter = BloomFilter.builder()
                .expectedItems(100)
                .falsePositiveRate(0.01)
                .create(dir.resolve("tagged.bf"), OpenMode.SHARED)) {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            new SketchMetrics(filter, Tags.of("file", "sessions")).bindTo(registry);
            assertEquals(
                    List.of(Tag.of("file", "sessions"), Tag.of("kind", "BLOOM")),
                    registry.get("mapsketch.items.added").gauge().getId().getTags());
        }
    }
}
