package io.mapsketch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.frequency.CountMinSizing;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.frequency.TopK;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BlockedBloomSizing;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.BloomSizing;
import io.mapsketch.membership.CountingBloomFilter;
import io.mapsketch.membership.FilterBuilder;
import io.mapsketch.membership.ScalableBloomFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The builders on the parameters that once could not be sized: a subnormal delta, a rate no blocked
 * filter reaches, a rate that needs more probes than the format holds, and a scalable chain whose next
 * link no filter reaches. Each is sized within the format or refused before anything is written.
 */
class UnsizableParametersTest {

    @TempDir
    Path dir;

    /**
     * Delta below 1 / Double.MAX_VALUE once asked for 2^31 - 1 rows (137 GB). Below 2^-64 / epsilon no depth
     * honours delta (keys of equal 64-bit hash share every row): refused before any file is written; at the
     * floor, the rows ln(1 / delta) says.
     */
    @Test
    void deltasTheHashCannotHonourAreRefusedAndTheLowestIsSized() throws IOException {
        Path file = dir.resolve("tiny-delta.cms");
        for (double delta : new double[] {1e-310, Double.MIN_VALUE, 1e-20}) {
            IllegalArgumentException refused = assertThrows(
                    IllegalArgumentException.class,
                    () -> CountMinSketch.builder().epsilon(0.01).delta(delta).create(file, OpenMode.EXCLUSIVE));
            assertEquals(
                    "delta = " + delta + ", must be in [" + 0x1p-64 / 0.01 + ", 1) at epsilon = 0.01: keys of"
                            + " equal 64-bit hash share every row, so no depth honours a smaller delta",
                    refused.getMessage());
            assertFalse(Files.exists(file));
        }
        assertThrows(
                IllegalArgumentException.class,
                () -> TopK.builder().k(10).epsilon(0.1).delta(Double.MIN_VALUE).createAnonymous(OpenMode.SHARED));
        double lowest = CountMinSizing.lowestDelta(0.01);
        try (CountMinSketch sketch =
                CountMinSketch.builder().epsilon(0.01).delta(lowest).create(file, OpenMode.EXCLUSIVE)) {
            assertEquals((int) Math.ceil(Math.log(1 / lowest)), sketch.depth());
            assertEquals(40, sketch.depth());
            sketch.add(7L, 3);
            assertEquals(3, sketch.estimate(7L));
        }
        try (CountMinSketch reopened = CountMinSketch.open(file, OpenMode.READ_ONLY)) {
            assertEquals(40, reopened.depth());
            assertEquals(3, reopened.estimate(7L));
        }
    }

    /** The issue's {@code bf create F --capacity 100 --error-rate 1e-300}: a long overflow, now a named refusal. */
    @Test
    void ratesNoFilterReachesAreRefusedBeforeAnyFileIsWritten() {
        Path blocked = dir.resolve("blocked.bf");
        String message = assertThrows(
                        IllegalArgumentException.class,
                        () -> BlockedBloomFilter.builder()
                                .expectedItems(100)
                                .falsePositiveRate(1e-300)
                                .create(blocked, OpenMode.EXCLUSIVE))
                .getMessage();
        assertTrue(
                message.startsWith("falsePositiveRate = 1.0E-300, must be in [" + BlockedBloomSizing.lowestRate(100)
                        + ", 1) for a blocked Bloom filter of expectedItems = 100"),
                message);
        assertFalse(Files.exists(blocked));
        for (FilterBuilder<?, ?> classic :
                new FilterBuilder<?, ?>[] {BloomFilter.builder(), CountingBloomFilter.builder()}) {
            Path file = dir.resolve("classic.bf");
            message = assertThrows(
                            IllegalArgumentException.class,
                            () -> classic.expectedItems(100)
                                    .falsePositiveRate(1e-300)
                                    .create(file, OpenMode.EXCLUSIVE))
                    .getMessage();
            assertTrue(
                    message.startsWith("falsePositiveRate = 1.0E-300, must be in [2^-64 = 5.421010862427522E-20, 1)"),
                    message);
            assertFalse(Files.exists(file));
        }
        Path scalable = dir.resolve("scalable");
        message = assertThrows(
                        IllegalArgumentException.class,
                        () -> ScalableBloomFilter.builder()
                                .expectedItems(100)
                                .falsePositiveRate(1e-300)
                                .create(scalable, OpenMode.EXCLUSIVE))
                .getMessage();
        assertTrue(
                message.startsWith("falsePositiveRate = 1.0E-300 with tighteningRatio = 0.5 gives the first link"),
                message);
        assertFalse(Files.exists(scalable), "not even the directory");
    }

    /** Before, a classic filter asked for 1e-30 got 64 probes and, at capacity, about 3e-29: thirty times the rate asked, unsaid. */
    @Test
    void classicFiltersNeverTakeFewerProbesThanTheirRateNeeds() throws IOException {
        try (BloomFilter lowest = BloomFilter.builder()
                .expectedItems(1_000)
                .falsePositiveRate(BloomSizing.LOWEST_RATE)
                .createAnonymous(OpenMode.EXCLUSIVE)) {
            assertEquals(64, lowest.hashCount());
            double atCapacity = BloomSizing.falsePositiveRate(lowest.bitCount(), lowest.hashCount(), 1_000);
            assertTrue(atCapacity <= BloomSizing.LOWEST_RATE * 1.05, "rate at capacity " + atCapacity);
        }
        assertThrows(
                IllegalArgumentException.class,
                () -> BloomFilter.builder()
                        .expectedItems(1_000)
                        .falsePositiveRate(1e-30)
                        .createAnonymous(OpenMode.EXCLUSIVE));
    }

    /** A chain whose next link no blocked filter reaches stops growing with an IllegalStateException, not an IAE. */
    @Test
    void aScalableChainThatCannotGrowSaysSo() throws IOException {
        try (ScalableBloomFilter filter = ScalableBloomFilter.builder()
                .expectedItems(10)
                .falsePositiveRate(0.01)
                .tighteningRatio(1e-300)
                .create(dir.resolve("chain"), OpenMode.EXCLUSIVE)) {
            for (long key = 0; key < 10; key++) {
                filter.add(key);
            }
            IllegalStateException full = assertThrows(IllegalStateException.class, () -> filter.add(10L));
            assertTrue(full.getMessage().contains("cannot grow: link 1 (20 items at rate "), full.getMessage());
            assertTrue(full.getCause() instanceof IllegalArgumentException);
            assertEquals(1, filter.links());
            assertTrue(filter.mightContain(3L));
        }
    }
}
