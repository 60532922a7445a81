package io.mapsketch.interop;

import static io.mapsketch.interop.DataSketchesHllLayout.COMPACT_FLAG;
import static io.mapsketch.interop.DataSketchesHllLayout.EMPTY_FLAG;
import static io.mapsketch.interop.DataSketchesHllLayout.FLAGS_BYTE;
import static io.mapsketch.interop.DataSketchesHllLayout.KEY_BITS;
import static io.mapsketch.interop.DataSketchesHllLayout.LG_ARR_BYTE;
import static io.mapsketch.interop.DataSketchesHllLayout.LG_K_BYTE;
import static io.mapsketch.interop.DataSketchesHllLayout.LG_LIST_ENTRIES;
import static io.mapsketch.interop.DataSketchesHllLayout.LG_MIN_SET_ENTRIES;
import static io.mapsketch.interop.DataSketchesHllLayout.LIST_CAPACITY;
import static io.mapsketch.interop.DataSketchesHllLayout.LIST_COUNT_BYTE;
import static io.mapsketch.interop.DataSketchesHllLayout.LIST_COUPONS_START;
import static io.mapsketch.interop.DataSketchesHllLayout.SET_COUNT_INT;
import static io.mapsketch.interop.DataSketchesHllLayout.SET_COUPONS_START;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads DataSketches HLL images (serial version 1, as datasketches-java 9 and the C++ and Python
 * libraries write them): every mode (LIST, SET, HLL), every target type (HLL_4, HLL_6, HLL_8), updatable
 * and compact, lgK 4 to 21. Everything is validated before it is believed: the preamble, the flags,
 * every count and table size against the image's own length (nothing is allocated from a size the
 * bytes merely claim), each coupon and register value, the hash tables' probe placement, and the
 * summaries an HLL image keeps beside its registers. Cost: O(image length + 2^lgK).
 */
final class DataSketchesHllReader {

    private DataSketchesHllReader() {}

    /**
     * Reads one image.
     *
     * @param image exactly the bytes of one image
     * @param file the file they came from, for the message of a fault, or {@code null} for an array
     * @return the coupons or registers, with what the image keeps beside them
     * @throws ForeignSketchException if the bytes are not such an image, naming the offset and fault
     */
    public static DataSketchesHllImage read(byte[] image, Path file) throws ForeignSketchException {
        DataSketchesHllBytes bytes = new DataSketchesHllBytes(image, file);
        if (bytes.length() < 8) {
            throw bytes.fault(
                    bytes.length(), "the image is " + bytes.length() + " bytes, shorter than its 8-byte preamble");
        }
        DataSketchesHllPreamble preamble = DataSketchesHllPreamble.read(bytes);
        return switch (preamble.mode()) {
            case LIST -> readList(bytes, preamble);
            case SET -> readSet(bytes, preamble);
            case HLL -> DataSketchesHllRegisterReader.read(bytes, preamble);
        };
    }

    private static DataSketchesHllImage.Coupons readList(DataSketchesHllBytes bytes, DataSketchesHllPreamble preamble)
            throws ForeignSketchException {
        int count = bytes.unsignedByte(LIST_COUNT_BYTE);
        if (count >= LIST_CAPACITY) {
            throw bytes.fault(
                    LIST_COUNT_BYTE,
                    "list count " + count + ", a LIST holds at most " + (LIST_CAPACITY - 1) + " coupons");
        }
        int lgArr = bytes.unsignedByte(LG_ARR_BYTE);
        boolean compact = preamble.has(COMPACT_FLAG);
        if (compact ? lgArr > LG_LIST_ENTRIES : lgArr != LG_LIST_ENTRIES) {
            throw bytes.fault(LG_ARR_BYTE, "lgArr " + lgArr + ", a LIST's table has 2^" + LG_LIST_ENTRIES + " entries");
        }
        int entries = compact ? count : 1 << LG_LIST_ENTRIES;
        bytes.requireLength(
                LIST_COUPONS_START + 4L * entries,
                (compact ? "a compact LIST of " + count + " coupons" : "an updatable LIST"));
        int[] table = bytes.ints(LIST_COUPONS_START, entries);
        for (int i = 0; i < entries; i++) {
            int offset = LIST_COUPONS_START + 4 * i;
            if (i < count) {
                requireCoupon(bytes, table[i], offset);
                for (int j = 0; j < i; j++) {
                    if (table[j] == table[i]) {
                        throw bytes.fault(offset, "coupon " + i + " repeats coupon " + j);
                    }
                }
            } else if (table[i] != 0) {
                throw bytes.fault(offset, "entry " + i + " of a LIST of " + count + " coupons is not empty");
            }
        }
        requireEmptyFlag(bytes, preamble, count);
        return new DataSketchesHllImage.Coupons(
                preamble.lgK(), preamble.type(), DataSketchesHllMode.LIST, compact, Arrays.copyOf(table, count));
    }

    private static DataSketchesHllImage.Coupons readSet(DataSketchesHllBytes bytes, DataSketchesHllPreamble preamble)
            throws ForeignSketchException {
        int lgK = preamble.lgK();
        if (lgK < 8) {
            throw bytes.fault(LG_K_BYTE, "lgK " + lgK + " in SET mode, which only sketches of lgK 8 to 21 have");
        }
        int count = bytes.intAt(SET_COUNT_INT);
        int maxCoupons = DataSketchesHllLayout.maxSetCoupons(lgK);
        if (count < 0 || count > maxCoupons) {
            throw bytes.fault(
                    SET_COUNT_INT, "set count " + count + ", a SET of lgK " + lgK + " holds 0 to " + maxCoupons);
        }
        int lgArr = bytes.unsignedByte(LG_ARR_BYTE);
        boolean compact = preamble.has(COMPACT_FLAG);
        int[] coupons;
        if (compact) {
            // Older writers left lgArr 0 in compact images; DataSketches recomputes it from the count.
            if (lgArr >= LG_MIN_SET_ENTRIES && lgArr > lgK - 3) {
                throw bytes.fault(LG_ARR_BYTE, "lgArr " + lgArr + ", above lgK - 3 = " + (lgK - 3));
            }
            bytes.requireLength(SET_COUPONS_START + 4L * count, "a compact SET of " + count + " coupons");
            coupons = bytes.ints(SET_COUPONS_START, count);
            for (int i = 0; i < count; i++) {
                requireCoupon(bytes, coupons[i], SET_COUPONS_START + 4 * i);
            }
            requireDistinct(bytes, coupons);
        } else {
            if (lgArr < LG_MIN_SET_ENTRIES || lgArr > lgK - 3) {
                throw bytes.fault(
                        LG_ARR_BYTE,
                        "lgArr " + lgArr + ", a SET's table has 2^" + LG_MIN_SET_ENTRIES + " to 2^" + (lgK - 3)
                                + " entries");
            }
            if (count > DataSketchesHllLayout.tableCapacity(lgArr)) {
                throw bytes.fault(
                        SET_COUNT_INT, "set count " + count + " overfills a table of 2^" + lgArr + " entries");
            }
            bytes.requireLength(SET_COUPONS_START + (4L << lgArr), "an updatable SET of 2^" + lgArr + " entries");
            int[] table = bytes.ints(SET_COUPONS_START, 1 << lgArr);
            coupons = occupied(bytes, table, count, SET_COUNT_INT, "set count");
            for (int i = 0; i < table.length; i++) {
                if (table[i] != 0) {
                    requireCoupon(bytes, table[i], SET_COUPONS_START + 4 * i);
                }
            }
            bytes.requirePlacement(table, lgArr, SET_COUPONS_START, false);
            requireEmptyFlag(bytes, preamble, count);
            return new DataSketchesHllImage.Coupons(
                    lgK, preamble.type(), DataSketchesHllMode.SET, compact, coupons, table);
        }
        requireEmptyFlag(bytes, preamble, count);
        return new DataSketchesHllImage.Coupons(lgK, preamble.type(), DataSketchesHllMode.SET, compact, coupons);
    }

    /**
     * Returns the occupied (non-zero) entries of an updatable table, in table order, after checking
     * that there are as many as the preamble counts.
     */
    static int[] occupied(DataSketchesHllBytes bytes, int[] table, int count, int countOffset, String countName)
            throws ForeignSketchException {
        int occupied = 0;
        for (int entry : table) {
            if (entry != 0) {
                occupied++;
            }
        }
        if (occupied != count) {
            throw bytes.fault(countOffset, countName + " " + count + ", yet the table holds " + occupied + " entries");
        }
        return Arrays.stream(table).filter(entry -> entry != 0).toArray();
    }

    private static void requireCoupon(DataSketchesHllBytes bytes, int coupon, int offset)
            throws ForeignSketchException {
        if (coupon >>> KEY_BITS == 0) {
            throw bytes.fault(offset, "coupon 0x" + Integer.toHexString(coupon) + " has value 0");
        }
    }

    private static void requireDistinct(DataSketchesHllBytes bytes, int[] coupons) throws ForeignSketchException {
        int[] sorted = coupons.clone();
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                int first = indexOf(coupons, sorted[i], 0);
                int second = indexOf(coupons, sorted[i], first + 1);
                throw bytes.fault(SET_COUPONS_START + 4L * second, "coupon " + second + " repeats coupon " + first);
            }
        }
    }

    private static int indexOf(int[] values, int value, int from) {
        for (int i = from; i < values.length; i++) {
            if (values[i] == value) {
                return i;
            }
        }
        return -1;
    }

    private static void requireEmptyFlag(DataSketchesHllBytes bytes, DataSketchesHllPreamble preamble, int count)
            throws ForeignSketchException {
        boolean empty = preamble.has(EMPTY_FLAG);
        if (empty != (count == 0)) {
            throw bytes.fault(
                    FLAGS_BYTE,
                    empty
                            ? "the empty flag is set, yet the image holds " + count + " coupons"
                            : "the image holds no coupons, yet its empty flag is clear");
        }
    }
}
