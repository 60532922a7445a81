package io.mapsketch.interop;

import static io.mapsketch.interop.DataSketchesHllLayout.AUX_COUNT_INT;
import static io.mapsketch.interop.DataSketchesHllLayout.FLAGS_BYTE;
import static io.mapsketch.interop.DataSketchesHllLayout.HIP_ACCUM_DOUBLE;
import static io.mapsketch.interop.DataSketchesHllLayout.KXQ0_DOUBLE;
import static io.mapsketch.interop.DataSketchesHllLayout.LG_ARR_BYTE;
import static io.mapsketch.interop.DataSketchesHllLayout.LG_K_BYTE;
import static io.mapsketch.interop.DataSketchesHllLayout.MODE_BYTE;
import static io.mapsketch.interop.DataSketchesHllLayout.NUM_AT_CUR_MIN_INT;
import static io.mapsketch.interop.DataSketchesHllLayout.REGISTERS_START;
import static io.mapsketch.interop.DataSketchesHllLayout.SET_COUNT_INT;
import static io.mapsketch.interop.DataSketchesHllLayout.SET_COUPONS_START;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Forged and torn DataSketches HLL images: each fault is refused with a typed exception naming its
 * offset and what is wrong, every truncation of a real image is refused, and no corruption of one
 * ends in anything but a refusal or an image that answers a finite estimate.
 */
class DataSketchesHllHostileImageTest {

    private static final byte[] LIST = DataSketchesHllImages.of(10, DataSketchesHllType.HLL_8, 5, false);
    private static final byte[] SET = DataSketchesHllImages.of(10, DataSketchesHllType.HLL_6, 50, false);
    private static final byte[] COMPACT_SET = DataSketchesHllImages.of(10, DataSketchesHllType.HLL_4, 50, true);
    private static final byte[] HLL_8 = DataSketchesHllImages.of(6, DataSketchesHllType.HLL_8, 1_000, false);
    private static final byte[] HLL_6 = DataSketchesHllImages.of(6, DataSketchesHllType.HLL_6, 1_000, false);
    private static final byte[] HLL_4 = DataSketchesHllImages.hll4WithExceptions(1, false);
    private static final byte[] COMPACT_HLL_4 = DataSketchesHllImages.hll4WithExceptions(1, true);

    @Test
    void preambleFaultsNameTheirByte() {
        refused(Arrays.copyOf(LIST, 7), 7, "the image is 7 bytes, shorter than its 8-byte preamble");
        refused(LIST, b -> b[1] = 2, 1, "serial version 2, expected 1");
        refused(LIST, b -> b[2] = 6, 2, "family id 6, expected 7 (HLL)");
        refused(LIST, b -> b[LG_K_BYTE] = 3, LG_K_BYTE, "lgK 3, expected 4 to 21");
        refused(LIST, b -> b[LG_K_BYTE] = 22, LG_K_BYTE, "lgK 22, expected 4 to 21");
        refused(LIST, b -> b[FLAGS_BYTE] |= 0x40, FLAGS_BYTE, "set undefined bits 0x40");
        refused(LIST, b -> b[MODE_BYTE] = 3, MODE_BYTE, "mode byte 0x3");
        refused(LIST, b -> b[MODE_BYTE] = 12, MODE_BYTE, "mode byte 0xc");
        refused(LIST, b -> b[MODE_BYTE] = 0x18, MODE_BYTE, "mode byte 0x18");
        refused(LIST, b -> b[0] = 3, 0, "preamble ints 3, a LIST-mode image has 2");
        refused(Arrays.copyOf(HLL_8, 39), 39, "shorter than its 40-byte preamble");
    }

    @Test
    void listFaults() {
        refused(LIST, b -> b[6] = 8, 6, "list count 8, a LIST holds at most 7 coupons");
        refused(LIST, b -> b[LG_ARR_BYTE] = 4, LG_ARR_BYTE, "lgArr 4, a LIST's table has 2^3 entries");
        refused(LIST, b -> putInt(b, 8, 0x0000_1234), 8, "coupon 0x1234 has value 0");
        refused(LIST, b -> putInt(b, 12, intAt(b, 8)), 12, "coupon 1 repeats coupon 0");
        refused(LIST, b -> putInt(b, 8 + 4 * 6, 1 << 26 | 7), 32, "entry 6 of a LIST of 5 coupons is not empty");
        refused(LIST, b -> b[FLAGS_BYTE] |= 4, FLAGS_BYTE, "the empty flag is set, yet the image holds 5 coupons");
        refused(Arrays.copyOf(LIST, 39), 39, "the image is 39 bytes, an updatable LIST takes 40");
    }

    @Test
    void setFaults() {
        refused(SET, b -> b[LG_K_BYTE] = 7, LG_K_BYTE, "lgK 7 in SET mode");
        refused(SET, b -> putInt(b, SET_COUNT_INT, 97), SET_COUNT_INT, "set count 97, a SET of lgK 10 holds 0 to 96");
        refused(SET, b -> putInt(b, SET_COUNT_INT, 49), SET_COUNT_INT, "set count 49, yet the table holds 50 entries");
        refused(SET, b -> b[LG_ARR_BYTE] = 4, LG_ARR_BYTE, "lgArr 4, a SET's table has 2^5 to 2^7 entries");
        refused(SET, b -> putInt(b, SET_COUNT_INT, -1), SET_COUNT_INT, "set count -1");
        refused(SET, DataSketchesHllHostileImageTest::dropTheValueOfAnEntry, -1, "has value 0");
        refused(SET, DataSketchesHllHostileImageTest::moveAnEntryOffItsProbe, -1, "is off its probe sequence");
        refused(
                COMPACT_SET,
                b -> putInt(b, SET_COUPONS_START + 4, intAt(b, SET_COUPONS_START)),
                SET_COUPONS_START + 4,
                "coupon 1 repeats coupon 0");
        refused(Arrays.copyOf(COMPACT_SET, COMPACT_SET.length + 4), COMPACT_SET.length, "a compact SET of 50 coupons");
    }

    @Test
    void hllFaults() {
        refused(HLL_8, b -> putDouble(b, HIP_ACCUM_DOUBLE, Double.NaN), HIP_ACCUM_DOUBLE, "is not a finite number");
        refused(HLL_8, b -> putDouble(b, HIP_ACCUM_DOUBLE, -1), HIP_ACCUM_DOUBLE, "HIP accumulator -1.0 is negative");
        refused(HLL_8, b -> putDouble(b, KXQ0_DOUBLE, Double.POSITIVE_INFINITY), KXQ0_DOUBLE, "kxq0 Infinity");
        refused(HLL_8, b -> putDouble(b, KXQ0_DOUBLE, 2 * doubleAt(b, KXQ0_DOUBLE)), KXQ0_DOUBLE, "kxq0 + kxq1 is");
        refused(HLL_8, b -> putInt(b, NUM_AT_CUR_MIN_INT, 65), NUM_AT_CUR_MIN_INT, "numAtCurMin 65, expected 0 to 64");
        refused(
                HLL_8,
                b -> putInt(b, NUM_AT_CUR_MIN_INT, intAt(b, NUM_AT_CUR_MIN_INT) + 1),
                NUM_AT_CUR_MIN_INT,
                "registers hold curMin 0");
        refused(HLL_8, b -> b[REGISTERS_START + 5] = 64, REGISTERS_START + 5, "register 5 is 64, above 63");
        refused(HLL_8, b -> putInt(b, AUX_COUNT_INT, 1), AUX_COUNT_INT, "only an HLL_4 has an aux table");
        refused(HLL_8, b -> b[LG_ARR_BYTE] = 3, LG_ARR_BYTE, "an HLL_8 image has no table to size");
        refused(HLL_8, b -> b[FLAGS_BYTE] |= 4, FLAGS_BYTE, "the empty flag is set on an HLL-mode image");
        refused(HLL_8, b -> b[6] = 64, 6, "curMin 64, expected 0 to 63");
        refused(HLL_8, b -> b[6] = 60, REGISTERS_START, "below curMin 60");
        refused(Arrays.copyOf(HLL_8, HLL_8.length + 1), HLL_8.length, "an HLL_8 image of lgK 6 takes 104");
        refused(HLL_6, b -> b[b.length - 1] = 1, HLL_6.length - 1, "the padding byte after the last register");
    }

    @Test
    void auxTableFaults() {
        int auxCount = DataSketchesHllImages.auxCount(HLL_4);
        refused(HLL_4, b -> putInt(b, AUX_COUNT_INT, auxCount + 1), AUX_COUNT_INT, "yet the table holds");
        refused(HLL_4, b -> putInt(b, AUX_COUNT_INT, auxCount - 1), AUX_COUNT_INT, "hold the exception token");
        refused(HLL_4, b -> putInt(b, AUX_COUNT_INT, -1), AUX_COUNT_INT, "aux count -1, expected 0 to");
        refused(HLL_4, b -> b[LG_ARR_BYTE] = 1, LG_ARR_BYTE, "an aux table of lgK");
        int auxStart = COMPACT_HLL_4.length - 4 * DataSketchesHllImages.auxCount(COMPACT_HLL_4);
        int lgK = COMPACT_HLL_4[LG_K_BYTE];
        int entry = intAt(COMPACT_HLL_4, auxStart);
        int curMin = COMPACT_HLL_4[6];
        refused(
                COMPACT_HLL_4,
                b -> putInt(b, auxStart, (curMin + 14) << 26 | entry & 0x3FF_FFFF),
                auxStart,
                "expected " + (curMin + 15) + " to 63");
        refused(
                COMPACT_HLL_4,
                b -> putInt(b, auxStart, entry & ~0x3FF_FFFF | 1 << lgK),
                auxStart,
                "names slot " + (1 << lgK) + " of " + (1 << lgK));
        refused(
                COMPACT_HLL_4,
                b -> putInt(b, auxStart, entry & ~0x3FF_FFFF | ordinarySlot(b)),
                -1,
                "the aux table has no entry for it");
        refused(Arrays.copyOf(COMPACT_HLL_4, COMPACT_HLL_4.length - 1), COMPACT_HLL_4.length - 1, "compact HLL_4");
    }

    @Test
    void everyTruncationOfARealImageIsRefused() {
        for (byte[] image : List.of(LIST, SET, COMPACT_SET, HLL_8, HLL_6, HLL_4, COMPACT_HLL_4)) {
            for (int length = 0; length < image.length; length++) {
                byte[] torn = Arrays.copyOf(image, length);
                assertThrows(
                        ForeignSketchException.class, () -> DataSketchesHllReader.read(torn, null), "length " + length);
            }
        }
    }

    @Test
    void anyCorruptedByteIsRefusedOrStillAnImage() {
        List<byte[]> images = List.of(LIST, SET, COMPACT_SET, HLL_8, HLL_6, HLL_4, COMPACT_HLL_4);
        qt().withFixedSeed(2108L)
                .withExamples(3_000)
                .forAll(
                        integers().between(0, images.size() - 1),
                        integers().between(0, 1 << 20),
                        integers().between(1, 255))
                .checkAssert((which, position, flip) -> {
                    byte[] image = images.get(which).clone();
                    int offset = position % image.length;
                    image[offset] ^= (byte) flip.intValue();
                    try {
                        double estimate =
                                DataSketchesHllReader.read(image, null).estimate();
                        assertTrue(Double.isFinite(estimate) && estimate >= 0, "estimate " + estimate);
                    } catch (ForeignSketchException refused) {
                        assertTrue(refused.offset() >= 0 && refused.offset() <= image.length, refused.getMessage());
                    }
                });
    }

    /** A slot of an HLL_4 image whose nibble is not the exception token. */
    private static int ordinarySlot(byte[] image) {
        for (int slot = 0; ; slot++) {
            if ((image[REGISTERS_START + slot / 2] >> (slot % 2 * 4) & 0xF) != 15) {
                return slot;
            }
        }
    }

    /** Clears the value bits of the set's first occupied entry, leaving its address. */
    private static void dropTheValueOfAnEntry(byte[] image) {
        for (int offset = SET_COUPONS_START; ; offset += 4) {
            int coupon = intAt(image, offset);
            if (coupon != 0) {
                int address = coupon & 0x3FF_FFFF;
                putInt(image, offset, address == 0 ? 1 : address);
                return;
            }
        }
    }

    /** Moves the entry of the set's table nearest its end into the table's last empty entry before it. */
    private static void moveAnEntryOffItsProbe(byte[] image) {
        int lgArr = image[LG_ARR_BYTE];
        int entries = 1 << lgArr;
        for (int i = 0; i < entries; i++) {
            int from = SET_COUPONS_START + 4 * i;
            int coupon = intAt(image, from);
            int home = coupon & (entries - 1);
            int empty = (home + entries - 1) % entries;
            if (coupon != 0 && intAt(image, SET_COUPONS_START + 4 * empty) == 0) {
                putInt(image, from, 0);
                putInt(image, SET_COUPONS_START + 4 * empty, coupon);
                return;
            }
        }
        throw new AssertionError("no entry to move");
    }

    private static void refused(byte[] image, Consumer<byte[]> forge, long offset, String fault) {
        byte[] forged = image.clone();
        forge.accept(forged);
        refused(forged, offset, fault);
    }

    /** Checks the refusal's offset (unless -1) and that its message holds {@code fault}. */
    private static void refused(byte[] image, long offset, String fault) {
        ForeignSketchException e =
                assertThrows(ForeignSketchException.class, () -> DataSketchesHllReader.read(image, null));
        assertTrue(e.getMessage().contains(fault), e.getMessage());
        assertTrue(e.getMessage().startsWith("foreign bytes: not a datasketches-hll sketch: at byte "), e.getMessage());
        if (offset >= 0) {
            assertEquals(offset, e.offset(), e.getMessage());
        }
    }

    private static ByteBuffer le(byte[] image) {
        return ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static int intAt(byte[] image, int offset) {
        return le(image).getInt(offset);
    }

    private static double doubleAt(byte[] image, int offset) {
        return le(image).getDouble(offset);
    }

    private static void putInt(byte[] image, int offset, int value) {
        le(image).putInt(offset, value);
    }

    private static void putDouble(byte[] image, int offset, double value) {
        le(image).putDouble(offset, value);
    }
}
