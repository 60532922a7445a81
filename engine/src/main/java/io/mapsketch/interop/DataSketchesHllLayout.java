package io.mapsketch.interop;

import io.mapsketch.internal.DataSketchesCoupons;

/**
 * The byte layout of a DataSketches HLL image (serial version 1, family 7), little-endian:
 *
 * <pre>
 * byte  0      1       2      3    4      5      6               7
 *       preInts serVer family lgK  lgArr  flags  listCount|curMin mode (type &lt;&lt; 2 | curMode)
 * LIST  (preInts 2)  8: coupons, 4 bytes each (count in byte 6)
 * SET   (preInts 3)  8: coupon count (int)    12: coupons, 4 bytes each
 * HLL   (preInts 10) 8: HIP accumulator (double)  16: kxq0 (double)  24: kxq1 (double)
 *                    32: numAtCurMin (int)  36: aux count (int)  40: registers, then for HLL_4 the
 *                    aux (exception) table of (value &lt;&lt; 26 | slot) entries
 * </pre>
 *
 * A coupon is {@code value << 26 | address}, the address being the low 26 bits of the key's first hash
 * half. Updatable images hold the whole hash table ({@code 2^lgArr} entries); compact images hold the
 * entries only. The full map, with what each field means, is in {@code docs/design/datasketches-hll.md}.
 */
final class DataSketchesHllLayout {

    private DataSketchesHllLayout() {}

    /** The format's name, as the command spells it. */
    static final String FORMAT = "datasketches-hll";

    static final int PREAMBLE_INTS_BYTE = 0;
    static final int SERIAL_VERSION_BYTE = 1;
    static final int FAMILY_BYTE = 2;
    static final int LG_K_BYTE = 3;
    static final int LG_ARR_BYTE = 4;
    static final int FLAGS_BYTE = 5;
    static final int LIST_COUNT_BYTE = 6;
    static final int CUR_MIN_BYTE = 6;
    static final int MODE_BYTE = 7;

    static final int LIST_COUPONS_START = 8;
    static final int SET_COUNT_INT = 8;
    static final int SET_COUPONS_START = 12;
    static final int HIP_ACCUM_DOUBLE = 8;
    static final int KXQ0_DOUBLE = 16;
    static final int KXQ1_DOUBLE = 24;
    static final int NUM_AT_CUR_MIN_INT = 32;
    static final int AUX_COUNT_INT = 36;
    static final int REGISTERS_START = 40;

    static final int SERIAL_VERSION = 1;
    static final int FAMILY_ID = 7;
    static final int LIST_PREAMBLE_INTS = 2;
    static final int SET_PREAMBLE_INTS = 3;
    static final int HLL_PREAMBLE_INTS = 10;

    /** Set by writers, read by nobody. */
    static final int RESERVED_FLAG = 1;
    /** Set by some writers, read by nobody. */
    static final int READ_ONLY_FLAG = 2;

    static final int EMPTY_FLAG = 4;
    static final int COMPACT_FLAG = 8;
    static final int OUT_OF_ORDER_FLAG = 16;
    /** A union's HLL_8 gadget whose curMin, numAtCurMin and kxq registers are stale and must be rebuilt. */
    static final int REBUILD_FLAG = 32;

    static final int KNOWN_FLAGS =
            RESERVED_FLAG | READ_ONLY_FLAG | EMPTY_FLAG | COMPACT_FLAG | OUT_OF_ORDER_FLAG | REBUILD_FLAG;

    static final int MIN_LG_K = 4;
    static final int MAX_LG_K = 21;
    static final int KEY_BITS = 26;
    static final int KEY_MASK = (1 << KEY_BITS) - 1;
    static final int MAX_VALUE = 63;

    /** A LIST holds fewer coupons than its 8 entries: the eighth promotes it. */
    static final int LIST_CAPACITY = 8;

    static final int LG_LIST_ENTRIES = 3;
    static final int LG_MIN_SET_ENTRIES = 5;

    /** The HLL_4 nibble that sends a register to the aux table. */
    static final int AUX_TOKEN = 15;

    /** log2 of the initial aux table size per lgK, 0 to 21 (only 4 to 21 are used). */
    private static final int[] LG_AUX_ENTRIES = {0, 2, 2, 2, 2, 2, 2, 3, 3, 3, 4, 4, 5, 5, 6, 7, 8, 9, 10, 11, 12, 13};

    static int lgInitialAuxEntries(int lgK) {
        return LG_AUX_ENTRIES[lgK];
    }

    /** A hash table of {@code 2^lg} entries holds at most three quarters of them: one more grows it. */
    static int tableCapacity(int lgEntries) {
        return DataSketchesCoupons.tableCapacity(lgEntries);
    }

    /** The most coupons a SET of this lgK holds: one more promotes it to HLL mode. */
    static int maxSetCoupons(int lgK) {
        return tableCapacity(lgK - 3);
    }

    /**
     * The number of distinct coupons at which a sketch of this lgK leaves its coupon modes: the eighth
     * for lgK below 8 (a LIST straight to HLL), one more than {@link #maxSetCoupons} otherwise.
     */
    static int promotionCoupons(int lgK) {
        return DataSketchesCoupons.promotionCoupons(lgK);
    }

    static int registerBytes(DataSketchesHllType type, int lgK) {
        return switch (type) {
            case HLL_4 -> 1 << (lgK - 1);
            case HLL_6 -> ((3 << lgK) >>> 2) + 1;
            case HLL_8 -> 1 << lgK;
        };
    }

    static int modeByte(DataSketchesHllType type, DataSketchesHllMode mode) {
        return type.ordinal() << 2 | mode.ordinal();
    }
}
