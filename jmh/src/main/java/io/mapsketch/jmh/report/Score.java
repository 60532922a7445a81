package io.mapsketch.jmh.report;

import java.util.Map;

/**
 * One JMH result: the primary score of one benchmark method for one implementation at one setting.
 *
 * @param benchmark the benchmark class's simple name, e.g. {@code BloomBenchmark}
 * @param method the benchmark method, e.g. {@code mightContain}
 * @param impl the value of the {@code impl} parameter, e.g. {@code mapsketch-blocked} or {@code guava}
 * @param setting the other parameters in their declared order, e.g. {@code items=50000000}
 * @param value the score, in {@link #unit}
 * @param error JMH's half-width of the 99.9% confidence interval, or {@code NaN} when a run had too
 *     few iterations to compute one
 * @param unit the score's unit, e.g. {@code ops/s} or {@code ms/op}
 * @param higherIsBetter {@code true} for throughput, {@code false} for times
 * @param percentiles JMH's {@code scorePercentiles} of a {@code SampleTime} run, keyed as JMH keys
 *     them ({@code "50.0"}, {@code "99.9"}, ...), in {@link #unit}; empty for other modes
 */
public record Score(
        String benchmark,
        String method,
        String impl,
        Map<String, String> setting,
        double value,
        double error,
        String unit,
        boolean higherIsBetter,
        Map<String, Double> percentiles) {

    /**
     * One percentile of a {@code SampleTime} score.
     *
     * @param percentile as JMH keys it, e.g. {@code "99.9"}
     * @return its value in {@link #unit}
     * @throws IllegalArgumentException if this score has no such percentile
     */
    public double percentile(String percentile) {
        Double value = percentiles.get(percentile);
        if (value == null) {
            throw new IllegalArgumentException("percentile " + percentile + " is not among " + percentiles.keySet()
                    + " of " + benchmark + "." + method + " " + impl + " " + setting);
        }
        return value;
    }

    /**
     * How much better this score is than {@code other}: above 1 when this one is faster, whatever
     * the unit (a throughput ratio, or the inverse ratio of times).
     *
     * @param other the score compared with, of the same unit
     * @return this score's advantage over {@code other}
     */
    public double advantageOver(Score other) {
        return higherIsBetter ? value / other.value : other.value / value;
    }

    /**
     * Whether this is one of mapsketch's implementations rather than a peer's.
     *
     * @return {@code true} if the implementation's name starts with {@code mapsketch}
     */
    public boolean isMapsketch() {
        return impl.startsWith("mapsketch");
    }
}
