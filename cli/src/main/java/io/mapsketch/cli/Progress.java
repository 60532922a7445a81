package io.mapsketch.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The progress line of a long input on standard error: items read so far and the rate. It appears
 * only once the input has taken more than a second (short inputs never show it), is redrawn at most
 * four times a second in place, and ends with the total on its own line. Disabled unless a person
 * watches ({@link CommandIo#terminal()}), so nothing of it reaches a pipe or a log.
 */
final class Progress {

    private static final long DELAY_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long REDRAW_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    private static final String CLEAR_TO_END = "\u001b[K";

    private final PrintWriter err;
    private final boolean enabled;
    private final LongSupplier nanoClock;
    private final long start;
    private long items;
    private long lastDrawn;
    private boolean shown;

    Progress(PrintWriter err, boolean enabled, LongSupplier nanoClock) {
        this.err = err;
        this.enabled = enabled;
        this.nanoClock = nanoClock;
        this.start = enabled ? nanoClock.getAsLong() : 0;
    }

    /** Counts {@code more} items; redraws if it is time. Cost when disabled: one addition. */
    void advance(long more) {
        items += more;
        if (!enabled) {
            return;
        }
        long now = nanoClock.getAsLong();
        if (now - start >= DELAY_NANOS && (!shown || now - lastDrawn >= REDRAW_NANOS)) {
            draw(now);
            err.flush();
            shown = true;
            lastDrawn = now;
        }
    }

    /** Leaves the final count on its own line, if the line was shown at all. */
    void finish() {
        if (shown) {
            draw(nanoClock.getAsLong());
            err.println();
            err.flush();
        }
    }

    private void draw(long now) {
        double seconds = Math.max(now - start, 1) / 1e9;
        err.printf(Locale.ROOT, "\r%,d items, %,.0f items/s, %.1f s%s", items, items / seconds, seconds, CLEAR_TO_END);
    }
}
