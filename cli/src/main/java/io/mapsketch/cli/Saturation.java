package io.mapsketch.cli;

import io.mapsketch.frequency.FrequencySketch;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * How the frequency verbs say that an estimate is saturated: it reached the largest value its
 * counters hold ({@link FrequencySketch#maxEstimate()}), so the true count may be larger. An answer
 * is printed with a mark after the number; adds that leave an item saturated are followed by one line
 * on standard error that names the first such item and the option that counts further (the other
 * items' answers carry the mark).
 */
final class Saturation {

    private final Path file;
    private final FrequencySketch sketch;
    private final String create;
    private String first;

    /**
     * Watches the adds to one sketch.
     *
     * @param create the verb that creates such a sketch, named in the advice ({@code "cms create"})
     */
    Saturation(Path file, FrequencySketch sketch, String create) {
        this.file = file;
        this.sketch = sketch;
        this.create = create;
    }

    /** An estimate as the verbs print it: the number, then {@code (saturated: 32-bit counters)} if saturated. */
    static String text(FrequencySketch sketch, long estimate) {
        return isSaturated(sketch, estimate)
                ? estimate + " (saturated: " + sketch.counterBits() + "-bit counters)"
                : Long.toString(estimate);
    }

    /**
     * Prints the estimate of each item of {@code input} ({@link #text}), one line each, for the verbs that
     * query a frequency sketch ({@code cms query}, {@code topk count}).
     */
    static void printEstimates(FrequencySketch sketch, FileAndItems input, CommandIo io) {
        PrintWriter out = io.out();
        input.each(
                io.forAnswers(),
                (bytes, offset, length) -> out.println(text(sketch, sketch.estimate(bytes, offset, length))));
    }

    static boolean isSaturated(FrequencySketch sketch, long estimate) {
        return estimate == sketch.maxEstimate();
    }

    /** Notes an item's estimate right after its add. */
    void added(String item, long estimate) {
        if (first == null && isSaturated(sketch, estimate)) {
            first = item;
        }
    }

    /** Notes an item of bytes' estimate right after its add. */
    void added(byte[] bytes, int offset, int length, long estimate) {
        if (first == null && isSaturated(sketch, estimate)) {
            first = new String(bytes, offset, length, StandardCharsets.UTF_8);
        }
    }

    /**
     * Notes an item just added whose estimate the add did not return. Cost: nothing until N reaches the
     * largest estimate or once an item was found, else an estimate.
     */
    void added(byte[] bytes, int offset, int length) {
        if (first == null && sketch.totalWeight() >= sketch.maxEstimate()) {
            added(bytes, offset, length, sketch.estimate(bytes, offset, length));
        }
    }

    /** Prints the one line of warning if an add left an item saturated. */
    void report(PrintWriter err) {
        if (first == null) {
            return;
        }
        String advice = sketch.counterBits() == Integer.SIZE
                ? "; to count past it, create the sketch with '" + create + " --counter-bits 64'"
                : "";
        err.println("mapsketch: " + file + ": the count of '" + first + "' is saturated at "
                + sketch.maxEstimate() + ", the largest of " + sketch.counterBits()
                + "-bit counters: its estimate may be below the truth" + advice);
    }
}
