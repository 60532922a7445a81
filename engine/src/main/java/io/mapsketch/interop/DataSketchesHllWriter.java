package io.mapsketch.interop;

import static io.mapsketch.interop.DataSketchesHllLayout.REGISTERS_START;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

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

    /**
     * Writes the updatable image of an HLL_8 sketch in LIST or SET mode, as datasketches-java's
     * {@code toUpdatableByteArray()} writes it: the preamble (lgArr, the empty flag, a LIST's count in byte 6),
     * a SET's count, then the whole table.
     *
     * @param lgK log2 of the number of registers
     * @param table a LIST's 8 entries or a SET's {@code 2^lgArr}, as {@code HyperLogLog.dataSketchesCoupons()} gives
     * @return {@code 8 + 4 * 8} bytes for a LIST, {@code 12 + 4 * 2^lgArr} for a SET
     */
    static byte[] updatableCoupons(int lgK, int[] table) {
        boolean list = table.length == 1 << DataSketchesHllLayout.LG_LIST_ENTRIES;
        int count = (int) Arrays.stream(table).filter(coupon -> coupon != 0).count();
        int start = list ? DataSketchesHllLayout.LIST_COUPONS_START : DataSketchesHllLayout.SET_COUPONS_START;
        ByteBuffer image = ByteBuffer.allocate(start + 4 * table.length).order(ByteOrder.LITTLE_ENDIAN);
        image.put(DataSketchesHllLayout.PREAMBLE_INTS_BYTE, (byte)
                        (list ? DataSketchesHllLayout.LIST_PREAMBLE_INTS : DataSketchesHllLayout.SET_PREAMBLE_INTS))
                .put(DataSketchesHllLayout.SERIAL_VERSION_BYTE, (byte) DataSketchesHllLayout.SERIAL_VERSION)
                .put(DataSketchesHllLayout.FAMILY_BYTE, (byte) DataSketchesHllLayout.FAMILY_ID)
                .put(DataSketchesHllLayout.LG_K_BYTE, (byte) lgK)
                .put(DataSketchesHllLayout.LG_ARR_BYTE, (byte) Integer.numberOfTrailingZeros(table.length))
                .put(DataSketchesHllLayout.FLAGS_BYTE, (byte) (count == 0 ? DataSketchesHllLayout.EMPTY_FLAG : 0))
                .put(DataSketchesHllLayout.LIST_COUNT_BYTE, (byte) (list ? count : 0))
                .put(DataSketchesHllLayout.MODE_BYTE, (byte) DataSketchesHllLayout.modeByte(
                        DataSketchesHllType.HLL_8, list ? DataSketchesHllMode.LIST : DataSketchesHllMode.SET));
        if (!list) {
            image.putInt(DataSketchesHllLayout.SET_COUNT_INT, count);
        }
        image.position(start);
        image.asIntBuffer().put(table);
        return image.array();
    }
}
