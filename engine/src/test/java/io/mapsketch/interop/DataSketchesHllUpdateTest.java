package io.mapsketch.interop;

import static io.mapsketch.enginetesting.KeyGenerators.keys;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.strings;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.datasketches.hash.MurmurHash3;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;
import org.junit.jupiter.api.Test;

/**
 * The update rule is DataSketches': slot from the first hash half, value from the second's leading
 * zeros capped at 63, coupons as LIST mode stores them, for {@code long}, {@code String} and
 * {@code byte[]} keys encoded as DataSketches encodes them.
 */
class DataSketchesHllUpdateTest {

    @Test
    void theValueIsTheLeadingZerosPlusOneCappedAt63() {
        assertEquals(1, DataSketchesHllUpdate.value(-1L));
        assertEquals(2, DataSketchesHllUpdate.value(0x4000_0000_0000_0000L));
        assertEquals(62, DataSketchesHllUpdate.value(0b100L));
        assertEquals(63, DataSketchesHllUpdate.value(0b10L));
        assertEquals(63, DataSketchesHllUpdate.value(1L));
        assertEquals(63, DataSketchesHllUpdate.value(0L));
    }

    @Test
    void theSlotIsTheLowLgKBitsOfTheFirstHalf() {
        assertEquals(0xF, DataSketchesHllUpdate.slot(-1L, 4));
        assertEquals(0x1F_FFFF, DataSketchesHllUpdate.slot(-1L, 21));
        assertEquals(0x345, DataSketchesHllUpdate.slot(0x1234_5345L, 10));
        assertEquals(63 << 26 | 0x3FF_FFFF, DataSketchesHllUpdate.coupon(-1L, 0L));
    }

    @Test
    void longKeysMakeTheCouponsDataSketchesStores() {
        qt().withFixedSeed(2104L).withExamples(200).forAll(keys(1, 7)).checkAssert(keys -> {
            HllSketch sketch = new HllSketch(12, TgtHllType.HLL_8);
            int[] expected = new int[keys.length];
            for (int i = 0; i < keys.length; i++) {
                sketch.update(keys[i]);
                expected[i] = coupon(MurmurHash3.hash(new long[] {keys[i]}, DataSketchesHllUpdate.SEED));
            }
            assertCoupons(expected, sketch);
        });
    }

    @Test
    void stringKeysHashTheirUtf8BytesAndByteArraysHashThemselves() {
        qt().withFixedSeed(2105L)
                .withExamples(200)
                .forAll(lists().of(strings().allPossible().ofLengthBetween(1, 12))
                        .ofSizeBetween(1, 7))
                .checkAssert(strings -> {
                    HllSketch fromStrings = new HllSketch(12, TgtHllType.HLL_8);
                    HllSketch fromBytes = new HllSketch(12, TgtHllType.HLL_8);
                    int[] expected = new int[strings.size()];
                    for (int i = 0; i < strings.size(); i++) {
                        byte[] utf8 = strings.get(i).getBytes(StandardCharsets.UTF_8);
                        fromStrings.update(strings.get(i));
                        fromBytes.update(utf8);
                        expected[i] = coupon(MurmurHash3.hash(utf8, DataSketchesHllUpdate.SEED));
                    }
                    assertCoupons(expected, fromStrings);
                    assertCoupons(expected, fromBytes);
                });
    }

    @Test
    void emptyStringsAndArraysAreNoUpdate() {
        HllSketch sketch = new HllSketch(12, TgtHllType.HLL_8);
        sketch.update("");
        sketch.update(new byte[0]);
        assertCoupons(new int[0], sketch);
    }

    @Test
    void aStateOutOfRangeIsRefusedNamingLgK() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> DataSketchesHllUpdate.startingEmpty(22));
        assertEquals("lgK is 22, expected 4 to 21", e.getMessage());
    }

    private static int coupon(long[] hash) {
        return DataSketchesHllUpdate.coupon(hash[0], hash[1]);
    }

    private static void assertCoupons(int[] expected, HllSketch sketch) {
        int[] distinct = Arrays.stream(expected).distinct().sorted().toArray();
        int[] actual;
        try {
            actual = ((DataSketchesHllImage.Coupons) DataSketchesHllReader.read(sketch.toCompactByteArray(), null))
                    .coupons();
        } catch (ForeignSketchException e) {
            throw new AssertionError(e);
        }
        Arrays.sort(actual);
        assertArrayEquals(distinct, actual, List.of(sketch.toString()).toString());
    }
}
