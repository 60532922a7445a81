package io.mapsketch.kernels;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Argument checks of the public facades. Each failure names the parameter, its value and the valid
 * range; the kernels behind the facades check nothing.
 */
final class Checks {

    private Checks() {}

    /**
     * Checks that {@code count} elements of {@code elementBytes} bytes starting at byte
     * {@code offset} lie inside {@code segment}.
     *
     * @return the slice length in bytes
     */
    static long slice(
            String segmentName,
            MemorySegment segment,
            String offsetName,
            long offset,
            String countName,
            long count,
            int elementBytes) {
        Objects.requireNonNull(segment, segmentName);
        if (count < 0) {
            throw new IllegalArgumentException(countName + " = " + count + ", must be >= 0");
        }
        if (count > Long.MAX_VALUE / elementBytes) {
            throw new IllegalArgumentException(countName + " = " + count + " is too large: at " + elementBytes
                    + " bytes each it must be <= " + Long.MAX_VALUE / elementBytes);
        }
        long bytes = count * elementBytes;
        long size = segment.byteSize();
        if (offset < 0 || bytes > size || offset > size - bytes) {
            throw new IndexOutOfBoundsException(offsetName + " = " + offset + " with " + countName + " = " + count
                    + " (" + bytes + " bytes) is out of bounds for " + segmentName + " of " + size + " bytes: "
                    + (bytes > size
                            ? "the slice is longer than the segment"
                            : "need 0 <= " + offsetName + " <= " + (size - bytes)));
        }
        return bytes;
    }

    /** Checks that a segment the kernel writes is not read-only. */
    static void writable(String segmentName, MemorySegment segment) {
        if (segment.isReadOnly()) {
            throw new IllegalArgumentException(segmentName + " is read-only, but this kernel writes to it");
        }
    }

    /** Checks that {@code count} elements from index {@code from} lie inside an array. */
    static void arrayRange(String arrayName, int length, String fromName, int from, String countName, int count) {
        if (count < 0) {
            throw new IllegalArgumentException(countName + " = " + count + ", must be >= 0");
        }
        if (from < 0 || count > length || from > length - count) {
            throw new IndexOutOfBoundsException(fromName + " = " + from + " with " + countName + " = " + count
                    + " is out of bounds for " + arrayName + " of length " + length + ": "
                    + (count > length
                            ? "need " + countName + " <= " + length
                            : "need 0 <= " + fromName + " <= " + (length - count)));
        }
    }
}
