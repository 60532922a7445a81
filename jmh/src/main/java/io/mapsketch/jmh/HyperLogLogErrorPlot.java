package io.mapsketch.jmh;

import com.dynatrace.hash4j.distinctcount.UltraLogLog;
import io.mapsketch.OpenMode;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.cardinality.HyperLogLogSizing;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Paint;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.text.DecimalFormat;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Draws {@code docs/img/hll-error.png}: the RMS relative error of distinct-count estimates against
 * the number of distinct keys, from 1 to 10^7 on a log scale, at precision 14 and 10, for mapsketch's
 * improved and classic estimators, DataSketches' {@code HllSketch} ({@code HLL_8}, lgK = p) and
 * hash4j's {@code HyperLogLog} and {@code UltraLogLog} of the same p, with the line
 * {@code 1.04 / sqrt(m)}. Not a JMH benchmark: a plain main in the benchmarks jar, run headless as
 * {@code java -Djava.awt.headless=true --add-modules jdk.incubator.vector -cp jmh/target/benchmarks.jar
 * io.mapsketch.jmh.HyperLogLogErrorPlot [output.png] [trials]}.
 *
 * <p>Each trial feeds every sketch the same stream of random 64-bit keys from its own seed (mapsketch
 * and DataSketches hash the key themselves; hash4j takes a hash, so it is given the key, itself a
 * uniform 64-bit value) and records every estimate at 36 cardinalities, five per decade. The seeds
 * are fixed, so the picture and the table printed on standard output are the same on every run.
 * With the default {@value #DEFAULT_TRIALS} trials the measured RMS is known to about
 * {@code 1 / sqrt(2 x 400)}, 3.5% of itself; the run takes about two minutes on two cores.
 */
public final class HyperLogLogErrorPlot {

    private static final int DEFAULT_TRIALS = 400;
    private static final String DEFAULT_OUTPUT = "docs/img/hll-error.png";
    private static final int[] PRECISIONS = {14, 10};
    private static final String[] NAMES = {
        "mapsketch improved (estimate)",
        "mapsketch classic (classicEstimate)",
        "DataSketches HLL_8",
        "hash4j HyperLogLog",
        "hash4j UltraLogLog"
    };
    private static final Paint[] COLOURS = {
        new Color(0xD62728), new Color(0xFF9896), new Color(0x1F77B4), new Color(0x2CA02C), new Color(0x9467BD)
    };
    /** Cardinalities 10^(i/5), rounded, for i = 0..35, as in the accuracy test. */
    private static final long[] CARDINALITIES = IntStream.rangeClosed(0, 35)
            .mapToLong(i -> Math.round(Math.pow(10, i / 5.0)))
            .distinct()
            .toArray();

    private static final int BATCH = 4096;

    private HyperLogLogErrorPlot() {}

    /**
     * Runs the sweep, prints the RMS table and writes the picture.
     *
     * @param args optional output file (default {@value #DEFAULT_OUTPUT}) and number of trials
     *     (default {@value #DEFAULT_TRIALS})
     * @throws IOException if the picture cannot be written
     */
    public static void main(String[] args) throws IOException {
        System.setProperty("java.awt.headless", "true");
        File output = new File(args.length > 0 ? args[0] : DEFAULT_OUTPUT);
        int trials = args.length > 1 ? Integer.parseInt(args[1]) : DEFAULT_TRIALS;
        ValueAxis xAxis = logAxis();
        CombinedDomainXYPlot plot = new CombinedDomainXYPlot(xAxis);
        plot.setGap(12);
        for (int precision : PRECISIONS) {
            double[][] rms = sweep(precision, trials);
            print(precision, trials, rms);
            plot.add(subplot(precision, rms), 1);
        }
        plot.setFixedLegendItems(plot.getSubplots().getFirst().getLegendItems());
        JFreeChart chart = new JFreeChart(
                "HyperLogLog: RMS relative error over " + trials + " seeded trials per point",
                JFreeChart.DEFAULT_TITLE_FONT,
                plot,
                true);
        chart.setBackgroundPaint(Color.WHITE);
        File parent = output.getAbsoluteFile().getParentFile();
        if (!parent.isDirectory() && !parent.mkdirs()) {
            throw new IOException("cannot create the folder of " + output);
        }
        ChartUtils.saveChartAsPNG(output, chart, 1000, 1000);
        System.out.println("wrote " + output);
    }

    /** Returns {@code rms[estimator][cardinality]}, relative, over all trials. */
    private static double[][] sweep(int precision, int trials) {
        long[] seeds = new SplittableRandom(2017 + precision).longs(trials).toArray();
        List<double[][]> errors = IntStream.range(0, trials)
                .parallel()
                .mapToObj(t -> trial(precision, seeds[t]))
                .toList();
        double[][] rms = new double[NAMES.length][CARDINALITIES.length];
        for (double[][] trial : errors) {
            for (int e = 0; e < NAMES.length; e++) {
                for (int c = 0; c < CARDINALITIES.length; c++) {
                    rms[e][c] += trial[e][c] * trial[e][c] / trials;
                }
            }
        }
        for (double[] row : rms) {
            for (int c = 0; c < row.length; c++) {
                row[c] = Math.sqrt(row[c]);
            }
        }
        return rms;
    }

    /** One stream of random keys into every sketch: {@code error[estimator][cardinality]}, relative. */
    private static double[][] trial(int precision, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[][] error = new double[NAMES.length][CARDINALITIES.length];
        HllSketch dataSketches = new HllSketch(precision, TgtHllType.HLL_8);
        com.dynatrace.hash4j.distinctcount.HyperLogLog hash4j =
                com.dynatrace.hash4j.distinctcount.HyperLogLog.create(precision);
        UltraLogLog ultra = UltraLogLog.create(precision);
        try (HyperLogLog ours =
                HyperLogLog.builder().precision(precision).seed(seed).createAnonymous(OpenMode.EXCLUSIVE)) {
            long[] keys = new long[BATCH];
            long added = 0;
            for (int c = 0; c < CARDINALITIES.length; c++) {
                long n = CARDINALITIES[c];
                while (added < n) {
                    int count = (int) Math.min(BATCH, n - added);
                    long[] batch = count == BATCH ? keys : new long[count];
                    for (int i = 0; i < count; i++) {
                        long key = random.nextLong();
                        batch[i] = key;
                        dataSketches.update(key);
                        hash4j.add(key);
                        ultra.add(key);
                    }
                    ours.addAll(batch);
                    added += count;
                }
                double[] estimates = {
                    ours.estimate(),
                    ours.classicEstimate(),
                    dataSketches.getEstimate(),
                    hash4j.getDistinctCountEstimate(),
                    ultra.getDistinctCountEstimate()
                };
                for (int e = 0; e < NAMES.length; e++) {
                    error[e][c] = estimates[e] / n - 1;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return error;
    }

    private static void print(int precision, int trials, double[][] rms) {
        double bound = HyperLogLogSizing.relativeStandardError(precision);
        System.out.printf(
                Locale.ROOT,
                "%np = %d, %d trials, 1.04/sqrt(m) = %.4f%%: RMS relative error %%%n",
                precision,
                trials,
                100 * bound);
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%12s", "n"));
        for (String name : NAMES) {
            header.append(String.format(Locale.ROOT, " | %s", name));
        }
        System.out.println(header);
        for (int c = 0; c < CARDINALITIES.length; c++) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%12d", CARDINALITIES[c]));
            for (int e = 0; e < NAMES.length; e++) {
                row.append(String.format(Locale.ROOT, " | %.4f", 100 * rms[e][c]));
            }
            System.out.println(row);
        }
        StringBuilder worst = new StringBuilder("largest RMS %:");
        for (int e = 0; e < NAMES.length; e++) {
            int at = 0;
            for (int c = 1; c < CARDINALITIES.length; c++) {
                at = rms[e][c] > rms[e][at] ? c : at;
            }
            worst.append(
                    String.format(Locale.ROOT, " %s %.3f at n = %d;", NAMES[e], 100 * rms[e][at], CARDINALITIES[at]));
        }
        System.out.println(worst);
    }

    private static ValueAxis logAxis() {
        LogAxis axis = new LogAxis("distinct keys n (log scale)");
        axis.setBase(10);
        axis.setSmallestValue(1);
        axis.setRange(0.8, 1.3e7);
        axis.setNumberFormatOverride(new DecimalFormat("0.#E0"));
        return axis;
    }

    private static XYPlot subplot(int precision, double[][] rms) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        for (int e = 0; e < NAMES.length; e++) {
            XYSeries series = new XYSeries(NAMES[e]);
            for (int c = 0; c < CARDINALITIES.length; c++) {
                series.add(CARDINALITIES[c], 100 * rms[e][c]);
            }
            data.addSeries(series);
            renderer.setSeriesPaint(e, COLOURS[e]);
            renderer.setSeriesStroke(e, new BasicStroke(1.6f));
        }
        double bound = 100 * HyperLogLogSizing.relativeStandardError(precision);
        XYSeries line = new XYSeries("1.04 / sqrt(m)");
        line.add(CARDINALITIES[0], bound);
        line.add(CARDINALITIES[CARDINALITIES.length - 1], bound);
        data.addSeries(line);
        renderer.setSeriesPaint(NAMES.length, Color.BLACK);
        renderer.setSeriesShapesVisible(NAMES.length, false);
        renderer.setSeriesStroke(
                NAMES.length,
                new BasicStroke(1.4f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        NumberAxis yAxis = new NumberAxis("RMS relative error (%), p = " + precision + ", m = " + (1 << precision));
        double highest = 0;
        for (double[] row : rms) {
            for (double value : row) {
                highest = Math.max(highest, 100 * value);
            }
        }
        yAxis.setRange(0, Math.max(1.6 * bound, 1.05 * highest));
        XYPlot plot = new XYPlot(data, null, yAxis, renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        return plot;
    }
}
