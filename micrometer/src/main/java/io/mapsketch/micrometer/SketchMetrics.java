package io.mapsketch.micrometer;

import io.mapsketch.Sketch;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Gauges for one open sketch of any kind: the items added, attached writers and bytes of every sketch,
 * and its family's figures: a filter's fill ratio, current and target false-positive rate, estimated
 * and expected items; a Count-Min or Top-K sketch's total weight N, error bound {@code ceil(epsilon N)}
 * and saturated counters (a counting Bloom filter's too); a HyperLogLog's estimate and relative
 * standard error. Meters are tagged {@code file} (the path the sketch was opened from, {@code anonymous}
 * if none) and {@code kind} (its {@link io.mapsketch.SketchKind} name), then the caller's tags, which
 * win over those two. The meter names are listed in {@code docs/metrics.md}.
 *
 * <p>Gauges read the sketch when the registry asks (no thread of their own) and hold it weakly: binding
 * a sketch does not keep it from being collected. Once the sketch is closed or collected every gauge
 * reads NaN, and a read that fails (a close racing it) reads NaN too: nothing is thrown into the
 * registry. {@link #close()} removes the meters. A second process's adds to a {@code SHARED} file show
 * at the next read.
 *
 * <p>Cost per scrape: a few loads per figure, except the fill ratio, false-positive rate, estimated items
 * and saturated counters, which each pass over the payload once (a Count-Min sketch's saturated
 * counters only once N reaches the largest estimate). Measured at 50M keys and 1% (JMH, one thread of a
 * 2-core AMD EPYC, {@code docs/metrics.md}), a pass takes about 4 ms for a Bloom or blocked Bloom
 * filter (60 MB), 110 ms for a counting Bloom filter (240 MB) and 210 ms for a cuckoo filter (100 MB).
 * Unless a pass interval is given, each of the f such figures is read again only after
 * f x {@value #PASS_DURATION_MULTIPLE} times its last pass took, and repeated from that reading before
 * then, so that the passes take at most 1% of a core however often the registry is scraped. The gauges
 * are shared by every registry this binder is bound to.
 */
public final class SketchMetrics implements MeterBinder, AutoCloseable {

    /**
     * Unless a pass interval is given, a figure that passes over the payload waits this many times its
     * last pass's duration, times the sketch's number of such figures, before its next pass: together
     * the passes then take at most 1% of a core.
     */
    public static final int PASS_DURATION_MULTIPLE = 100;

    private final Tags tags;
    private final List<Bound> gauges = new ArrayList<>();
    private final List<Map.Entry<MeterRegistry, Meter>> registered = new ArrayList<>();
    private boolean closed;

    /** A figure and the gauge state that reads it for every registry. */
    private record Bound(String name, String baseUnit, String description, SketchGauge gauge) {}

    /**
     * Gauges for {@code sketch}, tagged by file and kind, whose payload passes take at most 1% of a core.
     *
     * @param sketch an open sketch of this build's engine
     */
    public SketchMetrics(Sketch sketch) {
        this(sketch, Tags.empty());
    }

    /**
     * Gauges for {@code sketch}, tagged by file, kind and {@code tags}, whose payload passes take at
     * most 1% of a core: each of the sketch's f figures that pass over the payload is read again only
     * once f x {@value #PASS_DURATION_MULTIPLE} times its last pass's duration has passed, and repeated
     * from that reading before then.
     *
     * @param sketch an open sketch of this build's engine
     * @param tags more tags for every meter; one named {@code file} or {@code kind} replaces the binder's
     */
    public SketchMetrics(Sketch sketch, Iterable<Tag> tags) {
        this(sketch, tags, 0, PASS_DURATION_MULTIPLE);
    }

    /**
     * Gauges for {@code sketch}, tagged by file, kind and {@code tags}, whose figures that pass over the
     * payload are read at most once per {@code passInterval}, whatever a pass costs.
     *
     * @param sketch an open sketch of this build's engine
     * @param tags more tags for every meter; one named {@code file} or {@code kind} replaces the binder's
     * @param passInterval how long a reading that passed over the payload is repeated; zero reads it at
     *     every scrape
     * @throws IllegalArgumentException if {@code passInterval} is negative
     */
    public SketchMetrics(Sketch sketch, Iterable<Tag> tags, Duration passInterval) {
        this(sketch, tags, requireNotNegative(passInterval).toNanos(), 0);
    }

    private static Duration requireNotNegative(Duration passInterval) {
        Objects.requireNonNull(passInterval, "passInterval");
        if (passInterval.isNegative()) {
            throw new IllegalArgumentException("passInterval = " + passInterval + ", must be zero or positive");
        }
        return passInterval;
    }

    private SketchMetrics(Sketch sketch, Iterable<Tag> tags, long passNanos, long passDurationMultiple) {
        Objects.requireNonNull(sketch, "sketch");
        Objects.requireNonNull(tags, "tags");
        this.tags = Tags.of(
                        "file",
                        SketchFiles.location(sketch).map(Object::toString).orElse("anonymous"),
                        "kind",
                        sketch.kind().name())
                .and(tags);
        List<SketchFigure> figures = SketchFigures.of(sketch);
        // Each pass figure waits its share of the multiple: together they keep to the one budget.
        long multiple = passDurationMultiple
                * figures.stream().filter(SketchFigure::passesOverPayload).count();
        for (SketchFigure figure : figures) {
            SketchGauge gauge = figure.passesOverPayload()
                    ? new SketchGauge(sketch, figure.read(), passNanos, multiple, System::nanoTime)
                    : new SketchGauge(sketch, figure.read());
            gauges.add(new Bound(figure.name(), figure.baseUnit(), figure.description(), gauge));
        }
        if (sketch.file().isPresent()) {
            gauges.add(new Bound(
                    "mapsketch.file.size",
                    SketchFigures.BYTES,
                    "Bytes the sketch's file (a scalable filter's directory) takes",
                    new SketchGauge(sketch, SketchFiles::bytes)));
        }
    }

    /**
     * Registers the gauges in {@code registry}. A registry that holds a gauge of the same name and tags
     * already (another binder of the same file and tags) keeps it, and {@link #close()} leaves it there.
     *
     * @param registry where the gauges go
     * @throws IllegalStateException if this binder is closed
     */
    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        if (closed) {
            throw new IllegalStateException("these sketch metrics are closed; make new ones to bind again");
        }
        Set<Meter> existing = Collections.newSetFromMap(new IdentityHashMap<>());
        existing.addAll(registry.getMeters());
        for (Bound bound : gauges) {
            Gauge gauge = Gauge.builder(bound.name(), bound.gauge(), SketchGauge::value)
                    .strongReference(true)
                    .tags(tags)
                    .description(bound.description())
                    .baseUnit(bound.baseUnit())
                    .register(registry);
            // The registry answers an id it holds with its own meter: that one is not this binder's to remove.
            if (!existing.contains(gauge)) {
                registered.add(Map.entry(registry, gauge));
            }
        }
    }

    /** Removes every meter this binder registered from the registries it was bound to. Idempotent. */
    @Override
    public synchronized void close() {
        closed = true;
        for (Map.Entry<MeterRegistry, Meter> meter : registered) {
            meter.getKey().remove(meter.getValue());
        }
        registered.clear();
    }
}
