package io.mapsketch.jmh.report;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A ratio the README quotes: one of mapsketch's scores against a peer's (or the best peer's) at one
 * setting of one benchmark.
 *
 * @param claim what the ratio says, in words
 * @param benchmark the benchmark class
 * @param method the method
 * @param setting the parameters other than {@code impl}
 * @param ours mapsketch's implementation
 * @param peer the peer's implementation, or {@code null} for the best peer at that setting
 */
record Headline(String claim, String benchmark, String method, Map<String, String> setting, String ours, String peer) {

    /** The three headline ratios: a lookup out of cache, a merge, a restart. */
    static List<Headline> all() {
        return List.of(
                new Headline(
                        "Blocked Bloom filter lookups at 50M keys (out of cache), against Guava",
                        "BloomBenchmark",
                        "mightContain",
                        Map.of("items", "50000000"),
                        "mapsketch-blocked",
                        "guava"),
                new Headline(
                        "HyperLogLog merge at p = 14, against the fastest peer",
                        "HyperLogLogBenchmark",
                        "merge",
                        Map.of("precision", "14"),
                        "mapsketch",
                        null),
                new Headline(
                        "Reopening a 1 GiB Bloom filter file (page cache warm) and answering a lookup, "
                                + "against Guava's `readFrom`",
                        "OpenBenchmark",
                        "openAndLookUp",
                        Map.of("cache", "warm", "size", "1073741824"),
                        "mapsketch-blocked",
                        "guava"));
    }

    /**
     * The measured ratio and the two scores it comes from.
     *
     * @param results the run's scores
     * @return {@code "12.3x (mapsketch-blocked 45.1 M ops/s, guava 3.67 M ops/s)"}, or empty if either
     *     score is missing from the run
     */
    Optional<String> measure(ResultSet results) {
        Optional<Score> mine = results.find(benchmark, method, ours, setting);
        Optional<Score> theirs = peer != null
                ? results.find(benchmark, method, peer, setting)
                : ResultSet.best(results.of(benchmark).stream()
                        .filter(s -> s.method().equals(method) && s.setting().equals(setting) && !s.isMapsketch())
                        .toList());
        if (mine.isEmpty() || theirs.isEmpty()) {
            return Optional.empty();
        }
        Score a = mine.get();
        Score b = theirs.get();
        return Optional.of("%s (%s %s %s, %s %s %s)"
                .formatted(
                        Format.ratio(a.advantageOver(b)),
                        a.impl(),
                        Format.score(a),
                        a.unit(),
                        b.impl(),
                        Format.score(b),
                        b.unit()));
    }
}
