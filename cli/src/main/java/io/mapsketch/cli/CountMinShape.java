package io.mapsketch.cli;

import io.mapsketch.frequency.CountMinTable;
import io.mapsketch.frequency.CountMinTableBuilder;
import io.mapsketch.frequency.FrequencySketch;
import picocli.CommandLine.Option;

/**
 * The options that shape a Count-Min sketch, for {@code cms create} and {@code table create --kind cms}:
 * {@code --width} and {@code --depth} (CMS.INITBYDIM) or {@code --epsilon} and {@code --delta}
 * (CMS.INITBYPROB), one pair or the other, and {@code --counter-bits}.
 */
final class CountMinShape {

    /** Sets a Count-Min shape by width and depth. */
    @FunctionalInterface
    interface Dimensions {
        void set(int width, int depth);
    }

    /** Sets a Count-Min shape by epsilon and delta. */
    @FunctionalInterface
    interface Probabilities {
        void set(double epsilon, double delta);
    }

    @Option(
            names = "--epsilon",
            paramLabel = "E",
            description = "error as a fraction of the total count N, in (0, 1), e.g. 0.001.")
    private Double epsilon;

    @Option(
            names = "--delta",
            paramLabel = "D",
            description = "probability that an estimate is off by more than E x N, in (0, 1), e.g. 0.01.")
    private Double delta;

    @Option(
            names = "--width",
            paramLabel = "W",
            description = "counters per row, at least 3 (error about e / W x N); with --depth.")
    private Integer width;

    @Option(
            names = "--depth",
            paramLabel = "D",
            description = "rows, in [1, " + FrequencySketch.MAX_DEPTH + "] (probability of a larger error"
                    + " about e^-D); with --width.")
    private Integer depth;

    @Option(
            names = "--counter-bits",
            paramLabel = "BITS",
            description = "32 (default) or 64; counters saturate at 2^32 - 1 or 2^64 - 1, never wrap.")
    private Integer counterBits;

    /** The counter bits asked for, 32 if none. */
    int counterBits() {
        return counterBits == null ? 32 : counterBits;
    }

    /**
     * Hands the shape to the builder's setters: by width and depth, or by epsilon and delta.
     *
     * @throws IllegalArgumentException naming the options missing or given together
     */
    void apply(Dimensions dimensions, Probabilities probabilities) {
        if (width != null || depth != null) {
            if (width == null || depth == null) {
                throw new IllegalArgumentException("--width and --depth go together (CMS.INITBYDIM)");
            }
            if (epsilon != null || delta != null) {
                throw new IllegalArgumentException("give --epsilon and --delta, or --width and --depth, not both");
            }
            dimensions.set(width, depth);
        } else {
            if (epsilon == null || delta == null) {
                throw new IllegalArgumentException("give --epsilon E and --delta D (CMS.INITBYPROB), or --width W"
                        + " and --depth D (CMS.INITBYDIM)");
            }
            probabilities.set(epsilon, delta);
        }
    }

    /** A Count-Min table's builder of this shape. */
    CountMinTableBuilder tableBuilder() {
        CountMinTableBuilder builder = CountMinTable.builder().counterBits(counterBits());
        apply(builder::dimensions, (e, d) -> builder.epsilon(e).delta(d));
        return builder;
    }

    /** Refuses any of these options for a table of another kind. */
    void refuse(String kind) {
        for (Object given : new Object[] {epsilon, delta, width, depth, counterBits}) {
            if (given != null) {
                throw new CommandFailure("--epsilon, --delta, --width, --depth and --counter-bits size tables of"
                        + " --kind cms only, not " + kind);
            }
        }
    }
}
