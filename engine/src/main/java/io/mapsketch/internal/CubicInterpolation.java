package io.mapsketch.internal;

/**
 * Cubic (four-point Lagrange) interpolation through a table of x values, as DataSketches' HLL
 * estimators use it: the curve through the four table points around {@code x} (the first four or the
 * last four at the ends), either with a y table or with y values {@code i * yStride}.
 */
final class CubicInterpolation {

    private CubicInterpolation() {}

    /**
     * Interpolates {@code y(x)} from the tables.
     *
     * @param xs the x values, increasing, at least four
     * @param ys the y value of each x
     * @param x at least {@code xs[0]}, at most the last x
     * @return the interpolated y
     */
    static double withYTable(double[] xs, double[] ys, double x) {
        int last = xs.length - 1;
        if (x == xs[last]) {
            return ys[last];
        }
        int first = firstOfFour(xs, x);
        return lagrange(xs, first, ys[first], ys[first + 1], ys[first + 2], ys[first + 3], x);
    }

    /**
     * Interpolates {@code y(x)} where the i-th x value has y {@code i * yStride}.
     *
     * @param xs the x values, increasing, at least four
     * @param yStride the y step between consecutive x values
     * @param x at least {@code xs[0]}, at most the last x
     * @return the interpolated y
     */
    static double withYStride(double[] xs, double yStride, double x) {
        int last = xs.length - 1;
        if (x == xs[last]) {
            return yStride * last;
        }
        int first = firstOfFour(xs, x);
        return lagrange(
                xs, first, yStride * first, yStride * (first + 1), yStride * (first + 2), yStride * (first + 3), x);
    }

    /** The first of the four points: one before the interval holding x, clamped to the table. */
    private static int firstOfFour(double[] xs, double x) {
        int left = 0;
        int right = xs.length - 1;
        while (left + 1 < right) {
            int middle = left + (right - left) / 2;
            if (xs[middle] <= x) {
                left = middle;
            } else {
                right = middle;
            }
        }
        return Math.clamp(left - 1, 0, xs.length - 4);
    }

    private static double lagrange(double[] xs, int first, double y0, double y1, double y2, double y3, double x) {
        double x0 = xs[first];
        double x1 = xs[first + 1];
        double x2 = xs[first + 2];
        double x3 = xs[first + 3];
        double term0 = y0 * ((x - x1) * (x - x2) * (x - x3)) / ((x0 - x1) * (x0 - x2) * (x0 - x3));
        double term1 = y1 * ((x - x0) * (x - x2) * (x - x3)) / ((x1 - x0) * (x1 - x2) * (x1 - x3));
        double term2 = y2 * ((x - x0) * (x - x1) * (x - x3)) / ((x2 - x0) * (x2 - x1) * (x2 - x3));
        double term3 = y3 * ((x - x0) * (x - x1) * (x - x2)) / ((x3 - x0) * (x3 - x1) * (x3 - x2));
        return term0 + term1 + term2 + term3;
    }
}
