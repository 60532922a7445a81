package io.mapsketch.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.IncompatibleSketchFileException;
import io.mapsketch.SketchFileException;
import io.mapsketch.SketchKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The shared mechanics of the format descriptions, on a description made up here: the refusals'
 * wording, the version check, encoding into slots and the field-by-field comparison of a merge.
 */
class HeaderReaderTest {

    private static final HeaderParameter.Ranged WIDTH = HeaderParameter.powerOfTwo(0, "width", 2, 1024);
    private static final HeaderParameter.Ranged MODE = HeaderParameter.oneOf(2, "mode", 3, 5, 9);
    private static final HeaderParameter.Interval RATIO = HeaderParameter.interval(5, "ratio", 0.5, 2);
    private static final FormatVersions TWO_AND_THREE = new FormatVersions(2, 3, 3);

    /** A description of three parameters in slots 0, 2 and 5, read at versions 2 and 3. */
    private record Made(long width, long mode, double ratio) implements HeaderFormat {

        static Made read(HeaderReader header) throws SketchFileException {
            header.requireVersion(TWO_AND_THREE);
            Made made = new Made(header.read(WIDTH), header.read(MODE), header.read(RATIO));
            header.requirePayload(made.payloadBytes(), "width lines");
            return made;
        }

        @Override
        public SketchKind kind() {
            return SketchKind.MINHASH;
        }

        @Override
        public FormatVersions versions() {
            return TWO_AND_THREE;
        }

        @Override
        public List<HeaderValue> values() {
            return List.of(WIDTH.of(width), MODE.of(mode), RATIO.of(ratio));
        }

        @Override
        public long payloadBytes() {
            return width * 64;
        }
    }

    @Test
    void slotsHoldEachParameterAtItsIndexAndZeroBetween() {
        assertArrayEquals(new long[] {8, 0, 5, 0, 0, Double.doubleToLongBits(1.5)}, new Made(8, 5, 1.5).encode());
    }

    @Test
    void everyParameterOfTheMadeUpKindIsCheckedAtEveryVersionItReads() {
        Map<String, List<? extends Number>> refused = Map.of(
                "width",
                List.of(0L, 1L, 3L, 1000L, 2048L),
                "mode",
                List.of(2L, 4L, 10L),
                "ratio",
                List.of(0.5, 2.0, 0.25, Double.NaN));
        HeaderFormatChecks.checkOne(new Made(16, 9, 0.75), 2, Made::read, refused);
        HeaderFormatChecks.checkOne(new Made(1024, 3, Math.nextDown(2.0)), 3, Made::read, refused);
    }

    @Test
    void refusalsSayWhatTheParameterMayHold() {
        assertEquals("header parameter 'width' (index 0) is 3, expected a power of two", refusal(3, 3, 1));
        assertEquals("header parameter 'width' (index 0) is 2048, expected a value in [2, 1024]", refusal(2048, 3, 1));
        assertEquals("header parameter 'mode' (index 2) is 4, expected 3, 5 or 9", refusal(4, 4, 1));
        assertEquals("header parameter 'ratio' (index 5) is 0.5, expected a value in (0.5, 2.0)", refusal(4, 5, 0.5));
        assertEquals(
                "payload length is 64 bytes, expected 256 (width lines)",
                HeaderFormatChecks.refusal(
                        Made::read, HeaderFormatChecks.reader(new Made(4, 5, 1).encode(), new Made(4, 5, 1), 64, 3)));
    }

    @Test
    void versionsTheKindDoesNotReadAreRefusedAsIncompatible() {
        for (int version : new int[] {1, 4}) {
            HeaderReader header =
                    HeaderFormatChecks.reader(new Made(4, 5, 1).encode(), new Made(4, 5, 1), 256, version);
            IncompatibleSketchFileException refused =
                    assertThrows(IncompatibleSketchFileException.class, () -> Made.read(header));
            assertTrue(
                    refused.getMessage()
                            .endsWith(
                                    "header field 'format version' is " + version
                                            + ", expected 2..3 for a MINHASH sketch; this build does not read that version of the kind"),
                    refused.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> new FormatVersions(0, 4, 4));
        assertThrows(IllegalArgumentException.class, () -> new FormatVersions(2, 4, 1));
        assertThrows(IllegalArgumentException.class, () -> new FormatVersions(1, 3, 4));
    }

    @Test
    void aMergeNamesTheFirstParameterOfTheShapeThatDiffers() {
        Made mine = new Made(8, 5, 1.5);
        mine.requireSame(new Made(8, 5, 0.75), List.of(WIDTH, MODE));
        IncompatibleSketchException differs = assertThrows(
                IncompatibleSketchException.class,
                () -> mine.requireSame(new Made(8, 9, 0.75), List.of(WIDTH, RATIO, MODE)));
        assertTrue(
                differs.getMessage().startsWith("sketches differ in ratio: 1.5 here, 0.75 in the other sketch"),
                differs.getMessage());
        assertThrows(IllegalArgumentException.class, () -> mine.valueOf(HeaderParameter.ranged(1, "absent", 0, 1)));
    }

    private static String refusal(long width, long mode, double ratio) {
        long[] slots = new Made(4, 5, 1).encode();
        slots[0] = width;
        slots[2] = mode;
        slots[5] = Double.doubleToLongBits(ratio);
        return HeaderFormatChecks.refusal(Made::read, HeaderFormatChecks.reader(slots, new Made(4, 5, 1), 256, 3));
    }
}
