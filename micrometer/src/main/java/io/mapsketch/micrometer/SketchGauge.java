package io.mapsketch.micrometer;

import io.mapsketch.Sketch;
import java.lang.ref.WeakReference;
import java.util.function.LongSupplier;
import java.util.function.ToDoubleFunction;

/**
 * What one gauge reads: a figure of a sketch held weakly, so that a gauge never keeps a sketch the
 * application dropped from being collected. {@link #value()} is NaN once the sketch is closed or
 * collected, or when reading it fails (a close racing the read, a file truncated under the mapping); it
 * never throws. A figure is read again only once {@code minIntervalNanos} and {@code durationMultiple}
 * times its last read's duration have passed since that read began, and answered from the last
 * reading before then: so a figure whose read takes d uses at most 1 / {@code durationMultiple} of a
 * core however often it is scraped.
 */
final class SketchGauge {

    private final WeakReference<Sketch> sketch;
    private final ToDoubleFunction<Sketch> read;
    private final long minIntervalNanos;
    private final long durationMultiple;
    private final LongSupplier clock;
    private long nextReadNanos;
    private double lastValue = Double.NaN;

    /** A gauge read at every scrape. */
    SketchGauge(Sketch sketch, ToDoubleFunction<Sketch> read) {
        this(sketch, read, 0, 0, System::nanoTime);
    }

    SketchGauge(
            Sketch sketch,
            ToDoubleFunction<Sketch> read,
            long minIntervalNanos,
            long durationMultiple,
            LongSupplier clock) {
        this.sketch = new WeakReference<>(sketch);
        this.read = read;
        this.minIntervalNanos = minIntervalNanos;
        this.durationMultiple = durationMultiple;
        this.clock = clock;
    }

    /** The figure now (or as last read, within the limits), or NaN if the sketch is gone. */
    synchronized double value() {
        Sketch held = sketch.get();
        if (held == null || held.isClosed()) {
            return Double.NaN;
        }
        long start = clock.getAsLong();
        if (!Double.isNaN(lastValue) && start - nextReadNanos < 0) {
            return lastValue;
        }
        double value;
        try {
            value = read.applyAsDouble(held);
        } catch (RuntimeException | InternalError failed) {
            // InternalError is how the JVM reports a fault in a mapped access (the file was truncated).
            return Double.NaN;
        }
        long took = clock.getAsLong() - start;
        nextReadNanos = start + Math.max(minIntervalNanos, saturatedProduct(took, durationMultiple));
        lastValue = value;
        return value;
    }

    private static long saturatedProduct(long a, long b) {
        long high = Math.multiplyHigh(a, b);
        long product = a * b;
        return high != 0 || product < 0 ? Long.MAX_VALUE / 2 : product;
    }
}
