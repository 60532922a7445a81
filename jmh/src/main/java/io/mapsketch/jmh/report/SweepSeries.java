package io.mapsketch.jmh.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.SequencedSet;

/**
 * The scores of one size-sweep benchmark class as nanoseconds per key against bytes: one point per
 * method, implementation and {@code size}, from JMH's keys per second. Scores taken with a
 * {@code fill} other than {@code auto} (comparisons of the two fills, run by hand) are left out.
 *
 * @param benchmark the class's simple name, e.g. {@code BloomSweepBenchmark}
 * @param scores its scores
 */
record SweepSeries(String benchmark, List<Score> scores) {

    /**
     * One measured point.
     *
     * @param bytes the {@code size} parameter
     * @param nanos nanoseconds per key (or per load)
     * @param error JMH's error carried over to nanoseconds, or {@code NaN}
     */
    record Point(long bytes, double nanos, double error) {}

    /** The scores of {@code benchmark} in {@code results}. */
    static SweepSeries of(ResultSet results, String benchmark) {
        return new SweepSeries(
                benchmark,
                results.of(benchmark).stream()
                        .filter(s -> s.setting().getOrDefault("fill", "auto").equals("auto")
                                && s.setting().containsKey("size"))
                        .toList());
    }

    boolean isEmpty() {
        return scores.isEmpty();
    }

    /** The implementations that ran {@code method}: mapsketch's first, each group in the order read. */
    SequencedSet<String> impls(String method) {
        SequencedSet<String> impls = new LinkedHashSet<>();
        scores.stream()
                .filter(s -> s.method().equals(method))
                .sorted(Comparator.comparing(s -> !s.isMapsketch()))
                .forEach(s -> impls.add(s.impl()));
        return impls;
    }

    /** Every size measured by any method, smallest first. */
    List<Long> sizes() {
        return scores.stream().map(SweepSeries::bytes).distinct().sorted().toList();
    }

    /** The points of one method and implementation, smallest size first. */
    List<Point> points(String method, String impl) {
        List<Point> points = new ArrayList<>();
        scores.stream()
                .filter(s -> s.method().equals(method) && s.impl().equals(impl))
                .sorted(Comparator.comparingLong(SweepSeries::bytes))
                .forEach(s -> points.add(point(s)));
        return points;
    }

    /** The point of one method and implementation at one size. */
    Optional<Point> point(String method, String impl, long bytes) {
        return scores.stream()
                .filter(s -> s.method().equals(method) && s.impl().equals(impl) && bytes(s) == bytes)
                .findFirst()
                .map(SweepSeries::point);
    }

    /** The fastest of mapsketch's implementations, or of the peers, at one size. */
    Optional<Point> best(String method, long bytes, boolean mapsketch) {
        return scores.stream()
                .filter(s -> s.method().equals(method) && bytes(s) == bytes && s.isMapsketch() == mapsketch)
                .map(SweepSeries::point)
                .min(Comparator.comparingDouble(Point::nanos));
    }

    private static long bytes(Score score) {
        return Long.parseLong(score.setting().get("size"));
    }

    private static Point point(Score score) {
        double nanos = 1e9 / score.value();
        return new Point(bytes(score), nanos, nanos * score.error() / score.value());
    }
}
