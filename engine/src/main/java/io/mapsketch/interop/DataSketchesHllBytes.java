package io.mapsketch.interop;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * The bytes of one DataSketches HLL image being read: little-endian fields at absolute offsets, and the
 * faults that name the source, the offset and what is wrong. Shared by the preamble, coupon and
 * register readers.
 */
final class DataSketchesHllBytes {

    private final byte[] bytes;
    private final ByteBuffer littleEndian;
    private final Path file;

    DataSketchesHllBytes(byte[] bytes, Path file) {
        this.bytes = bytes;
        this.littleEndian = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        this.file = file;
    }

    int length() {
        return bytes.length;
    }

    int unsignedByte(int offset) {
        return bytes[offset] & 0xFF;
    }

    int intAt(int offset) {
        return littleEndian.getInt(offset);
    }

    double doubleAt(int offset) {
        return littleEndian.getDouble(offset);
    }

    /** Reads {@code count} 4-byte entries from {@code offset}, which the length check has covered. */
    int[] ints(int offset, int count) {
        int[] ints = new int[count];
        littleEndian
                .slice(offset, 4 * count)
                .order(ByteOrder.LITTLE_ENDIAN)
                .asIntBuffer()
                .get(ints);
        return ints;
    }

    ForeignSketchException fault(long offset, String fault) {
        return new ForeignSketchException(DataSketchesHllLayout.FORMAT, file, offset, fault);
    }

    /**
     * Checks that the image is exactly as long as its layout says.
     *
     * @param expected the length the preamble implies
     * @param layout what implies it, for the message
     */
    void requireLength(long expected, String layout) throws ForeignSketchException {
        if (bytes.length != expected) {
            throw fault(
                    Math.min(bytes.length, expected),
                    "the image is " + bytes.length + " bytes, " + layout + " takes " + expected);
        }
    }

    /**
     * Checks that each occupied entry of an open-addressing table sits where DataSketches' probe
     * sequence puts it (home {@code address & mask}, stride {@code (address >>> lgEntries) | 1}), with
     * no empty entry and no entry of the same key before it: a misplaced entry is a forged or torn
     * table, and a duplicate one a coupon or slot counted twice.
     *
     * @param table the table's entries, 0 for empty
     * @param lgEntries log2 of the table's size
     * @param tableStart the offset of entry 0 in the image
     * @param keyIsAddress whether entries of the same 26-bit address are the same key (aux tables)
     *     rather than only equal entries (coupon sets)
     */
    void requirePlacement(int[] table, int lgEntries, int tableStart, boolean keyIsAddress)
            throws ForeignSketchException {
        int mask = table.length - 1;
        for (int index = 0; index < table.length; index++) {
            int entry = table[index];
            if (entry == 0) {
                continue;
            }
            int address = entry & DataSketchesHllLayout.KEY_MASK;
            int stride = (address >>> lgEntries) | 1;
            for (int probe = address & mask; probe != index; probe = (probe + stride) & mask) {
                int other = table[probe];
                if (other == 0) {
                    throw fault(
                            tableStart + 4L * index,
                            "entry " + index + " of the hash table is off its probe sequence (entry " + probe
                                    + " before it is empty)");
                }
                if (keyIsAddress ? (other & DataSketchesHllLayout.KEY_MASK) == address : other == entry) {
                    throw fault(
                            tableStart + 4L * index,
                            "entry " + index + " of the hash table repeats entry " + probe + " (0x"
                                    + Integer.toHexString(entry) + ")");
                }
            }
        }
    }
}
