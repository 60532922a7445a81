package io.mapsketch.jmh.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedSet;

/**
 * The scores of one benchmark class arranged as the tables and charts show them: by method, then
 * setting, then implementation, each in the order JMH ran them (settings by size).
 */
final class SuiteScores {

    private final Suite suite;
    private final List<Score> scores;

    SuiteScores(Suite suite, List<Score> scores) {
        this.suite = suite;
        this.scores = scores;
    }

    Suite suite() {
        return suite;
    }

    boolean isEmpty() {
        return scores.isEmpty();
    }

    /** Whether the scores are times (lower is better) rather than throughputs. */
    boolean timed() {
        return !scores.isEmpty() && !scores.getFirst().higherIsBetter();
    }

    SequencedSet<String> methods() {
        return distinct(scores.stream().map(Score::method).toList());
    }

    SequencedSet<String> impls(String method) {
        return distinct(ofMethod(method).stream().map(Score::impl).toList());
    }

    /** The settings of a method, smallest first where the parameter values are numbers. */
    List<Map<String, String>> settings(String method) {
        List<Map<String, String>> settings = new ArrayList<>(
                distinct(ofMethod(method).stream().map(Score::setting).toList()));
        settings.sort(Comparator.comparing(SuiteScores::numericKey));
        return settings;
    }

    private static String numericKey(Map<String, String> setting) {
        StringBuilder key = new StringBuilder();
        for (String value : setting.values()) {
            key.append(value.matches("\\d{1,19}") ? "%019d".formatted(Long.parseLong(value)) : "~")
                    .append('/');
        }
        return key.toString();
    }

    Optional<Score> score(String method, String impl, Map<String, String> setting) {
        return scores.stream()
                .filter(s -> s.method().equals(method)
                        && s.impl().equals(impl)
                        && s.setting().equals(setting))
                .findFirst();
    }

    /**
     * What a row is compared with at a setting: the suite's baseline implementation, or the best peer.
     *
     * @return the baseline's score, or empty if it did not run (or no peer did)
     */
    Optional<Score> baseline(String method, Map<String, String> setting) {
        List<Score> candidates = ofMethod(method).stream()
                .filter(s -> s.setting().equals(setting))
                .filter(s ->
                        suite.baseline() == null ? !s.isMapsketch() : s.impl().equals(suite.baseline()))
                .toList();
        return ResultSet.best(candidates);
    }

    /** The best of mapsketch's implementations at a setting. */
    Optional<Score> bestMapsketch(String method, Map<String, String> setting) {
        return ResultSet.best(ofMethod(method).stream()
                .filter(s -> s.setting().equals(setting) && s.isMapsketch())
                .toList());
    }

    /** Bytes per second of a score when the suite's operations each cover {@code size} bytes. */
    double bytesPerSecond(Score score) {
        return score.value() * Long.parseLong(score.setting().get("size"));
    }

    private List<Score> ofMethod(String method) {
        return scores.stream().filter(s -> s.method().equals(method)).toList();
    }

    private static <T> SequencedSet<T> distinct(List<T> values) {
        return new LinkedHashSet<>(values);
    }
}
