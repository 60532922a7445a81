package io.mapsketch.cardinality;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.internal.SketchInternals;
import io.mapsketch.kernels.RegisterKernels;

/**
 * The summary line of a HyperLogLog as tests read and judge it: the registers' own summary, the
 * estimate a pass over them gives, and the line a reader trusts. In the family's package because it
 * reads the line and the estimator, which are not public.
 */
public final class SummaryLineChecks {

    private SummaryLineChecks() {}

    /** The summary of the sketch's registers by the kernel: {@code RegisterKernels.summary} with top 65 - p. */
    static long[] registerSummary(HyperLogLog sketch) {
        long[] summary = new long[RegisterKernels.SUMMARY_LENGTH];
        RegisterKernels.summary(
                SketchInternals.payload(sketch).segment(),
                0,
                sketch.registerCount(),
                HyperLogLogLayout.maxRank(sketch.precision()),
                summary);
        return summary;
    }

    /** The estimate of a pass over the registers, as a sketch without a summary line computes it. */
    public static double passEstimate(HyperLogLog sketch) {
        long[] summary = registerSummary(sketch);
        return HyperLogLogEstimator.improved(
                summary[RegisterKernels.ZEROS],
                summary[RegisterKernels.AT_TOP],
                summary[RegisterKernels.POWER_SUM],
                sketch.precision());
    }

    static HyperLogLogSummaryLine line(HyperLogLog sketch) {
        return new HyperLogLogSummaryLine(
                SketchInternals.region(sketch).summaryLine(),
                OpenMode.READ_ONLY,
                sketch.registerCount(),
                HyperLogLogLayout.maxRank(sketch.precision()),
                false);
    }

    /**
     * The numbers the sketch stands behind if they may be trusted now, else {@code null}: for an
     * {@code EXCLUSIVE} writer those it keeps in its own memory, for others the file's line as a reader
     * reads it.
     */
    static long[] trustedLine(HyperLogLog sketch) {
        long[] summary = new long[RegisterKernels.SUMMARY_LENGTH];
        boolean trusted =
                sketch.mode() == OpenMode.EXCLUSIVE ? sketch.readKept(summary) : fileLineIfTrusted(sketch, summary);
        return trusted ? summary : null;
    }

    /** Reads the file's line into {@code summary} as a reader does; returns whether a reader trusts it. */
    static boolean fileLineIfTrusted(HyperLogLog sketch, long[] summary) {
        return line(sketch).read(summary) != HyperLogLogSummaryLine.UNTRUSTED;
    }

    /** Asserts that the line is trusted, equals the registers' summary, and gives the pass's estimate. */
    static void assertLineIsRight(HyperLogLog sketch, String what) {
        long[] line = trustedLine(sketch);
        assertTrue(line != null, what + ": the line is not trusted");
        assertArrayEquals(registerSummary(sketch), line, what + ": line against registers");
        assertEquals(
                Double.doubleToLongBits(passEstimate(sketch)),
                Double.doubleToLongBits(sketch.estimate()),
                what + ": estimate against the pass");
    }
}
