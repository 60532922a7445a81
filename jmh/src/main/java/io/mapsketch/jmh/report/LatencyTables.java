package io.mapsketch.jmh.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Markdown tables of one latency suite: per method and setting, the percentiles of every
 * implementation in nanoseconds and, for mapsketch's rows, each target met or missed with its figure;
 * then the targets summed up over the suite.
 *
 * <p>Targets: in cache, p99.9 at most {@value #TAIL_LIMIT}x p50; a concurrent writer JVM
 * ({@code -writer}) moves the reader's p99.9 by at most {@value #WRITER_LIMIT}x over the same
 * implementation without it; mapsketch's rows without a writer at or below every peer's at every
 * percentile.
 */
final class LatencyTables {

    /** The percentiles shown, as JMH keys them, and as the tables head them. */
    static final List<String> PERCENTILES = List.of("50.0", "99.0", "99.9", "99.99");

    static final double TAIL_LIMIT = 3.0;
    static final double WRITER_LIMIT = 1.5;

    private static final String WRITER_SUFFIX = "-writer";

    private LatencyTables() {}

    /** A target's outcome over a suite: the rows that meet it and the rows that miss it, with their figures. */
    private record Tally(String target, List<String> met, List<String> missed) {

        Tally(String target) {
            this(target, new ArrayList<>(), new ArrayList<>());
        }

        String verdict(boolean met, String row, String figure) {
            return verdict(met, row, figure, figure);
        }

        /** As {@link #verdict(boolean, String, String)}, with a shorter figure for the summary line. */
        String verdict(boolean met, String row, String figure, String summaryFigure) {
            (met ? this.met : missed).add(row + " " + summaryFigure);
            return (met ? "met" : "**missed**") + " (" + figure + ")";
        }

        String line() {
            int rows = met.size() + missed.size();
            if (rows == 0) {
                return "- " + target + ": not measured in this run\n";
            }
            return "- " + target + ": " + (missed.isEmpty() ? "**met**" : "**missed**") + " by "
                    + (missed.isEmpty()
                            ? "all " + rows + " rows"
                            : missed.size() + " of " + rows + " rows: " + String.join("; ", missed))
                    + '\n';
        }
    }

    static String render(LatencySuite suite, SuiteScores scores) {
        Tally tail = new Tally("p99.9 ≤ " + (int) TAIL_LIMIT + "x p50 in cache");
        Tally writer = new Tally("a writer JVM moves p99.9 by ≤ " + WRITER_LIMIT + "x");
        Tally peers = new Tally("at or below every peer at every percentile");
        StringBuilder out = new StringBuilder();
        for (String method : scores.methods()) {
            for (Map<String, String> setting : scores.settings(method)) {
                boolean inCache = setting.equals(suite.inCache());
                out.append("**`")
                        .append(method)
                        .append("`**, ")
                        .append(Format.setting(setting))
                        .append(inCache ? " (in cache)" : "")
                        .append(", nanoseconds per call\n\n| implementation |");
                PERCENTILES.forEach(p ->
                        out.append(" p").append(p.replaceFirst("\\.0$", "")).append(" |"));
                out.append(" p99.9 / p50 | writer's p99.9 / without | vs every peer |\n|---|")
                        .append("--:|".repeat(PERCENTILES.size()))
                        .append("---|---|---|\n");
                List<Score> rows = new ArrayList<>();
                scores.impls(method)
                        .forEach(impl -> scores.score(method, impl, setting).ifPresent(rows::add));
                List<Score> peerRows =
                        rows.stream().filter(s -> !s.isMapsketch()).toList();
                for (Score row : rows) {
                    String name = method + " " + row.impl();
                    out.append("| ").append(row.impl()).append(" |");
                    PERCENTILES.forEach(p -> out.append(' ')
                            .append(Format.nanos(row.percentile(p)))
                            .append(" |"));
                    double spread = row.percentile("99.9") / row.percentile("50.0");
                    out.append(' ')
                            .append(
                                    row.isMapsketch() && inCache
                                            ? tail.verdict(spread <= TAIL_LIMIT, name, Format.ratio(spread))
                                            : Format.ratio(spread))
                            .append(" | ")
                            .append(writerCell(row, rows, writer, name))
                            .append(" | ")
                            .append(peerCell(row, peerRows, peers, name))
                            .append(" |\n");
                }
                out.append('\n');
            }
        }
        out.append("Targets:\n\n")
                .append(tail.line())
                .append(writer.line())
                .append(peers.line())
                .append('\n');
        return out.toString();
    }

    private static String writerCell(Score row, List<Score> rows, Tally writer, String name) {
        if (!row.impl().endsWith(WRITER_SUFFIX)) {
            return "–";
        }
        String alone = row.impl().substring(0, row.impl().length() - WRITER_SUFFIX.length());
        return rows.stream()
                .filter(s -> s.impl().equals(alone))
                .findFirst()
                .map(without -> {
                    double moved = row.percentile("99.9") / without.percentile("99.9");
                    return writer.verdict(moved <= WRITER_LIMIT, name, Format.ratio(moved));
                })
                .orElse("– (" + alone + " not measured)");
    }

    private static String peerCell(Score row, List<Score> peerRows, Tally peers, String name) {
        if (!row.isMapsketch() || row.impl().endsWith(WRITER_SUFFIX) || peerRows.isEmpty()) {
            return "–";
        }
        List<String> behind = new ArrayList<>();
        double worst = 0;
        for (String p : PERCENTILES) {
            Score best = peerRows.stream()
                    .min(Comparator.comparingDouble(s -> s.percentile(p)))
                    .orElseThrow();
            double ratio = row.percentile(p) / best.percentile(p);
            worst = Math.max(worst, ratio);
            if (ratio > 1) {
                behind.add("p" + p.replaceFirst("\\.0$", "") + " " + Format.nanos(row.percentile(p)) + " vs "
                        + Format.nanos(best.percentile(p)) + " " + best.impl());
            }
        }
        return peers.verdict(
                behind.isEmpty(),
                name,
                behind.isEmpty() ? "at most " + Format.ratio(worst) + " the best peer" : String.join(", ", behind),
                "(behind at " + behind.size() + " of " + PERCENTILES.size() + " percentiles, by up to "
                        + Format.ratio(worst) + ")");
    }

    /**
     * The line on the timer floor under every percentile, from {@code TimerFloorBenchmark}'s empty call.
     *
     * @param floor its score, if it ran
     * @return the Markdown line
     */
    static String floorLine(Optional<Score> floor) {
        return floor.map(score -> {
                    StringBuilder line =
                            new StringBuilder("The floor under every figure, an empty call timed the same way (`"
                                    + LatencySuite.TIMER_FLOOR
                                    + "`: two `System.nanoTime()` reads and JMH's sampling):");
                    PERCENTILES.forEach(p -> line.append(" p")
                            .append(p.replaceFirst("\\.0$", ""))
                            .append(' ')
                            .append(Format.nanos(score.percentile(p)))
                            .append(" ns,"));
                    line.setLength(line.length() - 1);
                    return line.append(". Its own p99.9 is ")
                            .append(Format.ratio(score.percentile("99.9") / score.percentile("50.0")))
                            .append(" its p50: what the machine adds to any call, not the sketch.\n\n")
                            .toString();
                })
                .orElse("_The timer floor (`" + LatencySuite.TIMER_FLOOR + "`) was not measured in this run._\n\n");
    }
}
