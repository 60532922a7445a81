package io.mapsketch.interop;

import static io.mapsketch.interop.DataSketchesHllLayout.REGISTERS_START;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Writes HLL_8 updatable images in HLL mode, byte for byte as datasketches-java's
 * {@code toUpdatableByteArray()} writes a heap HLL_8 sketch with the same registers and state: the
 * preamble (no lgArr, flags only out-of-order), the HIP accumulator, kxq sums, curMin and numAtCurMin as
 * given, an aux count of 0, then one byte per register. Cost: one array of {@code 40 + 2^lgK} bytes.
 */
final class DataSketchesHllWriter {

    private DataSketchesHllWriter() {}

    /**
     * Writes the image of HLL_8 registers.
     *
     * @param sketch an HLL_8 image (see {@link DataSketchesHllImage.Registers#asHll8()} and
     *     {@link DataSketchesHllImage.Coupons#promoted()} for the others)
     * @return the updatable image, {@code 40 + 2^lgK} bytes
     * @throws IllegalArgumentException if the sketch is not HLL_8
     */
    public static byte[] updatableHll8(DataSketchesHllImage.Registers sketch) {
        if (sketch.type() != DataSketchesHllType.HLL_8) {
            throw new IllegalArgumentException("sketch type is " + sketch.type() + ", expected HLL_8 (see asHll8())");
        }
        byte[] registers = sketch.registers();
        DataSketchesHipState state = sketch.state();
        ByteBuffer image =
                ByteBuffer.allocate(REGISTERS_START + registers.length).order(ByteOrder.LITTLE_ENDIAN);
        image.put(DataSketchesHllLayout.PREAMBLE_INTS_BYTE, (byte) DataSketchesHllLayout.HLL_PREAMBLE_INTS)
                .put(DataSketchesHllLayout.SERIAL_VERSION_BYTE, (byte) DataSketchesHllLayout.SERIAL_VERSION)
                .put(DataSketchesHllLayout.FAMILY_BYTE, (byte) DataSketchesHllLayout.FAMILY_ID)
                .put(DataSketchesHllLayout.LG_K_BYTE, (byte) sketch.lgK())
                .put(DataSketchesHllLayout.FLAGS_BYTE, (byte)
                        (sketch.outOfOrder() ? DataSketchesHllLayout.OUT_OF_ORDER_FLAG : 0))
                .put(DataSketchesHllLayout.CUR_MIN_BYTE, (byte) state.curMin())
                .put(DataSketchesHllLayout.MODE_BYTE, (byte)
                        DataSketchesHllLayout.modeByte(DataSketchesHllType.HLL_8, DataSketchesHllMode.HLL))
                .putDouble(DataSketchesHllLayout.HIP_ACCUM_DOUBLE, state.hipAccumulator())
                .putDouble(DataSketchesHllLayout.KXQ0_DOUBLE, state.kxq0())
                .putDouble(DataSketchesHllLayout.KXQ1_DOUBLE, state.kxq1())
                .putInt(DataSketchesHllLayout.NUM_AT_CUR_MIN_INT, state.numAtCurMin())
                .putInt(DataSketchesHllLayout.AUX_COUNT_INT, 0)
                .put(REGISTERS_START, registers);
        return image.array();
    }
}
