package io.mapsketch.interop;

import static io.mapsketch.interop.DataSketchesHllLayout.AUX_COUNT_INT;
import static io.mapsketch.interop.DataSketchesHllLayout.AUX_TOKEN;
import static io.mapsketch.interop.DataSketchesHllLayout.COMPACT_FLAG;
import static io.mapsketch.interop.DataSketchesHllLayout.CUR_MIN_BYTE;
import static io.mapsketch.interop.DataSketchesHllLayout.EMPTY_FLAG;
import static io.mapsketch.interop.DataSketchesHllLayout.FLAGS_BYTE;
import static io.mapsketch.interop.DataSketchesHllLayout.HIP_ACCUM_DOUBLE;
import static io.mapsketch.interop.DataSketchesHllLayout.KEY_BITS;
import static io.mapsketch.interop.DataSketchesHllLayout.KEY_MASK;
import static io.mapsketch.interop.DataSketchesHllLayout.KXQ0_DOUBLE;
import static io.mapsketch.interop.DataSketchesHllLayout.KXQ1_DOUBLE;
import static io.mapsketch.interop.DataSketchesHllLayout.LG_ARR_BYTE;
import static io.mapsketch.interop.DataSketchesHllLayout.MAX_VALUE;
import static io.mapsketch.interop.DataSketchesHllLayout.NUM_AT_CUR_MIN_INT;
import static io.mapsketch.interop.DataSketchesHllLayout.OUT_OF_ORDER_FLAG;
import static io.mapsketch.interop.DataSketchesHllLayout.REBUILD_FLAG;
import static io.mapsketch.interop.DataSketchesHllLayout.REGISTERS_START;

import java.util.BitSet;

/**
 * Reads the HLL-mode part of a DataSketches image: the registers in their packing (an HLL_4's nibbles
 * offset by curMin, its exception token resolved through the aux table), then the summaries beside
 * them, checked against the registers: no register below curMin, numAtCurMin the count at curMin (at
 * least that count for an HLL_6 or HLL_8 whose curMin is above 0, which it no longer tracks), and
 * kxq0 + kxq1 the sum of {@code 2^-value} within 1e-9. A union's HLL_8 gadget flagged for a rebuild has
 * those summaries recomputed instead, as DataSketches does when it reads one.
 */
final class DataSketchesHllRegisterReader {

    /** Stored and recounted kxq sums agree to this relative difference; they are exact when written. */
    private static final double KXQ_TOLERANCE = 1e-9;

    private DataSketchesHllRegisterReader() {}

    static DataSketchesHllImage.Registers read(DataSketchesHllBytes bytes, DataSketchesHllPreamble preamble)
            throws ForeignSketchException {
        int lgK = preamble.lgK();
        int k = 1 << lgK;
        DataSketchesHllType type = preamble.type();
        if (preamble.has(EMPTY_FLAG)) {
            throw bytes.fault(FLAGS_BYTE, "the empty flag is set on an HLL-mode image");
        }
        int curMin = bytes.unsignedByte(CUR_MIN_BYTE);
        if (curMin > MAX_VALUE) {
            throw bytes.fault(CUR_MIN_BYTE, "curMin " + curMin + ", expected 0 to " + MAX_VALUE);
        }
        double hip = finite(bytes, HIP_ACCUM_DOUBLE, "HIP accumulator");
        if (hip < 0) {
            throw bytes.fault(HIP_ACCUM_DOUBLE, "HIP accumulator " + hip + " is negative");
        }
        double kxq0 = finite(bytes, KXQ0_DOUBLE, "kxq0");
        double kxq1 = finite(bytes, KXQ1_DOUBLE, "kxq1");
        int numAtCurMin = bytes.intAt(NUM_AT_CUR_MIN_INT);
        if (numAtCurMin < 0 || numAtCurMin > k) {
            throw bytes.fault(NUM_AT_CUR_MIN_INT, "numAtCurMin " + numAtCurMin + ", expected 0 to " + k);
        }
        int auxCount = bytes.intAt(AUX_COUNT_INT);
        int registerBytes = DataSketchesHllLayout.registerBytes(type, lgK);
        byte[] registers;
        if (type == DataSketchesHllType.HLL_4) {
            registers = readHll4(bytes, lgK, curMin, auxCount, preamble.has(COMPACT_FLAG));
        } else {
            if (auxCount != 0) {
                throw bytes.fault(AUX_COUNT_INT, "aux count " + auxCount + ", only an HLL_4 has an aux table");
            }
            int lgArr = bytes.unsignedByte(LG_ARR_BYTE);
            if (lgArr != 0) {
                throw bytes.fault(LG_ARR_BYTE, "lgArr " + lgArr + ", an " + type + " image has no table to size");
            }
            bytes.requireLength(REGISTERS_START + registerBytes, "an " + type + " image of lgK " + lgK);
            registers = type == DataSketchesHllType.HLL_8 ? readHll8(bytes, k) : readHll6(bytes, k, registerBytes);
        }
        boolean outOfOrder = preamble.has(OUT_OF_ORDER_FLAG);
        DataSketchesHipState state;
        if (preamble.has(REBUILD_FLAG) && type == DataSketchesHllType.HLL_8) {
            state = rebuilt(registers, hip);
        } else {
            state = new DataSketchesHipState(hip, kxq0, kxq1, curMin, numAtCurMin);
            requireSummaries(bytes, type, registers, state);
        }
        return new DataSketchesHllImage.Registers(lgK, type, preamble.has(COMPACT_FLAG), outOfOrder, registers, state);
    }

    private static double finite(DataSketchesHllBytes bytes, int offset, String name) throws ForeignSketchException {
        double value = bytes.doubleAt(offset);
        if (!Double.isFinite(value)) {
            throw bytes.fault(offset, name + " " + value + " is not a finite number");
        }
        return value;
    }

    private static byte[] readHll8(DataSketchesHllBytes bytes, int k) throws ForeignSketchException {
        byte[] registers = new byte[k];
        for (int slot = 0; slot < k; slot++) {
            int value = bytes.unsignedByte(REGISTERS_START + slot);
            if (value > MAX_VALUE) {
                throw bytes.fault(REGISTERS_START + slot, "register " + slot + " is " + value + ", above " + MAX_VALUE);
            }
            registers[slot] = (byte) value;
        }
        return registers;
    }

    private static byte[] readHll6(DataSketchesHllBytes bytes, int k, int registerBytes) throws ForeignSketchException {
        byte[] registers = new byte[k];
        for (int slot = 0; slot < k; slot++) {
            int bit = 6 * slot;
            int offset = REGISTERS_START + (bit >>> 3);
            int pair = bytes.unsignedByte(offset) | bytes.unsignedByte(offset + 1) << 8;
            registers[slot] = (byte) (pair >>> (bit & 7) & MAX_VALUE);
        }
        int padding = REGISTERS_START + registerBytes - 1;
        if (bytes.unsignedByte(padding) != 0) {
            throw bytes.fault(
                    padding,
                    "the padding byte after the last register is 0x" + Integer.toHexString(bytes.unsignedByte(padding))
                            + ", expected 0");
        }
        return registers;
    }

    private static byte[] readHll4(DataSketchesHllBytes bytes, int lgK, int curMin, int auxCount, boolean compact)
            throws ForeignSketchException {
        int k = 1 << lgK;
        if (auxCount < 0 || auxCount > k) {
            throw bytes.fault(AUX_COUNT_INT, "aux count " + auxCount + ", expected 0 to " + k);
        }
        int auxStart = REGISTERS_START + (k >>> 1);
        int lgAux = 0;
        int auxEntries;
        if (compact) {
            auxEntries = auxCount;
            bytes.requireLength(
                    auxStart + 4L * auxCount,
                    "a compact HLL_4 image of lgK " + lgK + " and " + auxCount + " exceptions");
        } else if (auxCount == 0) {
            // Without exceptions the table's room is its initial size, whatever lgArr says.
            auxEntries = 1 << DataSketchesHllLayout.lgInitialAuxEntries(lgK);
            bytes.requireLength(auxStart + 4L * auxEntries, "an updatable HLL_4 image of lgK " + lgK);
        } else {
            lgAux = bytes.unsignedByte(LG_ARR_BYTE);
            int lgMin = DataSketchesHllLayout.lgInitialAuxEntries(lgK);
            if (lgAux < lgMin || lgAux > lgK - 1) {
                throw bytes.fault(
                        LG_ARR_BYTE,
                        "lgArr " + lgAux + ", an aux table of lgK " + lgK + " has 2^" + lgMin + " to 2^" + (lgK - 1)
                                + " entries");
            }
            if (auxCount > DataSketchesHllLayout.tableCapacity(lgAux)) {
                throw bytes.fault(
                        AUX_COUNT_INT, "aux count " + auxCount + " overfills a table of 2^" + lgAux + " entries");
            }
            auxEntries = 1 << lgAux;
            bytes.requireLength(
                    auxStart + 4L * auxEntries,
                    "an updatable HLL_4 image of lgK " + lgK + " and 2^" + lgAux + " aux entries");
        }
        byte[] registers = new byte[k];
        BitSet tokens = new BitSet(k);
        for (int slot = 0; slot < k; slot++) {
            int nibble = nibble(bytes, slot);
            if (nibble == AUX_TOKEN) {
                tokens.set(slot);
            } else if (curMin + nibble > MAX_VALUE) {
                throw bytes.fault(
                        REGISTERS_START + (slot >>> 1),
                        "register " + slot + " is curMin " + curMin + " + " + nibble + ", above " + MAX_VALUE);
            } else {
                registers[slot] = (byte) (curMin + nibble);
            }
        }
        if (tokens.cardinality() > auxCount) {
            throw bytes.fault(
                    AUX_COUNT_INT,
                    "aux count " + auxCount + ", yet " + tokens.cardinality() + " registers hold the exception token");
        }
        if (auxCount > 0) {
            int[] table = bytes.ints(auxStart, auxEntries);
            if (!compact) {
                DataSketchesHllReader.occupied(bytes, table, auxCount, AUX_COUNT_INT, "aux count");
                bytes.requirePlacement(table, lgAux, auxStart, true);
            }
            resolveExceptions(bytes, registers, tokens, table, auxStart, curMin);
        }
        int unresolved = tokens.nextSetBit(0);
        if (unresolved >= 0) {
            throw bytes.fault(
                    REGISTERS_START + (unresolved >>> 1),
                    "register " + unresolved + " holds the exception token, yet the aux table has no entry for it");
        }
        return registers;
    }

    private static int nibble(DataSketchesHllBytes bytes, int slot) {
        return bytes.unsignedByte(REGISTERS_START + (slot >>> 1)) >>> ((slot & 1) << 2) & 0xF;
    }

    /**
     * Puts each aux entry's value into its slot and clears the slot from {@code tokens}. An entry whose
     * slot no longer holds the token is stale (a direct DataSketches sketch leaves its table behind when
     * a rise of curMin turns its last exception into an ordinary nibble) and is ignored, as DataSketches
     * ignores it; a slot named twice is a fault.
     */
    private static void resolveExceptions(
            DataSketchesHllBytes bytes, byte[] registers, BitSet tokens, int[] table, int auxStart, int curMin)
            throws ForeignSketchException {
        BitSet named = new BitSet(registers.length);
        for (int i = 0; i < table.length; i++) {
            int entry = table[i];
            if (entry == 0) {
                continue;
            }
            int offset = auxStart + 4 * i;
            int slot = entry & KEY_MASK;
            int value = entry >>> KEY_BITS;
            if (slot >= registers.length) {
                throw bytes.fault(offset, "aux entry " + i + " names slot " + slot + " of " + registers.length);
            }
            if (named.get(slot)) {
                throw bytes.fault(offset, "aux entry " + i + " names slot " + slot + " a second time");
            }
            named.set(slot);
            if (!tokens.get(slot)) {
                continue;
            }
            if (value < curMin + AUX_TOKEN || value > MAX_VALUE) {
                throw bytes.fault(
                        offset,
                        "aux entry " + i + " gives slot " + slot + " value " + value + ", expected "
                                + (curMin + AUX_TOKEN) + " to " + MAX_VALUE);
            }
            registers[slot] = (byte) value;
            tokens.clear(slot);
        }
    }

    /**
     * The summaries as DataSketches 9.1 rebuilds them for a union's gadget: kxq sums recounted, curMin 0
     * and numAtCurMin the registers at 0; the HIP accumulator is kept.
     */
    private static DataSketchesHipState rebuilt(byte[] registers, double hip) {
        int zeros = 0;
        double kxq0 = registers.length;
        double kxq1 = 0;
        for (byte value : registers) {
            // DataSketches charges the "- 1" of a register of 32 or more to kxq1: kept for equal sums.
            if (value == 0) {
                zeros++;
            } else if (value < 32) {
                kxq0 += DataSketchesHllUpdate.inversePowerOfTwo(value) - 1.0;
            } else {
                kxq1 += DataSketchesHllUpdate.inversePowerOfTwo(value) - 1.0;
            }
        }
        return new DataSketchesHipState(hip, kxq0, kxq1, 0, zeros);
    }

    private static void requireSummaries(
            DataSketchesHllBytes bytes, DataSketchesHllType type, byte[] registers, DataSketchesHipState state)
            throws ForeignSketchException {
        int atCurMin = 0;
        double sum = 0;
        for (int slot = 0; slot < registers.length; slot++) {
            int value = registers[slot];
            if (value < state.curMin()) {
                throw bytes.fault(
                        registerOffset(type, slot),
                        "register " + slot + " is " + value + ", below curMin " + state.curMin());
            }
            if (value == state.curMin()) {
                atCurMin++;
            }
            sum += DataSketchesHllUpdate.inversePowerOfTwo(value);
        }
        // An HLL_6 or HLL_8 counts down only registers leaving 0: above a curMin of 0 its count may be stale.
        boolean exact = type == DataSketchesHllType.HLL_4 || state.curMin() == 0;
        if (exact ? atCurMin != state.numAtCurMin() : atCurMin > state.numAtCurMin()) {
            throw bytes.fault(
                    NUM_AT_CUR_MIN_INT,
                    "numAtCurMin " + state.numAtCurMin() + ", yet " + atCurMin + " registers hold curMin "
                            + state.curMin());
        }
        double stored = state.kxq0() + state.kxq1();
        if (!(Math.abs(stored - sum) <= KXQ_TOLERANCE * sum)) {
            throw bytes.fault(KXQ0_DOUBLE, "kxq0 + kxq1 is " + stored + ", yet the registers sum to " + sum);
        }
    }

    private static int registerOffset(DataSketchesHllType type, int slot) {
        return REGISTERS_START
                + switch (type) {
                    case HLL_4 -> slot >>> 1;
                    case HLL_6 -> 6 * slot >>> 3;
                    case HLL_8 -> slot;
                };
    }
}
