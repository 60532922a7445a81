package io.mapsketch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.frequency.TopK;
import io.mapsketch.internal.Regions;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.CountingBloomFilter;
import io.mapsketch.membership.CuckooFilter;
import io.mapsketch.membership.FilterBuilder;
import io.mapsketch.membership.ScalableBloomFilter;
import io.mapsketch.memory.SketchHeader;
import io.mapsketch.similarity.MinHash;
import io.mapsketch.similarity.SimHash;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * Every builder over parameters drawn from the whole range of their types (every double bit pattern:
 * NaN, infinities, subnormals, negatives, huge values; rates spread over every exponent below 1; longs
 * and ints of every magnitude; and the edges by name): either it sizes a shape whose parameters are in
 * the ranges the file format documents and whose file length fits in a long, and, when the file is
 * small enough to write here, the shape is created and opened again; or it throws
 * {@link IllegalArgumentException} naming one of the parameters with the value given and the valid
 * range, and creating writes nothing. Never another exception.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class BuilderSizingPropertiesTest {

    private static final int EXAMPLES = 1_500;
    /** Shapes up to this file length are created and reopened through the kind's own {@code open}. */
    private static final long ROUND_TRIP_BYTES = 1 << 20;

    @TempDir
    Path dir;

    private int attempts;
    private int refused;
    private int sized;
    private int reopened;

    /** A sketch file or directory opener, as each kind's {@code open}. */
    @FunctionalInterface
    private interface Opener {
        Sketch open(Path file, OpenMode mode) throws IOException;
    }

    /** A parameter as the builder was given it: its setter's name and the value. */
    private record Given(String name, Object value) {}

    @Test
    void classicBloomFilters() {
        filters(7, BloomFilter::builder, BloomFilter::open);
    }

    @Test
    void blockedBloomFilters() {
        filters(17, BlockedBloomFilter::builder, BlockedBloomFilter::open);
    }

    @Test
    void countingBloomFilters() {
        filters(27, CountingBloomFilter::builder, CountingBloomFilter::open);
    }

    @Test
    void cuckooFilters() {
        filters(37, CuckooFilter::builder, CuckooFilter::open);
    }

    @Test
    void scalableBloomFilters() {
        qt().withFixedSeed(47)
                .withExamples(EXAMPLES)
                .forAll(anyLong(), anyDouble(), anyDouble(), anyDouble())
                .checkAssert((items, rate, ratio, growth) -> sizes(
                        () -> ScalableBloomFilter.builder()
                                .expectedItems(items)
                                .falsePositiveRate(rate)
                                .tighteningRatio(ratio)
                                .growthFactor(growth),
                        ScalableBloomFilter::open,
                        manifest -> manifest.fileLength() + firstLinkBytes(items, rate, ratio),
                        new Given("expectedItems", items),
                        new Given("falsePositiveRate", rate),
                        new Given("tighteningRatio", ratio),
                        new Given("growthFactor", growth)));
    }

    /** The file length of a scalable filter's first link, which must size whenever its manifest does. */
    private static long firstLinkBytes(long items, double rate, double ratio) {
        return BlockedBloomFilter.builder()
                .expectedItems(items)
                .falsePositiveRate(rate * (1 - ratio))
                .header()
                .fileLength();
    }

    @Test
    void countMinSketches() {
        qt().withFixedSeed(57)
                .withExamples(EXAMPLES)
                .forAll(anyDouble(), anyDouble(), counterBits(), booleans().all())
                .checkAssert((epsilon, delta, bits, conservative) -> sizes(
                        () -> CountMinSketch.builder()
                                .epsilon(epsilon)
                                .delta(delta)
                                .counterBits(bits)
                                .conservativeUpdate(conservative),
                        CountMinSketch::open,
                        new Given("epsilon", epsilon),
                        new Given("delta", delta),
                        new Given("counterBits", bits)));
    }

    @Test
    void topKSketches() {
        qt().withFixedSeed(67)
                .withExamples(EXAMPLES)
                .forAll(anyDouble(), anyDouble(), anyInt().zip(anyInt(), Pair::of), counterBits())
                .checkAssert((epsilon, delta, k, bits) -> sizes(
                        () -> TopK.builder()
                                .k(k._1)
                                .maxKeyBytes(k._2)
                                .epsilon(epsilon)
                                .delta(delta)
                                .counterBits(bits),
                        TopK::open,
                        new Given("k", k._1),
                        new Given("maxKeyBytes", k._2),
                        new Given("epsilon", epsilon),
                        new Given("delta", delta),
                        new Given("counterBits", bits)));
    }

    @Test
    void hyperLogLogs() {
        qt().withFixedSeed(77)
                .withExamples(EXAMPLES)
                .forAll(anyInt())
                .checkAssert(precision -> sizes(
                        () -> HyperLogLog.builder().precision(precision),
                        HyperLogLog::open,
                        new Given("precision", precision)));
    }

    @Test
    void minHashes() {
        qt().withFixedSeed(87)
                .withExamples(EXAMPLES)
                .forAll(anyInt(), anyInt(), anyDouble(), booleans().all())
                .checkAssert((rows, slots, error, bySlots) -> sizes(
                        () -> bySlots
                                ? MinHash.builder().rows(rows).signatureLength(slots)
                                : MinHash.builder().rows(rows).standardError(error),
                        MinHash::open,
                        new Given("rows", rows),
                        bySlots ? new Given("signatureLength", slots) : new Given("standardError", error)));
    }

    @Test
    void simHashes() {
        qt().withFixedSeed(97)
                .withExamples(EXAMPLES)
                .forAll(anyLong())
                .checkAssert(capacity -> sizes(
                        () -> SimHash.builder().capacity(capacity), SimHash::open, new Given("capacity", capacity)));
    }

    private void filters(long seed, Supplier<FilterBuilder<?, ?>> builder, Opener opener) {
        qt().withFixedSeed(seed)
                .withExamples(EXAMPLES)
                .forAll(anyLong(), anyDouble())
                .checkAssert((items, rate) -> sizes(
                        () -> builder.get().expectedItems(items).falsePositiveRate(rate),
                        opener,
                        new Given("expectedItems", items),
                        new Given("falsePositiveRate", rate)));
    }

    /** The property: a documented shape that opens again, or a refusal that names a parameter and writes nothing. */
    private void sizes(Supplier<SketchBuilder<?, ?>> configured, Opener opener, Given... given) {
        sizes(configured, opener, SketchHeader::fileLength, given);
    }

    /**
     * As {@link #sizes(Supplier, Opener, Given...)}, for a kind whose creation writes {@code writtenBytes}
     * of its header in all (a scalable filter's manifest and first link).
     */
    private void sizes(
            Supplier<SketchBuilder<?, ?>> configured,
            Opener opener,
            ToLongFunction<SketchHeader> writtenBytes,
            Given... given) {
        SketchHeader header;
        try {
            header = configured.get().header();
        } catch (IllegalArgumentException refused) {
            requireNamed(refused, given);
            requireNothingWritten(configured);
            this.refused++;
            return;
        }
        DocumentedRanges.requireAccepted(header);
        sized++;
        if (writtenBytes.applyAsLong(header) <= ROUND_TRIP_BYTES) {
            roundTrip(configured.get(), header, opener);
            reopened++;
        }
    }

    /** Every family's examples were refused in part, sized in part and, of those, reopened in part. */
    @AfterEach
    void everyOutcomeWasReached() {
        assertTrue(
                refused > 0 && sized > 0 && reopened > 0,
                "refused " + refused + ", sized " + sized + ", reopened " + reopened + " of " + EXAMPLES);
    }

    private static void requireNamed(IllegalArgumentException refused, Given... given) {
        String message = String.valueOf(refused.getMessage());
        boolean named = Arrays.stream(given).anyMatch(g -> message.startsWith(g.name() + " = " + g.value()));
        assertTrue(named, "the refusal names a parameter as given " + Arrays.toString(given) + ": " + message);
        assertTrue(message.contains("must be"), "the refusal states the valid range: " + message);
    }

    private void requireNothingWritten(Supplier<SketchBuilder<?, ?>> configured) {
        SketchBuilder<?, ?> builder;
        try {
            builder = configured.get();
        } catch (IllegalArgumentException refusedBySetter) {
            return;
        }
        Path file = dir.resolve("refused-" + attempts++);
        assertThrows(IllegalArgumentException.class, () -> builder.create(file, OpenMode.EXCLUSIVE));
        assertFalse(Files.exists(file), "a refused sketch left " + file);
    }

    private void roundTrip(SketchBuilder<?, ?> builder, SketchHeader header, Opener opener) {
        Path file = dir.resolve("sized-" + attempts++);
        try {
            builder.create(file, OpenMode.EXCLUSIVE).close();
            try (Sketch reopened = opener.open(file, OpenMode.READ_ONLY)) {
                assertEquals(Regions.kind(header), reopened.kind());
            }
            delete(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path path) throws IOException {
        try (Stream<Path> tree = Files.walk(path)) {
            for (Path each : tree.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(each);
            }
        }
    }

    /**
     * Doubles: every bit pattern, every positive double up to 1 spread evenly over its bit patterns (so
     * over the exponents), subnormals, ordinary magnitudes {@code 10^x} for x in [-22, 7] (rates, growth factors),
     * and the edges of the rates and of double arithmetic.
     */
    static Gen<Double> anyDouble() {
        Gen<Double> bits = longs().all().map(Double::longBitsToDouble);
        Gen<Double> belowOne =
                longs().between(0, Double.doubleToRawLongBits(1.0)).map(Double::longBitsToDouble);
        Gen<Double> subnormal = longs().between(1, Double.doubleToRawLongBits(Double.MIN_NORMAL) - 1)
                .map(Double::longBitsToDouble);
        Gen<Double> ordinary = doubles().between(-22, 7).map(x -> Math.pow(10, x));
        Gen<Double> edges = arbitrary()
                .pick(
                        Double.NaN,
                        Double.POSITIVE_INFINITY,
                        Double.NEGATIVE_INFINITY,
                        0.0,
                        -0.0,
                        Double.MIN_VALUE,
                        Double.MIN_NORMAL,
                        1 / Double.MAX_VALUE,
                        5.6e-309,
                        1e-300,
                        0x1p-64,
                        Math.nextDown(0x1p-64),
                        1e-9,
                        0.01,
                        0.5,
                        Math.nextDown(1.0),
                        1.0,
                        Math.nextUp(1.0),
                        2.0,
                        999_999.0,
                        1e6,
                        Math.nextDown(1e6),
                        Double.MAX_VALUE);
        return Generate.frequency(
                Pair.of(2, bits), Pair.of(2, belowOne), Pair.of(1, subnormal), Pair.of(5, ordinary), Pair.of(1, edges));
    }

    /**
     * Longs: every bit pattern, every magnitude (a value shifted right by its own low six bits), small
     * counts, and the edges.
     */
    static Gen<Long> anyLong() {
        Gen<Long> bits = longs().all();
        Gen<Long> magnitudes = longs().all().map(v -> (v >>> 1) >>> (v & 63));
        Gen<Long> small = longs().between(-2, 1_000_000);
        Gen<Long> edges = arbitrary()
                .pick(
                        Long.MIN_VALUE,
                        -1L,
                        0L,
                        1L,
                        2L,
                        100L,
                        10_000L,
                        1L << 32,
                        15_461_882_265L,
                        15_461_882_266L,
                        1L << 40,
                        (1L << 40) + 1,
                        1L << 57,
                        1L << 62,
                        Long.MAX_VALUE / 4,
                        Long.MAX_VALUE - 511,
                        Long.MAX_VALUE);
        return Generate.frequency(Pair.of(1, bits), Pair.of(5, magnitudes), Pair.of(3, small), Pair.of(1, edges));
    }

    /** Ints: every bit pattern, every magnitude, small values, and the edges of the int-valued parameters. */
    static Gen<Integer> anyInt() {
        Gen<Integer> bits = integers().all();
        Gen<Integer> magnitudes = integers().all().map(v -> (v >>> 1) >>> (v & 31));
        Gen<Integer> small = integers().between(-2, 100);
        Gen<Integer> edges = arbitrary()
                .pick(
                        Integer.MIN_VALUE,
                        -1,
                        0,
                        1,
                        3,
                        4,
                        7,
                        8,
                        14,
                        16,
                        18,
                        19,
                        32,
                        64,
                        65,
                        1 << 16,
                        (1 << 16) + 1,
                        1 << 20,
                        (1 << 20) + 1,
                        Integer.MAX_VALUE);
        return Generate.frequency(Pair.of(1, bits), Pair.of(4, magnitudes), Pair.of(4, small), Pair.of(1, edges));
    }

    /** Counter widths: mostly the two valid ones, often any int. */
    static Gen<Integer> counterBits() {
        return Generate.frequency(Pair.of(4, arbitrary().pick(32, 64)), Pair.of(1, anyInt()));
    }
}
