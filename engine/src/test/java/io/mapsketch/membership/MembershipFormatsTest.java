package io.mapsketch.membership;

import static io.mapsketch.internal.HeaderFormatChecks.BELOW_ONE;
import static io.mapsketch.internal.HeaderFormatChecks.OUTSIDE_UNIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.mapsketch.internal.HeaderFormatChecks;
import io.mapsketch.internal.TableParameters;
import io.mapsketch.memory.SketchFileLayout;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * The format descriptions of the membership filters over parameters drawn from every value their
 * headers may hold: each reads back what it writes, at every version its kind reads, and refuses a
 * header holding in any parameter a value outside the range {@code docs/file-format.md} gives it, or a
 * payload of another size, naming it.
 */
class MembershipFormatsTest {

    private static final List<Long> HASHES = List.of(0L, -1L, 65L, 1000L);
    /** The generation is refused by the version it does not go with ({@link #aManifestsGenerationMustBeZeroExactlyBeforeListedLinks}). */
    private static final Map<String, List<? extends Number>> MANIFEST_REFUSES = Map.of(
            "initial capacity",
            BELOW_ONE,
            "false-positive rate",
            OUTSIDE_UNIT,
            "tightening ratio",
            OUTSIDE_UNIT,
            "growth factor",
            List.of(0.999, 0.5, 0.0, 1e6, 2e6, Double.NaN, Double.POSITIVE_INFINITY),
            "link generation",
            List.of());
    /** The most blocks whose payload and header page still fit a file length of 2^63 - 1. */
    private static final long MOST_WRITABLE_BLOCKS = (Long.MAX_VALUE - SketchFileLayout.HEADER_LENGTH) / 64;

    @Test
    void classicBloomFilters() {
        HeaderFormatChecks.check(
                longs().between(1, BloomFormat.MAX_BITS)
                        .zip(
                                integers().between(1, 64),
                                items(),
                                rates(),
                                (bits, hashes, items, rate) -> new BloomFormat(bits, hashes, items, rate, 0)),
                BloomFormat::read,
                Map.of(
                        "bits",
                        List.of(0L, -1L, Long.MAX_VALUE - 510, Long.MAX_VALUE),
                        "hashes",
                        HASHES,
                        "expected items",
                        BELOW_ONE,
                        "false-positive rate",
                        OUTSIDE_UNIT,
                        "probe variant",
                        List.of(-1L, 3L, Long.MAX_VALUE)));
    }

    @Test
    void countingBloomFilters() {
        HeaderFormatChecks.check(
                longs().between(1, CountingBloomFormat.MAX_COUNTERS)
                        .zip(
                                integers().between(1, 64),
                                items(),
                                rates(),
                                (counters, hashes, items, rate) ->
                                        new CountingBloomFormat(counters, hashes, items, rate)),
                CountingBloomFormat::read,
                Map.of(
                        "counters",
                        List.of(0L, -1L, (1L << 61) - 127, Long.MAX_VALUE),
                        "hashes",
                        HASHES,
                        "expected items",
                        BELOW_ONE,
                        "false-positive rate",
                        OUTSIDE_UNIT));
    }

    @Test
    void blockedBloomFilters() {
        HeaderFormatChecks.check(
                longs().between(1, MOST_WRITABLE_BLOCKS)
                        .zip(
                                arbitrary().pick(8, 16),
                                items(),
                                rates(),
                                (blocks, bits, items, rate) -> new BlockedBloomFormat(blocks, bits, items, rate)),
                BlockedBloomFormat::read,
                Map.of(
                        "blocks",
                        List.of(0L, -1L, 1L << 57, Long.MAX_VALUE),
                        "bits per key",
                        List.of(0L, 7L, 9L, 12L, 15L, 17L, 32L),
                        "expected items",
                        BELOW_ONE,
                        "false-positive rate",
                        OUTSIDE_UNIT));
    }

    @Test
    void bloomTables() {
        Gen<TableParameters> tables = longs().between(1, TableParameters.MAX_CAPACITY)
                .zip(
                        longs().between(1, TableParameters.MAX_HEAP_BYTES / 64),
                        (n, units) -> new TableParameters(n, 64 * units));
        HeaderFormatChecks.check(
                longs().between(1, BloomTableFormat.MAX_BLOCKS_PER_KEY)
                        .zip(
                                arbitrary().pick(8, 16),
                                items(),
                                rates(),
                                tables,
                                (blocks, bits, items, rate, table) ->
                                        new BloomTableFormat(blocks, bits, items, rate, table)),
                BloomTableFormat::read,
                Map.of(
                        "blocks per key",
                        List.of(0L, -1L, (1L << 24) + 1, Long.MAX_VALUE),
                        "key capacity",
                        List.of(0L, -1L, (1L << 32) + 1, Long.MAX_VALUE),
                        "heap bytes",
                        List.of(0L, 32L, 65L, (1L << 43) + 64, -64L),
                        "bits per key",
                        List.of(0L, 7L, 9L, 12L, 15L, 17L, 32L),
                        "expected items per key",
                        BELOW_ONE,
                        "false-positive rate",
                        OUTSIDE_UNIT));
    }

    @Test
    void cuckooFilters() {
        Gen<Long> buckets = integers()
                .between(1, Long.numberOfTrailingZeros(CuckooSizing.MAX_BUCKETS))
                .map(log -> 1L << log);
        HeaderFormatChecks.check(
                buckets.zip(
                        arbitrary().pick(8, 12, 16),
                        items(),
                        rates(),
                        arbitrary().pick(CuckooTable.WORD_ALIGNED, CuckooTable.DENSE),
                        (b, bits, items, rate, layout) -> new CuckooFormat(b, bits, items, rate, layout)),
                CuckooFormat::read,
                Map.of(
                        "buckets",
                        List.of(0L, 1L, 3L, 1000L, (1L << 32) + 1, 1L << 33, -2L),
                        "fingerprint bits",
                        List.of(0L, 4L, 7L, 9L, 10L, 13L, 17L, 32L),
                        "expected items",
                        BELOW_ONE,
                        "false-positive rate",
                        OUTSIDE_UNIT,
                        "slot layout",
                        List.of(-1L, 2L, 3L)));
    }

    /** Manifests of versions 1 to 3 have generation zero, of version 4 any other. */
    @Test
    void scalableBloomManifests() {
        Gen<Double> growth = doubles().between(Math.nextUp(0.999), Math.nextDown(1e6));
        Gen<ScalableBloomFormat> unlisted =
                items().zip(rates(), rates(), growth, (n, p, r, s) -> new ScalableBloomFormat(n, p, r, s, 0));
        Gen<ScalableBloomFormat> listed = unlisted.zip(
                longs().all().assuming(g -> g != 0),
                (format, generation) -> new ScalableBloomFormat(
                        format.initialCapacity(),
                        format.falsePositiveRate(),
                        format.tighteningRatio(),
                        format.growthFactor(),
                        generation));
        qt().withExamples(300)
                .forAll(unlisted, integers().between(1, 3))
                .checkAssert((format, version) ->
                        HeaderFormatChecks.checkOne(format, version, ScalableBloomFormat::read, MANIFEST_REFUSES));
        qt().withExamples(300)
                .forAll(listed)
                .checkAssert(format -> HeaderFormatChecks.checkOne(
                        format, ScalableBloomFormat.LISTED_LINKS_VERSION, ScalableBloomFormat::read, MANIFEST_REFUSES));
    }

    @Test
    void aManifestsGenerationMustBeZeroExactlyBeforeListedLinks() {
        ScalableBloomFormat unlisted = new ScalableBloomFormat(1000, 0.01, 0.5, 2, 0);
        ScalableBloomFormat listed = new ScalableBloomFormat(1000, 0.01, 0.5, 2, 42);
        assertEquals(
                "header parameter 'link generation' (index 4) is 0, expected a non-zero value in format version 4",
                HeaderFormatChecks.refusal(
                        ScalableBloomFormat::read,
                        HeaderFormatChecks.reader(unlisted.encode(), unlisted, listed.payloadBytes(), 4)));
        assertEquals(
                "header parameter 'link generation' (index 4) is 42, expected zero in format version 3",
                HeaderFormatChecks.refusal(
                        ScalableBloomFormat::read,
                        HeaderFormatChecks.reader(listed.encode(), listed, unlisted.payloadBytes(), 3)));
    }

    private static Gen<Long> items() {
        return longs().between(1, Long.MAX_VALUE);
    }

    /** Every double strictly between 0 and 1. */
    private static Gen<Double> rates() {
        return doubles().between(Double.MIN_VALUE, Math.nextDown(1.0));
    }
}
