package io.mapsketch.enginetesting;

import io.mapsketch.internal.RegionSketch;
import io.mapsketch.internal.SketchInternals;
import java.lang.foreign.ValueLayout;

/** The payload of a sketch as bytes, for tests that compare two sketches' contents bit for bit. */
public final class Payloads {

    private Payloads() {}

    /** A copy of the sketch's whole payload (registers, counters, bits: everything after the header page). */
    public static byte[] bytes(RegionSketch sketch) {
        return SketchInternals.payload(sketch).segment().toArray(ValueLayout.JAVA_BYTE);
    }
}
