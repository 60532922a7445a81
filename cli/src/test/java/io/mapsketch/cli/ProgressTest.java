package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The progress line: late, rate-limited, final, and silent when disabled. */
class ProgressTest {

    private final AtomicLong nanos = new AtomicLong();
    private final StringWriter err = new StringWriter();

    private Progress progress(boolean enabled) {
        return new Progress(new PrintWriter(err), enabled, nanos::get);
    }

    @Test
    void appearsAfterASecondRedrawsAtMostFourTimesASecondAndEndsWithTheTotal() {
        Progress progress = progress(true);
        nanos.set(500_000_000L);
        progress.advance(1_000);
        assertEquals("", err.toString(), "nothing in the first second");
        nanos.set(2_000_000_000L);
        progress.advance(1_000_000);
        assertEquals("\r1,001,000 items, 500,500 items/s, 2.0 s\u001b[K", err.toString());
        nanos.addAndGet(100_000_000L);
        progress.advance(1);
        assertEquals(1, err.toString().split("\r", -1).length - 1, "no redraw within 250 ms");
        progress.finish();
        String last = "\r1,001,001 items, 476,667 items/s, 2.1 s\u001b[K" + System.lineSeparator();
        assertTrue(err.toString().endsWith(last), err.toString());
    }

    @Test
    void shortInputsAndDisabledProgressPrintNothing() {
        Progress quick = progress(true);
        quick.advance(10);
        quick.finish();
        Progress off = progress(false);
        nanos.set(10_000_000_000L);
        off.advance(10);
        off.finish();
        assertEquals("", err.toString());
    }
}
