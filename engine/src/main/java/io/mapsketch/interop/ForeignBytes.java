package io.mapsketch.interop;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The bytes of one foreign sketch being read: big-endian fields at given offsets, each read checked
 * against the real length, and every fault a {@link ForeignSketchException} that names the source,
 * the format, the offset and what is wrong. Nothing is allocated from a length field before
 * {@link #requireLength} has matched it against the bytes that are really there.
 */
final class ForeignBytes {

    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private final String format;
    private final MemorySegment bytes;
    private final Path source;

    ForeignBytes(String format, MemorySegment bytes, Path source) {
        this.format = format;
        this.bytes = Objects.requireNonNull(bytes, "bytes");
        this.source = source;
    }

    /** Returns the number of bytes there are. */
    long size() {
        return bytes.byteSize();
    }

    /** Reads the byte of {@code field} at {@code offset}. */
    byte readByte(long offset, String field) throws ForeignSketchException {
        available(offset, Byte.BYTES, field);
        return bytes.get(ValueLayout.JAVA_BYTE, offset);
    }

    /** Reads the big-endian {@code int} of {@code field} at {@code offset}. */
    int readInt(long offset, String field) throws ForeignSketchException {
        available(offset, Integer.BYTES, field);
        return bytes.get(INT, offset);
    }

    /** Reads the big-endian {@code long} of {@code field} at {@code offset}. */
    long readLong(long offset, String field) throws ForeignSketchException {
        available(offset, Long.BYTES, field);
        return bytes.get(LONG, offset);
    }

    /**
     * Checks that there are exactly {@code expected} bytes, as the fields read so far declare: fewer
     * is a truncation (at the end of the bytes), more a tail that no field accounts for.
     */
    void requireLength(long expected, String declaredBy) throws ForeignSketchException {
        long size = bytes.byteSize();
        if (size < expected) {
            throw fault(size, "truncated: " + declaredBy + " take " + expected + " bytes, there are " + size);
        }
        if (size > expected) {
            throw fault(
                    expected,
                    (size - expected) + " bytes follow the " + expected + " bytes that " + declaredBy + " take");
        }
    }

    /** Reads {@code count} big-endian {@code long}s from {@code offset}; {@link #requireLength} came first. */
    ImmutableLongArray readLongs(long offset, int count) {
        long[] values = new long[count];
        for (int i = 0; i < count; i++) {
            values[i] = bytes.get(LONG, offset + (long) i * Long.BYTES);
        }
        return ImmutableLongArray.adopt(values);
    }

    /** Returns the exception for a fault at {@code offset}. */
    ForeignSketchException fault(long offset, String fault) {
        return new ForeignSketchException(format, source, offset, fault);
    }

    private void available(long offset, int width, String field) throws ForeignSketchException {
        long size = bytes.byteSize();
        if (offset + width > size) {
            throw fault(
                    size,
                    "truncated: " + field + " takes bytes " + offset + " to " + (offset + width - 1) + ", there are "
                            + size);
        }
    }
}
