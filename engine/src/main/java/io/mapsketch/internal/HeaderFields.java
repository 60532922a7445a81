package io.mapsketch.internal;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.memory.SketchRegion;

/**
 * Reads a sketch file's header parameters on open and refuses, with {@link CorruptSketchFileException}
 * naming the file, the field, its value and the range, any that its kind cannot hold.
 */
public final class HeaderFields {

    private HeaderFields() {
    }

    /** Reads a header parameter and refuses the file if it is outside [min, max]. */
    public static long parameter(SketchRegion region, int index, String name, long min, long max)
            throws CorruptSketchFileException {
        long value = region.header().parameter(index);
        if (value < min || value > max) {
            throw new CorruptSketchFileException(region.file().orElse(null), "header parameter '" + name
                    + "' (index " + index + ") is " + value + ", expected a value in [" + min + ", " + max + "]");
        }
        return value;
    }

    /** Reads a header parameter stored as a double's bits and refuses it outside the open interval (min, max). */
    public static double openIntervalParameter(SketchRegion region, int index, String name, double min, double max)
            throws CorruptSketchFileException {
        double value = Double.longBitsToDouble(region.header().parameter(index));
        if (!(value > min && value < max)) {
            throw new CorruptSketchFileException(region.file().orElse(null), "header parameter '" + name
                    + "' (index " + index + ") is " + value + ", expected a value in (" + min + ", " + max + ")");
        }
        return value;
    }

    /** Refuses the file if the payload is not the size its parameters imply. */
    public static void requirePayload(SketchRegion region, long expectedBytes, String derivation)
            throws CorruptSketchFileException {
        long actual = region.header().payloadLength();
        if (actual != expectedBytes) {
            throw new CorruptSketchFileException(region.file().orElse(null), "payload length is " + actual
                    + " bytes, expected " + expectedBytes + " (" + derivation + ")");
        }
    }
}
