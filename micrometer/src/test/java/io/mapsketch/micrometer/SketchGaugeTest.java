package io.mapsketch.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.membership.BloomFilter;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * When a payload figure is read again, on a clock the test moves: not before the minimum interval nor
 * before the multiple of the last read's duration, and at once after a failed read.
 */
class SketchGaugeTest {

    private long now;
    private int reads;
    private boolean failing;

    private static final long MILLI = TimeUnit.MILLISECONDS.toNanos(1);

    /** A figure whose every read takes 5 ms of the test's clock and answers how many reads there were. */
    private double slowRead(Sketch sketch) {
        now += 5 * MILLI;
        if (failing) {
            throw new IllegalStateException("unreadable");
        }
        return ++reads;
    }

    private static BloomFilter filter() {
        return BloomFilter.builder().expectedItems(100).falsePositiveRate(0.01).createAnonymous(OpenMode.SHARED);
    }

    @Test
    void aFigureIsReadAgainAfterAHundredTimesItsLastReadTook() throws Exception {
        try (BloomFilter filter = filter()) {
            SketchGauge gauge = new SketchGauge(filter, this::slowRead, 0, 100, () -> now);
            assertEquals(1, gauge.value());
            now += 494 * MILLI;
            assertEquals(1, gauge.value(), "499 ms after a 5 ms read began");
            now += MILLI;
            assertEquals(2, gauge.value(), "500 ms after");
        }
    }

    @Test
    void aFigureIsReadAgainAfterTheMinimumInterval() throws Exception {
        try (BloomFilter filter = filter()) {
            SketchGauge gauge = new SketchGauge(filter, this::slowRead, 1_000 * MILLI, 0, () -> now);
            assertEquals(1, gauge.value());
            now += 994 * MILLI;
            assertEquals(1, gauge.value());
            now += MILLI;
            assertEquals(2, gauge.value());
            SketchGauge always = new SketchGauge(filter, this::slowRead, 0, 0, () -> now);
            assertEquals(3, always.value());
            assertEquals(4, always.value(), "no limit: every scrape reads");
        }
    }

    @Test
    void aFailedReadIsNaNAndTheNextScrapeTriesAgain() throws Exception {
        try (BloomFilter filter = filter()) {
            SketchGauge gauge = new SketchGauge(filter, this::slowRead, 0, 0, () -> now);
            failing = true;
            assertTrue(Double.isNaN(gauge.value()));
            failing = false;
            assertEquals(1, gauge.value());
        }
    }

    @Test
    void aClosedSketchIsNaNEvenWithinTheInterval() throws Exception {
        BloomFilter filter = filter();
        SketchGauge gauge = new SketchGauge(filter, this::slowRead, 1_000 * MILLI, 0, () -> now);
        assertEquals(1, gauge.value());
        filter.close();
        assertTrue(Double.isNaN(gauge.value()));
        assertEquals(1, reads, "a closed sketch is not read");
    }
}
