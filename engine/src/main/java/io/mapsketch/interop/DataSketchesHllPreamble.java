package io.mapsketch.interop;

import static io.mapsketch.interop.DataSketchesHllLayout.FAMILY_BYTE;
import static io.mapsketch.interop.DataSketchesHllLayout.FAMILY_ID;
import static io.mapsketch.interop.DataSketchesHllLayout.FLAGS_BYTE;
import static io.mapsketch.interop.DataSketchesHllLayout.KNOWN_FLAGS;
import static io.mapsketch.interop.DataSketchesHllLayout.LG_K_BYTE;
import static io.mapsketch.interop.DataSketchesHllLayout.MODE_BYTE;
import static io.mapsketch.interop.DataSketchesHllLayout.PREAMBLE_INTS_BYTE;
import static io.mapsketch.interop.DataSketchesHllLayout.SERIAL_VERSION;
import static io.mapsketch.interop.DataSketchesHllLayout.SERIAL_VERSION_BYTE;

/**
 * The first eight bytes of a DataSketches HLL image, checked: serial version 1, family 7 (HLL), lgK 4
 * to 21, only defined flag bits, a mode byte naming a defined mode and target type, and the preamble
 * length that mode has, which the image must at least hold.
 *
 * @param lgK log2 of the number of registers
 * @param type the target type
 * @param mode the current mode
 * @param flags the flags byte
 */
record DataSketchesHllPreamble(int lgK, DataSketchesHllType type, DataSketchesHllMode mode, int flags) {

    boolean has(int flag) {
        return (flags & flag) != 0;
    }

    static DataSketchesHllPreamble read(DataSketchesHllBytes bytes) throws ForeignSketchException {
        int serialVersion = bytes.unsignedByte(SERIAL_VERSION_BYTE);
        if (serialVersion != SERIAL_VERSION) {
            throw bytes.fault(SERIAL_VERSION_BYTE, "serial version " + serialVersion + ", expected " + SERIAL_VERSION);
        }
        int family = bytes.unsignedByte(FAMILY_BYTE);
        if (family != FAMILY_ID) {
            throw bytes.fault(FAMILY_BYTE, "family id " + family + ", expected " + FAMILY_ID + " (HLL)");
        }
        int lgK = bytes.unsignedByte(LG_K_BYTE);
        if (lgK < DataSketchesHllLayout.MIN_LG_K || lgK > DataSketchesHllLayout.MAX_LG_K) {
            throw bytes.fault(LG_K_BYTE, "lgK " + lgK + ", expected 4 to 21");
        }
        int flags = bytes.unsignedByte(FLAGS_BYTE);
        if ((flags & ~KNOWN_FLAGS) != 0) {
            throw bytes.fault(
                    FLAGS_BYTE,
                    "flags 0x" + Integer.toHexString(flags) + " set undefined bits 0x"
                            + Integer.toHexString(flags & ~KNOWN_FLAGS));
        }
        int modeByte = bytes.unsignedByte(MODE_BYTE);
        int modeBits = modeByte & 3;
        int typeBits = modeByte >>> 2 & 3;
        if (modeByte >>> 4 != 0 || modeBits == 3 || typeBits == 3) {
            throw bytes.fault(
                    MODE_BYTE,
                    "mode byte 0x" + Integer.toHexString(modeByte)
                            + ", expected a mode of 0 to 2 in bits 0-1 and a type of 0 to 2 in bits 2-3");
        }
        DataSketchesHllMode mode = DataSketchesHllMode.values()[modeBits];
        int preambleInts = bytes.unsignedByte(PREAMBLE_INTS_BYTE);
        int expectedInts = switch (mode) {
            case LIST -> DataSketchesHllLayout.LIST_PREAMBLE_INTS;
            case SET -> DataSketchesHllLayout.SET_PREAMBLE_INTS;
            case HLL -> DataSketchesHllLayout.HLL_PREAMBLE_INTS;
        };
        if (preambleInts != expectedInts) {
            throw bytes.fault(
                    PREAMBLE_INTS_BYTE,
                    "preamble ints " + preambleInts + ", a " + mode + "-mode image has " + expectedInts);
        }
        if (bytes.length() < 4 * expectedInts) {
            throw bytes.fault(
                    bytes.length(),
                    "the image is " + bytes.length() + " bytes, shorter than its " + 4 * expectedInts
                            + "-byte preamble");
        }
        return new DataSketchesHllPreamble(lgK, DataSketchesHllType.values()[typeBits], mode, flags);
    }
}
