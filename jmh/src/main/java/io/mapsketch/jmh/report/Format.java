package io.mapsketch.jmh.report;

import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** How the report writes numbers: scores with their error, ratios, byte sizes and settings. */
final class Format {

    private Format() {}

    /** A throughput with a k, M or G suffix and three significant digits, e.g. {@code 45.1 M}. */
    static String rate(double perSecond) {
        if (perSecond >= 1e9) {
            return significant(perSecond / 1e9) + " G";
        }
        if (perSecond >= 1e6) {
            return significant(perSecond / 1e6) + " M";
        }
        if (perSecond >= 1e3) {
            return significant(perSecond / 1e3) + " k";
        }
        return significant(perSecond);
    }

    private static String significant(double value) {
        if (value >= 100) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        return String.format(Locale.ROOT, value >= 10 ? "%.1f" : "%.2f", value);
    }

    /**
     * A score and its error in the score's own scale, e.g. {@code 45.1 M ± 1.2 M} for ops/s or
     * {@code 0.21 ± 0.02} for a time; a score without an error (too few iterations) is written alone.
     */
    static String score(Score score) {
        boolean rate = score.higherIsBetter();
        String value = rate ? rate(score.value()) : significant(score.value());
        if (Double.isNaN(score.error())) {
            return value;
        }
        return value + " ± " + (rate ? rate(score.error()) : significant(score.error()));
    }

    /**
     * A ratio with about three significant digits, e.g. {@code 0.043x}, {@code 2.10x}, {@code 39.2x},
     * {@code 4,221x}.
     */
    static String ratio(double ratio) {
        String format = ratio < 0.1 ? "%.2gx" : ratio < 10 ? "%.2fx" : ratio < 100 ? "%.1fx" : "%,.0fx";
        return String.format(Locale.ROOT, format, ratio);
    }

    /** A time in nanoseconds: one decimal below 10, else whole with thousands separators, e.g. {@code 68,241}. */
    static String nanos(double nanos) {
        return String.format(Locale.ROOT, nanos < 10 ? "%.1f" : "%,.0f", nanos);
    }

    /** A byte count in binary units, e.g. {@code 53.1 KiB}, or plain bytes below 1 KiB. */
    static String bytes(long bytes) {
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        if (bytes < 1024) {
            return bytes + " B";
        }
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return (value == Math.rint(value) ? String.format(Locale.ROOT, "%.0f", value) : significant(value))
                + ' '
                + units[unit];
    }

    /** An integer with thousands separators, e.g. {@code 1,000,000}. */
    static String count(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }

    /**
     * A benchmark setting in words: {@code items=50000000} is "50,000,000 items", {@code size} a byte
     * size, {@code precision=14} "p = 14", {@code cache=cold} "cold cache"; parameters joined by commas;
     * "one setting" for a benchmark without parameters other than {@code impl}.
     */
    static String setting(Map<String, String> setting) {
        if (setting.isEmpty()) {
            return "one setting";
        }
        return setting.entrySet().stream()
                .map(e -> parameter(e.getKey(), e.getValue()))
                .collect(Collectors.joining(", "));
    }

    private static String parameter(String name, String value) {
        return switch (name) {
            case "items" -> count(Long.parseLong(value)) + " items";
            case "size" -> bytes(Long.parseLong(value));
            case "precision" -> "p = " + value;
            case "cache" -> value + " cache";
            default -> name + " = " + value;
        };
    }
}
