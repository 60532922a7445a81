package io.mapsketch.jmh.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Drops the raw histograms ({@code rawDataHistogram}) that JMH writes into its JSON for every
 * {@code SampleTime} run, keeping the percentiles ({@code scorePercentiles}) the report reads: tens of
 * kilobytes per run that nothing renders. Run by the benchmark script on the latency suites' files.
 *
 * <p>Usage: {@code SampleHistograms FILE...}; each file is rewritten in place. Cost: one read and one
 * write of each file.
 */
public final class SampleHistograms {

    private SampleHistograms() {}

    /**
     * Rewrites each file without its raw histograms.
     *
     * @param args JMH JSON files ({@code -rf json})
     * @throws IOException if a file cannot be read, parsed or written
     */
    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            throw new IllegalArgumentException("usage: SampleHistograms FILE...; got " + List.of(args));
        }
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        for (String name : args) {
            JsonNode runs = json.readTree(Path.of(name).toFile());
            for (JsonNode run : runs) {
                if (run.path("primaryMetric") instanceof ObjectNode metric) {
                    metric.remove("rawDataHistogram");
                }
            }
            json.writeValue(Path.of(name).toFile(), runs);
        }
    }
}
