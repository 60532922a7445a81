package io.mapsketch.micrometer;

import io.mapsketch.Sketch;
import java.lang.ref.WeakReference;
import java.util.function.ToDoubleFunction;

/**
 * What one gauge reads: a figure of a sketch held weakly, so that a gauge never keeps a sketch the
 * application dropped from being collected. {@link #value()} is NaN once the sketch is closed or
 * collected, or when reading it fails (a close racing the read, a file truncated under the mapping); it
 * never throws. A figure that passes over the payload is read at most once per {@code maxAgeNanos}, and
 * answered from the last reading in between.
 */
final class SketchGauge {

    private final WeakReference<Sketch> sketch;
    private final ToDoubleFunction<Sketch> read;
    private final long maxAgeNanos;
    private long readAtNanos;
    private double lastValue = Double.NaN;

    SketchGauge(Sketch sketch, ToDoubleFunction<Sketch> read, long maxAgeNanos) {
        this.sketch = new WeakReference<>(sketch);
        this.read = read;
        this.maxAgeNanos = maxAgeNanos;
    }

    /** The figure now (or as last read, within the maximum age), or NaN if the sketch is gone. */
    synchronized double value() {
        Sketch held = sketch.get();
        if (held == null || held.isClosed()) {
            return Double.NaN;
        }
        long now = System.nanoTime();
        if (!Double.isNaN(lastValue) && now - readAtNanos < maxAgeNanos) {
            return lastValue;
        }
        double value;
        try {
            value = read.applyAsDouble(held);
        } catch (RuntimeException | InternalError failed) {
            // InternalError is how the JVM reports a fault in a mapped access (the file was truncated).
            return Double.NaN;
        }
        lastValue = value;
        readAtNanos = now;
        return value;
    }
}
