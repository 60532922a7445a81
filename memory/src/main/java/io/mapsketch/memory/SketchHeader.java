package io.mapsketch.memory;

import java.util.Arrays;
import java.util.Objects;

/**
 * The immutable part of a sketch file's header: what the payload is and how to read it. The
 * live counters are read from the {@link SketchRegion}, not from here.
 *
 * @param kindId the id of the sketch kind, which the engine defines (its {@code SketchKind}); this module
 *     stores it and leaves its meaning to the opener ({@link SketchRegions.KindCheck})
 * @param hashScheme the hash function the sketch's positions come from
 * @param hashSeed the seed of that hash function
 * @param parameters the kind-specific parameters, exactly {@value SketchFileLayout#PARAMETER_COUNT}
 *     of them (unused ones zero); the array is copied in and out
 * @param payloadOffset where the payload starts in the file, a multiple of 64, at least 4096
 * @param payloadLength the payload's size in bytes
 * @param createdMillis creation time, milliseconds since the epoch
 * @param formatVersion the file format version, from {@value SketchFileLayout#FIRST_FORMAT_VERSION} to
 *     {@value SketchFileLayout#FORMAT_VERSION}; from {@value SketchFileLayout#SUMMARY_LINE_VERSION} on
 *     the header has a summary line, from {@value SketchFileLayout#PAYLOAD_CHECKSUM_VERSION} on a checksum of
 *     the payload
 */
public record SketchHeader(
        int kindId,
        HashScheme hashScheme,
        long hashSeed,
        long[] parameters,
        long payloadOffset,
        long payloadLength,
        long createdMillis,
        int formatVersion) {

    /** Largest payload: the file must stay addressable by a single mapping. */
    public static final long MAX_PAYLOAD_LENGTH = Long.MAX_VALUE - SketchFileLayout.HEADER_LENGTH;

    /**
     * Validates and copies the fields.
     *
     * @throws IllegalArgumentException naming the field, its value and the valid range
     * @throws NullPointerException if hashScheme or parameters is null
     */
    public SketchHeader {
        Objects.requireNonNull(hashScheme, "hashScheme");
        Objects.requireNonNull(parameters, "parameters");
        if (parameters.length != SketchFileLayout.PARAMETER_COUNT) {
            throw new IllegalArgumentException("parameters.length = " + parameters.length + ", must be exactly "
                    + SketchFileLayout.PARAMETER_COUNT);
        }
        if (payloadOffset < SketchFileLayout.HEADER_LENGTH || payloadOffset % SketchFileLayout.CACHE_LINE != 0) {
            throw new IllegalArgumentException("payloadOffset = " + payloadOffset + ", must be a multiple of "
                    + SketchFileLayout.CACHE_LINE + " and at least " + SketchFileLayout.HEADER_LENGTH);
        }
        if (payloadLength < 0 || payloadLength > Long.MAX_VALUE - payloadOffset) {
            throw new IllegalArgumentException(
                    "payloadLength = " + payloadLength + ", must be in [0, " + (Long.MAX_VALUE - payloadOffset) + "]");
        }
        if (formatVersion < SketchFileLayout.FIRST_FORMAT_VERSION || formatVersion > SketchFileLayout.FORMAT_VERSION) {
            throw new IllegalArgumentException("formatVersion = " + formatVersion + ", must be in ["
                    + SketchFileLayout.FIRST_FORMAT_VERSION + ", " + SketchFileLayout.FORMAT_VERSION + "]");
        }
        parameters = parameters.clone();
    }

    /**
     * A header for a new sketch of format version {@value SketchFileLayout#FIRST_FORMAT_VERSION}: the
     * payload right after the header page, created now.
     *
     * @param kindId the id of the sketch kind
     * @param hashScheme the hash function
     * @param hashSeed its seed
     * @param parameters kind-specific parameters, at most 16 (the rest are zero)
     * @param payloadLength the payload's size in bytes, non-negative
     * @return the header
     * @throws IllegalArgumentException if there are more than 16 parameters or the length is negative
     */
    public static SketchHeader forNewSketch(
            int kindId, HashScheme hashScheme, long hashSeed, long[] parameters, long payloadLength) {
        if (parameters.length > SketchFileLayout.PARAMETER_COUNT) {
            throw new IllegalArgumentException("parameters.length = " + parameters.length + ", must be in [0, "
                    + SketchFileLayout.PARAMETER_COUNT + "]");
        }
        return new SketchHeader(
                kindId,
                hashScheme,
                hashSeed,
                Arrays.copyOf(parameters, SketchFileLayout.PARAMETER_COUNT),
                SketchFileLayout.HEADER_LENGTH,
                payloadLength,
                System.currentTimeMillis(),
                SketchFileLayout.FIRST_FORMAT_VERSION);
    }

    /**
     * Returns this header for a file of another format version; sketch builders create every kind at
     * {@value SketchFileLayout#FORMAT_VERSION}.
     *
     * @param version the format version, in [{@value SketchFileLayout#FIRST_FORMAT_VERSION},
     *     {@value SketchFileLayout#FORMAT_VERSION}]
     * @return a header equal to this one but for its format version
     * @throws IllegalArgumentException if the version is out of range
     */
    public SketchHeader withFormatVersion(int version) {
        return new SketchHeader(
                kindId, hashScheme, hashSeed, parameters, payloadOffset, payloadLength, createdMillis, version);
    }

    /**
     * Tells whether the header has a summary line ({@link SketchFileLayout#SUMMARY_OFFSET}).
     *
     * @return {@code true} from format version {@value SketchFileLayout#SUMMARY_LINE_VERSION} on
     */
    public boolean hasSummaryLine() {
        return formatVersion >= SketchFileLayout.SUMMARY_LINE_VERSION;
    }

    /**
     * Returns a copy of the kind-specific parameters.
     *
     * @return a new array of {@value SketchFileLayout#PARAMETER_COUNT} values
     */
    @Override
    public long[] parameters() {
        return parameters.clone();
    }

    /**
     * Returns one kind-specific parameter without copying the array.
     *
     * @param index the parameter's index, in [0, 16)
     * @return its value
     * @throws IndexOutOfBoundsException if the index is out of range
     */
    public long parameter(int index) {
        return parameters[index];
    }

    /**
     * Returns the size of the whole file: header page plus payload.
     *
     * @return payload offset plus payload length, in bytes
     */
    public long fileLength() {
        return payloadOffset + payloadLength;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SketchHeader that
                && kindId == that.kindId
                && hashScheme == that.hashScheme
                && hashSeed == that.hashSeed
                && Arrays.equals(parameters, that.parameters)
                && payloadOffset == that.payloadOffset
                && payloadLength == that.payloadLength
                && createdMillis == that.createdMillis
                && formatVersion == that.formatVersion;
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                kindId,
                hashScheme,
                hashSeed,
                Arrays.hashCode(parameters),
                payloadOffset,
                payloadLength,
                createdMillis,
                formatVersion);
    }

    @Override
    public String toString() {
        return "SketchHeader[kindId=" + kindId + ", hashScheme=" + hashScheme + ", hashSeed=" + hashSeed
                + ", parameters=" + Arrays.toString(parameters) + ", payloadOffset=" + payloadOffset
                + ", payloadLength=" + payloadLength + ", createdMillis=" + createdMillis
                + ", formatVersion=" + formatVersion + "]";
    }
}
