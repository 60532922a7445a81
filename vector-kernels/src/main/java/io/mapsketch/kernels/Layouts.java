package io.mapsketch.kernels;

import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The element layouts of every kernel: little-endian (the file format's order) and unaligned, so
 * that a slice may start at any byte offset. On x86 and AArch64 both cost nothing.
 */
final class Layouts {

    /** Byte order of every multi-byte element. */
    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    /** A 64-bit word at any byte offset. */
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ORDER);
    /** A 32-bit counter at any byte offset. */
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ORDER);
    /** A byte register. */
    static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;

    private Layouts() {}
}
