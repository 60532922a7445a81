package io.mapsketch.jmh.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.io.Serial;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The size-sweep charts: nanoseconds per key against bytes of state, both on logarithmic axes, one
 * line per implementation (mapsketch's in blues, the peers in other colours) and the memory's two
 * floors as grey dashed lines, one panel per method, the panels one above the other in one PNG.
 */
final class SweepCharts {

    private static final int PANEL_HEIGHT = 420;
    private static final Color FLOOR = new Color(0x525252);
    private static final BasicStroke LINE = new BasicStroke(2f);
    private static final BasicStroke DEPENDENT =
            new BasicStroke(1.6f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {8f, 4f}, 0f);
    private static final BasicStroke INDEPENDENT =
            new BasicStroke(1.6f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {2f, 3f}, 0f);

    private SweepCharts() {}

    /**
     * One panel of a sweep: a method's points per implementation, and the floors.
     *
     * @param title the panel's title
     * @param series the implementations' points, in legend order
     * @param floors the dependent and the independent loads' points (either may be empty)
     */
    record Panel(String title, List<Named> series, List<Named> floors) {}

    /** A named line of points. */
    record Named(String name, List<SweepSeries.Point> points) {}

    /** Draws the panels into {@code file}; a panel without any point is left out. */
    static void write(List<Panel> panels, Path file) throws IOException {
        List<JFreeChart> charts = new ArrayList<>();
        for (Panel panel : panels) {
            if (panel.series().stream().anyMatch(n -> !n.points().isEmpty())) {
                charts.add(chart(panel));
            }
        }
        if (charts.isEmpty()) {
            return;
        }
        int[] heights = new int[charts.size()];
        Arrays.fill(heights, PANEL_HEIGHT);
        Charts.write(charts, heights, file);
    }

    private static JFreeChart chart(Panel panel) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        int ours = 0;
        int peers = 0;
        double low = Double.MAX_VALUE;
        double high = 0;
        long smallest = Long.MAX_VALUE;
        long largest = 0;
        List<Named> all = new ArrayList<>(panel.series());
        all.addAll(panel.floors());
        for (Named line : all) {
            if (line.points().isEmpty()) {
                continue;
            }
            XYSeries series = new XYSeries(line.name(), false, true);
            for (SweepSeries.Point point : line.points()) {
                series.add(point.bytes(), point.nanos());
                low = Math.min(low, point.nanos());
                high = Math.max(high, point.nanos());
                smallest = Math.min(smallest, point.bytes());
                largest = Math.max(largest, point.bytes());
            }
            int index = data.getSeriesCount();
            data.addSeries(series);
            boolean floor = panel.floors().contains(line);
            if (floor) {
                renderer.setSeriesPaint(index, FLOOR);
                renderer.setSeriesStroke(index, panel.floors().indexOf(line) == 0 ? DEPENDENT : INDEPENDENT);
                renderer.setSeriesShapesVisible(index, false);
            } else {
                boolean mapsketch = line.name().startsWith("mapsketch");
                renderer.setSeriesPaint(
                        index,
                        mapsketch
                                ? Charts.OURS[ours++ % Charts.OURS.length]
                                : Charts.PEERS[peers++ % Charts.PEERS.length]);
                renderer.setSeriesStroke(index, LINE);
            }
        }
        LogAxis size = new LogAxis("bytes of state (log scale)");
        size.setBase(2);
        size.setRange(Math.pow(2, Math.floor(log2(smallest)) - 0.5), Math.pow(2, Math.ceil(log2(largest)) + 0.5));
        size.setTickUnit(new NumberTickUnit(2));
        size.setNumberFormatOverride(new BytesFormat());
        size.setTickLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        LogAxis nanos = new LogAxis("nanoseconds per key (log scale), lower is better");
        nanos.setRange(Math.pow(10, Math.floor(Math.log10(low))), Math.pow(10, Math.ceil(Math.log10(high * 1.01))));
        nanos.setTickUnit(new NumberTickUnit(1));
        nanos.setNumberFormatOverride(new DecimalFormat("#,##0.###", DecimalFormatSymbols.getInstance(Locale.ROOT)));
        nanos.setMinorTickCount(9);
        nanos.setMinorTickMarksVisible(true);
        nanos.setTickLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        XYPlot plot = new XYPlot(data, size, nanos, renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xbdbdbd));
        plot.setRangeGridlinePaint(new Color(0xbdbdbd));
        JFreeChart chart = new JFreeChart(null, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.addSubtitle(new TextTitle(panel.title(), new Font(Font.SANS_SERIF, Font.BOLD, 14)));
        chart.setBackgroundPaint(Color.WHITE);
        chart.setPadding(new RectangleInsets(6, 6, 6, 28));
        return chart;
    }

    private static double log2(double value) {
        return Math.log(value) / Math.log(2);
    }

    /** Axis labels as byte sizes: 64 KiB, 2 GiB. */
    private static final class BytesFormat extends NumberFormat {

        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public StringBuffer format(double number, StringBuffer to, FieldPosition position) {
            return to.append(Format.bytes(Math.round(number)));
        }

        @Override
        public StringBuffer format(long number, StringBuffer to, FieldPosition position) {
            return to.append(Format.bytes(number));
        }

        /** Labels are written, never read back: every parse fails, as {@code NumberFormat} reports failure. */
        @Override
        public Number parse(String source, ParsePosition position) {
            position.setErrorIndex(position.getIndex());
            return null;
        }
    }
}
