package io.mapsketch.internal;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.IncompatibleSketchFileException;
import io.mapsketch.memory.SketchHeader;
import io.mapsketch.memory.SketchRegion;
import java.nio.file.Path;

/**
 * Reads a sketch file's header parameters for the kind's format description, refusing, with a
 * {@link CorruptSketchFileException} naming the file, the parameter, its value and what it may
 * hold, any value the kind cannot hold.
 *
 * @param header the header, validated by the memory module as far as it knows the layout
 * @param file the file, for messages; {@code null} for an anonymous region
 */
public record HeaderReader(SketchHeader header, Path file) {

    /**
     * Returns the reader of a region's header.
     *
     * @param region the region opened or just created
     * @return its reader
     */
    public static HeaderReader of(SketchRegion region) {
        return new HeaderReader(region.header(), region.file().orElse(null));
    }

    /**
     * Returns the file's format version.
     *
     * @return the version the header records
     */
    public int version() {
        return header.formatVersion();
    }

    /**
     * Refuses a file of a version its kind's description does not read.
     *
     * @param versions the versions the kind reads
     * @throws IncompatibleSketchFileException if the version is outside them
     */
    public void requireVersion(FormatVersions versions) throws IncompatibleSketchFileException {
        if (!versions.reads(version())) {
            throw new IncompatibleSketchFileException(
                    file,
                    "header field 'format version' is " + version()
                            + ", expected " + versions.oldest() + ".." + versions.newest() + " for a "
                            + Regions.kind(header)
                            + " sketch; this build does not read that version of the kind");
        }
    }

    /**
     * Reads an integer parameter.
     *
     * @param parameter the parameter
     * @return its value, in its range and allowed
     * @throws CorruptSketchFileException if it is not
     */
    public long read(HeaderParameter.Ranged parameter) throws CorruptSketchFileException {
        long value = header.parameter(parameter.index());
        if (value < parameter.min() || value > parameter.max()) {
            throw refused(parameter, value, "a value in [" + parameter.min() + ", " + parameter.max() + "]");
        }
        if (!parameter.allowed().test(value)) {
            throw refused(parameter, value, parameter.expected());
        }
        return value;
    }

    /**
     * Reads a double parameter.
     *
     * @param parameter the parameter
     * @return its value, strictly inside its interval
     * @throws CorruptSketchFileException if it is not (NaN included)
     */
    public double read(HeaderParameter.Interval parameter) throws CorruptSketchFileException {
        double value = Double.longBitsToDouble(header.parameter(parameter.index()));
        if (!(value > parameter.above() && value < parameter.below())) {
            throw refused(parameter, value, "a value in (" + parameter.above() + ", " + parameter.below() + ")");
        }
        return value;
    }

    /**
     * Refuses the file if the payload is not the size its parameters imply.
     *
     * @param expectedBytes the size the parameters imply
     * @param derivation how they imply it, in words
     * @throws CorruptSketchFileException if the payload has another size
     */
    public void requirePayload(long expectedBytes, String derivation) throws CorruptSketchFileException {
        long actual = header.payloadLength();
        if (actual != expectedBytes) {
            throw corrupt(
                    "payload length is " + actual + " bytes, expected " + expectedBytes + " (" + derivation + ")");
        }
    }

    /**
     * Returns the refusal of this file for a fault its description found.
     *
     * @param message the fault
     * @return the exception, naming the file
     */
    public CorruptSketchFileException corrupt(String message) {
        return new CorruptSketchFileException(file, message);
    }

    private CorruptSketchFileException refused(HeaderParameter parameter, Object value, String expected) {
        return corrupt("header parameter '" + parameter.name() + "' (index " + parameter.index() + ") is " + value
                + ", expected " + expected);
    }
}
