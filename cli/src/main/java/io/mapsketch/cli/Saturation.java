package io.mapsketch.cli;

import io.mapsketch.frequency.CountMinTable;
import io.mapsketch.frequency.FrequencySketch;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * How the frequency verbs say that an estimate is saturated: it reached the largest value its
 * counters hold ({@link FrequencySketch#maxEstimate()}), so the true count may be larger. An answer
 * is printed with a mark after the number; adds that leave an item saturated are followed by one line
 * on standard error that names the first such item and the option that counts further (the other
 * items' answers carry the mark).
 */
final class Saturation {

    /** The estimate of an item of bytes in the counters watched. */
    @FunctionalInterface
    interface Estimator {
        long estimate(byte[] bytes, int offset, int length);
    }

    private final Path file;
    private final int counterBits;
    private final long maxEstimate;
    private final LongSupplier totalWeight;
    private final Estimator estimator;
    private final String create;
    private String first;

    /**
     * Watches the adds to one sketch.
     *
     * @param create the verb that creates such a sketch, named in the advice ({@code "cms create"})
     */
    Saturation(Path file, FrequencySketch sketch, String create) {
        this(file, sketch.counterBits(), sketch.maxEstimate(), sketch::totalWeight, sketch::estimate, create);
    }

    /**
     * Watches the adds to one key's sketch of a Count-Min table.
     *
     * @param key the key's UTF-8 bytes
     * @param create the verb that creates such a table, named in the advice ({@code "table create"})
     */
    Saturation(Path file, CountMinTable table, byte[] key, String create) {
        this(
                file,
                table.counterBits(),
                table.maxEstimate(),
                table::totalWeight,
                (bytes, offset, length) -> table.estimate(key, 0, key.length, bytes, offset, length),
                create);
    }

    /**
     * Watches adds to many keys of a Count-Min table, each of which returns its estimate
     * ({@link #added(byte[], int, int, int, int, long)}).
     *
     * @param create the verb that creates such a table, named in the advice ({@code "table create"})
     */
    Saturation(Path file, CountMinTable table, String create) {
        this(file, table.counterBits(), table.maxEstimate(), table::totalWeight, null, create);
    }

    private Saturation(
            Path file,
            int counterBits,
            long maxEstimate,
            LongSupplier totalWeight,
            Estimator estimator,
            String create) {
        this.file = file;
        this.counterBits = counterBits;
        this.maxEstimate = maxEstimate;
        this.totalWeight = totalWeight;
        this.estimator = estimator;
        this.create = create;
    }

    /** An estimate as the verbs print it: the number, then {@code (saturated: 32-bit counters)} if saturated. */
    static String text(FrequencySketch sketch, long estimate) {
        return text(estimate, sketch.maxEstimate(), sketch.counterBits());
    }

    /** An estimate of counters of {@code counterBits} whose largest estimate is {@code maxEstimate}, as {@link #text(FrequencySketch, long)}. */
    static String text(long estimate, long maxEstimate, int counterBits) {
        return estimate == maxEstimate
                ? estimate + " (saturated: " + counterBits + "-bit counters)"
                : Long.toString(estimate);
    }

    /** An estimate of the watched counters, as {@link #text(FrequencySketch, long)}. */
    String text(long estimate) {
        return text(estimate, maxEstimate, counterBits);
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
        if (first == null && estimate == maxEstimate) {
            first = "'" + item + "'";
        }
    }

    /** Notes an item of bytes' estimate right after its add. */
    void added(byte[] bytes, int offset, int length, long estimate) {
        if (first == null && estimate == maxEstimate) {
            first = "'" + utf8(bytes, offset, length) + "'";
        }
    }

    /** Notes the estimate of a key's item, both in {@code data}, right after its add. */
    void added(byte[] data, int keyOffset, int keyLength, int itemOffset, int itemLength, long estimate) {
        if (first == null && estimate == maxEstimate) {
            first = "'" + utf8(data, itemOffset, itemLength) + "' of key '" + utf8(data, keyOffset, keyLength) + "'";
        }
    }

    private static String utf8(byte[] bytes, int offset, int length) {
        return new String(bytes, offset, length, StandardCharsets.UTF_8);
    }

    /**
     * Notes an item just added whose estimate the add did not return. Cost: nothing until N reaches the
     * largest estimate or once an item was found, else an estimate.
     */
    void added(byte[] bytes, int offset, int length) {
        if (first == null && totalWeight.getAsLong() >= maxEstimate) {
            added(bytes, offset, length, estimator.estimate(bytes, offset, length));
        }
    }

    /** Prints the one line of warning if an add left an item saturated. */
    void report(PrintWriter err) {
        if (first == null) {
            return;
        }
        String advice = counterBits == Integer.SIZE
                ? "; to count past it, create the sketch with '" + create + " --counter-bits 64'"
                : "";
        err.println("mapsketch: " + file + ": the count of " + first + " is saturated at "
                + maxEstimate + ", the largest of " + counterBits
                + "-bit counters: its estimate may be below the truth" + advice);
    }
}
