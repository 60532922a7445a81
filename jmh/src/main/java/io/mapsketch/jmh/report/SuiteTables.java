package io.mapsketch.jmh.report;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Markdown tables of one benchmark class: one per method, one row per implementation, for each
 * setting the score with JMH's error and the ratio to the baseline (the best peer, or the scalar
 * kernel).
 */
final class SuiteTables {

    private SuiteTables() {}

    static String render(SuiteScores scores) {
        StringBuilder out = new StringBuilder();
        for (String method : scores.methods()) {
            List<Map<String, String>> settings = scores.settings(method);
            Optional<Score> any = settings.stream()
                    .flatMap(s -> scores.impls(method).stream().flatMap(i -> scores.score(method, i, s).stream()))
                    .findFirst();
            String unit = any.map(Score::unit).orElse("");
            out.append("**`")
                    .append(method)
                    .append("`** (")
                    .append(unitInWords(unit, scores.suite()))
                    .append(")\n\n| implementation |");
            for (Map<String, String> setting : settings) {
                out.append(' ')
                        .append(Format.setting(setting))
                        .append(" | ")
                        .append(scores.suite().comparedWith())
                        .append(" |");
            }
            out.append("\n|---|").append("--:|--:|".repeat(settings.size())).append('\n');
            for (String impl : scores.impls(method)) {
                out.append("| ").append(impl).append(" |");
                for (Map<String, String> setting : settings) {
                    Optional<Score> score = scores.score(method, impl, setting);
                    out.append(' ')
                            .append(score.map(s -> cell(scores, s)).orElse("–"))
                            .append(" | ")
                            .append(score.flatMap(s -> ratio(scores, s)).orElse("–"))
                            .append(" |");
                }
                out.append('\n');
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static String unitInWords(String unit, Suite suite) {
        if (suite.bandwidth()) {
            return "operations per second, and the bytes each operation covers per second";
        }
        return switch (unit) {
            case "ops/s" -> "operations per second; for batches, keys per second";
            case "ms/op" -> "milliseconds per operation, lower is better";
            default -> unit;
        };
    }

    private static String cell(SuiteScores scores, Score score) {
        String cell = Format.score(score);
        if (scores.suite().bandwidth()) {
            cell += " (" + Format.rate(scores.bytesPerSecond(score)) + "B/s)";
        }
        return cell;
    }

    private static Optional<String> ratio(SuiteScores scores, Score score) {
        return scores.baseline(score.method(), score.setting())
                .map(baseline -> Format.ratio(score.advantageOver(baseline)));
    }
}
