package io.mapsketch.internal;

import io.mapsketch.Sketch;
import io.mapsketch.memory.AtomicSegment;
import io.mapsketch.memory.SketchRegion;
import java.lang.foreign.MemorySegment;

/**
 * The parts under a sketch of this module, for the module's own tools and tests that inspect a
 * file's bytes: its region, its payload and its key hasher. The package is not exported.
 */
public final class SketchInternals {

    private SketchInternals() {}

    /** The region the sketch is stored in; the sketch must be one of this module's. */
    public static SketchRegion region(Sketch sketch) {
        return ((RegionSketch) sketch).region;
    }

    /** The sketch's payload: its region's payload, past the header. */
    public static AtomicSegment payload(Sketch sketch) {
        return ((RegionSketch) sketch).payload;
    }

    /** Settles the summary line of an image of the sketch ({@link RegionSketch#settleImageSummaryLine}). */
    public static void settleImageSummaryLine(Sketch sketch, MemorySegment line, MemorySegment payload) {
        ((RegionSketch) sketch).settleImageSummaryLine(line, payload);
    }

    /** The hasher the sketch hashes keys with, seeded from its header. */
    public static KeyHasher hasher(Sketch sketch) {
        return ((RegionSketch) sketch).hasher;
    }
}
