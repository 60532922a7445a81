package io.mapsketch.jmh.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.Serial;
import java.nio.file.Path;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.AxisLocation;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * The report's charts, drawn with JFreeChart into PNG files: horizontal bars on a logarithmic axis,
 * since scores of one chart span several powers of ten. mapsketch's implementations are drawn in
 * blues, the peers in other colours.
 */
final class Charts {

    /** Every chart's width in pixels. */
    static final int WIDTH = 900;

    private static final int BAR_HEIGHT = 11;
    /** mapsketch's colours, in the order its implementations appear. */
    static final Color[] OURS = {
        new Color(0x08519c),
        new Color(0x3182bd),
        new Color(0x6baed6),
        new Color(0x9ecae1),
        new Color(0x2171b5),
        new Color(0xc6dbef)
    };
    /** The peers' colours, in the order they appear. */
    static final Color[] PEERS = {
        new Color(0xe6550d),
        new Color(0x31a354),
        new Color(0x756bb1),
        new Color(0x636363),
        new Color(0xfdae6b),
        new Color(0xa1d99b),
        new Color(0xbcbddc),
        new Color(0xd6616b)
    };

    private Charts() {}

    /**
     * Every score of a benchmark class: one group of bars per method and setting, one bar per
     * implementation; bytes per second for a bandwidth suite, the score otherwise.
     */
    static void suite(SuiteScores scores, Path file) throws IOException {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        List<String> series = new ArrayList<>();
        ToDoubleFunction<Score> value = scores.suite().bandwidth() ? scores::bytesPerSecond : Score::value;
        for (String method : scores.methods()) {
            for (Map<String, String> setting : scores.settings(method)) {
                String group = method + " · " + Format.setting(setting);
                for (String impl : scores.impls(method)) {
                    scores.score(method, impl, setting).ifPresent(s -> {
                        data.addValue(value.applyAsDouble(s), impl, group);
                        if (!series.contains(impl)) {
                            series.add(impl);
                        }
                    });
                }
            }
        }
        String unit = scores.suite().bandwidth() ? "bytes of each operand per second" : axisLabel(scores);
        write(List.of(chart(scores.suite().title(), unit, data, series)), file);
    }

    /**
     * For each class with a cache pair, one panel: its cache method's score per implementation, in the
     * smaller setting (in cache) and the larger (out of cache).
     */
    static void cache(List<SuiteScores> suites, Path file) throws IOException {
        List<JFreeChart> panels = new ArrayList<>();
        for (SuiteScores scores : suites) {
            String method = scores.suite().cacheMethod();
            if (method == null || scores.settings(method).size() < 2) {
                continue;
            }
            List<Map<String, String>> settings = scores.settings(method);
            DefaultCategoryDataset data = new DefaultCategoryDataset();
            List<String> series = List.of(
                    "in cache: " + Format.setting(settings.getFirst()),
                    "out of cache: " + Format.setting(settings.getLast()));
            for (String impl : scores.impls(method)) {
                scores.score(method, impl, settings.getFirst())
                        .ifPresent(s -> data.addValue(s.value(), series.get(0), impl));
                scores.score(method, impl, settings.getLast())
                        .ifPresent(s -> data.addValue(s.value(), series.get(1), impl));
            }
            JFreeChart chart = chart(scores.suite().title() + ": " + method, axisLabel(scores), data, List.of());
            BarRenderer renderer = (BarRenderer) chart.getCategoryPlot().getRenderer();
            renderer.setSeriesPaint(0, OURS[2]);
            renderer.setSeriesPaint(1, OURS[0]);
            panels.add(chart);
        }
        if (!panels.isEmpty()) {
            write(panels, file);
        }
    }

    private static String axisLabel(SuiteScores scores) {
        return scores.timed()
                ? "milliseconds per open (log scale), shorter is better"
                : "operations per second (log scale); keys per second for batches";
    }

    private static JFreeChart chart(String title, String axis, DefaultCategoryDataset data, List<String> series) {
        double min = Double.MAX_VALUE;
        double max = 0;
        for (int r = 0; r < data.getRowCount(); r++) {
            for (int c = 0; c < data.getColumnCount(); c++) {
                Number v = data.getValue(r, c);
                if (v != null && v.doubleValue() > 0) {
                    min = Math.min(min, v.doubleValue());
                    max = Math.max(max, v.doubleValue());
                }
            }
        }
        double lower = Math.pow(10, Math.floor(Math.log10(min)));
        double upper = Math.pow(10, Math.ceil(Math.log10(max * 1.01)));
        LogAxis range = new LogAxis(axis);
        range.setRange(lower, upper);
        range.setTickUnit(new NumberTickUnit(1));
        range.setNumberFormatOverride(new SuffixFormat());
        range.setTickLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        range.setMinorTickCount(9);
        range.setMinorTickMarksVisible(true);
        BarRenderer renderer = new BarRenderer();
        renderer.setBase(lower);
        renderer.setBarPainter(new StandardBarPainter());
        renderer.setShadowVisible(false);
        renderer.setItemMargin(0.02);
        renderer.setDrawBarOutline(false);
        int ours = 0;
        int peers = 0;
        for (String name : series) {
            boolean mapsketch = name.startsWith("mapsketch") || name.equals("vector");
            renderer.setSeriesPaint(
                    data.getRowIndex(name), mapsketch ? OURS[ours++ % OURS.length] : PEERS[peers++ % PEERS.length]);
        }
        CategoryAxis domain = new CategoryAxis();
        domain.setTickLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        domain.setMaximumCategoryLabelWidthRatio(0.45f);
        CategoryPlot plot = new CategoryPlot(data, domain, range, renderer);
        plot.setOrientation(PlotOrientation.HORIZONTAL);
        plot.setRangeAxisLocation(AxisLocation.BOTTOM_OR_LEFT);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(new Color(0xbdbdbd));
        plot.setRangeGridlineStroke(new BasicStroke(0.6f));
        JFreeChart chart = new JFreeChart(null, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.addSubtitle(new TextTitle(title, new Font(Font.SANS_SERIF, Font.BOLD, 14)));
        chart.setBackgroundPaint(Color.WHITE);
        chart.setPadding(new RectangleInsets(6, 6, 6, 28));
        return chart;
    }

    /** Draws panels one above the other, each as tall as its bars need, into one PNG file. */
    private static void write(List<JFreeChart> panels, Path file) throws IOException {
        write(panels, panels.stream().mapToInt(Charts::height).toArray(), file);
    }

    /** Draws panels one above the other, each {@code heights[i]} pixels tall, into one PNG file. */
    static void write(List<JFreeChart> panels, int[] heights, Path file) throws IOException {
        BufferedImage image = new BufferedImage(WIDTH, Arrays.stream(heights).sum(), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        int y = 0;
        for (int i = 0; i < panels.size(); i++) {
            panels.get(i).draw(g, new Rectangle2D.Double(0, y, WIDTH, heights[i]));
            y += heights[i];
        }
        g.dispose();
        ImageIO.write(image, "png", file.toFile());
    }

    private static int height(JFreeChart chart) {
        DefaultCategoryDataset data =
                (DefaultCategoryDataset) chart.getCategoryPlot().getDataset();
        return 130 + data.getColumnCount() * (data.getRowCount() * BAR_HEIGHT + 12);
    }

    /** Axis labels as the tables write rates: 1 k, 10 M, 1 G. */
    private static final class SuffixFormat extends NumberFormat {

        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public StringBuffer format(double number, StringBuffer to, FieldPosition position) {
            return to.append(Format.rate(number).replaceFirst("\\.0+ ", " ").replaceFirst("\\.0+$", ""));
        }

        @Override
        public StringBuffer format(long number, StringBuffer to, FieldPosition position) {
            return format((double) number, to, position);
        }

        /** Labels are written, never read back: every parse fails, as {@code NumberFormat} reports failure. */
        @Override
        public Number parse(String source, ParsePosition position) {
            position.setErrorIndex(position.getIndex());
            return null;
        }
    }
}
