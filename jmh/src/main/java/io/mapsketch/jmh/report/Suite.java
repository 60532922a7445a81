package io.mapsketch.jmh.report;

import java.util.Locale;

/**
 * One benchmark class as the report presents it.
 *
 * @param benchmark the class's simple name, e.g. {@code BloomBenchmark}
 * @param title the heading, e.g. "Bloom filters"
 * @param summary what is measured and where a peer cannot be configured like mapsketch (Markdown)
 * @param baseline the implementation every row is compared with, or {@code null} for the best peer
 *     (the best score among implementations whose name does not start with {@code mapsketch})
 * @param bandwidth whether one operation covers {@code size} bytes, so that the table also shows
 *     bytes per second
 * @param cacheMethod the method whose in-cache and out-of-cache scores the cache chart sets side by
 *     side, or {@code null} if this class has no such pair of sizes
 */
record Suite(String benchmark, String title, String summary, String baseline, boolean bandwidth, String cacheMethod) {

    private static final String SOURCE = "../jmh/src/main/java/io/mapsketch/jmh/";

    /** The heading of the ratio column. */
    String comparedWith() {
        return baseline == null ? "vs best peer" : "vs " + baseline;
    }

    /** The chart's file name in the images folder, e.g. {@code bench-bloom.png}. */
    String chartFile() {
        return "bench-" + benchmark.replace("Benchmark", "").toLowerCase(Locale.ROOT) + ".png";
    }

    /** A Markdown link to the class's source, relative to a document in {@code docs/}. */
    String sourceLink() {
        return "[`" + benchmark + "`](" + SOURCE + benchmark + ".java)";
    }
}
