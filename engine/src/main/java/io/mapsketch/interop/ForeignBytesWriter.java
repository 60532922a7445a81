package io.mapsketch.interop;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * Writes the big-endian fields of one foreign sketch in order, into a segment whose range the
 * caller has checked against the image's byte size.
 */
final class ForeignBytesWriter {

    private final MemorySegment target;
    private long position;

    private ForeignBytesWriter(MemorySegment target, long offset) {
        this.target = target;
        this.position = offset;
    }

    /**
     * Returns a writer at {@code offset} of {@code target}, after checking that {@code byteSize}
     * bytes fit there and that the segment is writable.
     */
    static ForeignBytesWriter at(MemorySegment target, long offset, long byteSize) {
        Objects.requireNonNull(target, "target");
        Objects.checkFromIndexSize(offset, byteSize, target.byteSize());
        if (target.isReadOnly()) {
            throw new IllegalArgumentException("target is read-only");
        }
        return new ForeignBytesWriter(target, offset);
    }

    /** Returns a new array of {@code byteSize} bytes, or throws if that is more than an array holds. */
    static byte[] newArray(long byteSize, String format) {
        if (byteSize > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("a " + format + " image of " + byteSize
                    + " bytes does not fit in a byte array: write it into a segment instead");
        }
        return new byte[(int) byteSize];
    }

    ForeignBytesWriter putByte(int value) {
        target.set(ValueLayout.JAVA_BYTE, position, (byte) value);
        position += Byte.BYTES;
        return this;
    }

    ForeignBytesWriter putInt(int value) {
        target.set(ForeignBytes.INT, position, value);
        position += Integer.BYTES;
        return this;
    }

    ForeignBytesWriter putLong(long value) {
        target.set(ForeignBytes.LONG, position, value);
        position += Long.BYTES;
        return this;
    }

    ForeignBytesWriter putLongs(ImmutableLongArray values) {
        for (int i = 0; i < values.length(); i++) {
            putLong(values.get(i));
        }
        return this;
    }
}
