package io.mapsketch.micrometer;

import io.mapsketch.Sketch;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.frequency.FrequencySketch;
import io.mapsketch.membership.CountingBloomFilter;
import io.mapsketch.membership.MembershipFilter;
import io.mapsketch.membership.ScalableBloomFilter;
import java.util.List;

/**
 * Every figure the binder exports, in the order of {@code docs/metrics.md}: those of every sketch, then
 * each family's. Each reads what the engine computes; none changes the sketch.
 */
final class SketchFigures {

    private SketchFigures() {}

    static final String BYTES = "bytes";

    private static final String SATURATED = "Counters at their largest value, which no update moves again";

    /** The figures a sketch of any kind answers, its family's included; its file size is {@link SketchFiles}'s. */
    static List<SketchFigure> of(Sketch sketch) {
        return ALL.stream().filter(figure -> figure.appliesTo(sketch)).toList();
    }

    private static final List<SketchFigure> ALL = List.of(
            SketchFigure.loaded(
                    "mapsketch.items.added",
                    null,
                    "Items all writers added, in every process, repeats included (removals subtract)",
                    Sketch.class,
                    Sketch::itemsAdded),
            SketchFigure.loaded(
                    "mapsketch.writers.attached",
                    null,
                    "Writers registered in the file, in every process; above the live writers if one died",
                    Sketch.class,
                    Sketch::attachedWriters),
            SketchFigure.loaded(
                    "mapsketch.payload",
                    BYTES,
                    "Bytes of sketch state, without the 4096-byte header",
                    Sketch.class,
                    Sketch::memoryBytes),
            SketchFigure.passed(
                    "mapsketch.filter.fill.ratio",
                    null,
                    "Fraction of the filter's bits (counters, slots) that are set",
                    MembershipFilter.class,
                    MembershipFilter::fillRatio),
            SketchFigure.passed(
                    "mapsketch.filter.false.positive.rate",
                    null,
                    "Probability that a key never added is reported present, at the current fill",
                    MembershipFilter.class,
                    MembershipFilter::expectedFalsePositiveRate),
            SketchFigure.loaded(
                    "mapsketch.filter.target.false.positive.rate",
                    null,
                    "False-positive rate the filter was sized for, at its expected items",
                    MembershipFilter.class,
                    MembershipFilter::targetFalsePositiveRate),
            SketchFigure.passed(
                    "mapsketch.filter.estimated.items",
                    null,
                    "Distinct keys the filter holds, estimated from its fill",
                    MembershipFilter.class,
                    MembershipFilter::estimatedItems),
            SketchFigure.loaded(
                    "mapsketch.filter.expected.items",
                    null,
                    "Capacity the filter was sized for (a scalable filter's first link)",
                    MembershipFilter.class,
                    MembershipFilter::expectedItems),
            SketchFigure.loaded(
                    "mapsketch.filter.links",
                    null,
                    "Links in the scalable filter's chain",
                    ScalableBloomFilter.class,
                    ScalableBloomFilter::links),
            SketchFigure.passed(
                    "mapsketch.counters.saturated",
                    null,
                    SATURATED,
                    CountingBloomFilter.class,
                    CountingBloomFilter::saturatedCounters),
            SketchFigure.passed(
                    "mapsketch.counters.saturated",
                    null,
                    SATURATED,
                    FrequencySketch.class,
                    FrequencySketch::saturatedCounters),
            SketchFigure.loaded(
                    "mapsketch.frequency.total.weight",
                    null,
                    "N, the sum of all counts added, merges included",
                    FrequencySketch.class,
                    FrequencySketch::totalWeight),
            SketchFigure.loaded(
                    "mapsketch.frequency.error.bound",
                    null,
                    "ceil(epsilon N): an estimate exceeds the truth by more with probability at most delta",
                    FrequencySketch.class,
                    FrequencySketch::errorBound),
            SketchFigure.loaded(
                    "mapsketch.hll.estimate",
                    null,
                    "Estimated distinct items",
                    HyperLogLog.class,
                    HyperLogLog::estimate),
            SketchFigure.loaded(
                    "mapsketch.hll.relative.standard.error",
                    null,
                    "Relative standard error of the estimate, 1.04 / sqrt(m) for m registers",
                    HyperLogLog.class,
                    HyperLogLog::relativeStandardError));
}
