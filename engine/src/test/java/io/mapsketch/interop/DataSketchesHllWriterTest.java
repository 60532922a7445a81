package io.mapsketch.interop;

import static io.mapsketch.enginetesting.KeyGenerators.keys;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.stream.LongStream;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;
import org.junit.jupiter.api.Test;

/**
 * The HLL_8 writer gives, byte for byte, the image DataSketches writes with {@code toUpdatableByteArray()}:
 * after the same keys, replayed into registers by the update rule with the HIP state it keeps; after a
 * read of DataSketches' own image; and after DataSketches' conversion of HLL_4 and HLL_6 sketches and
 * union results to HLL_8.
 */
class DataSketchesHllWriterTest {

    @Test
    void theRegistersAndHipStateOfReplayedKeysWriteTheImageDataSketchesWrites() {
        qt().withFixedSeed(2102L)
                .withExamples(150)
                .forAll(keys(0, 6_000), integers().between(4, 12))
                .checkAssert((keys, lgK) -> {
                    HllSketch sketch = DataSketchesReplay.heapSketch(lgK, DataSketchesHllType.HLL_8, keys);
                    DataSketchesReplay replay = DataSketchesReplay.of(lgK, keys);
                    if (replay.mode() == DataSketchesHllMode.HLL) {
                        assertArrayEquals(
                                sketch.toUpdatableByteArray(),
                                DataSketchesHllWriter.updatableHll8(replay.registerImage()));
                    } else {
                        assertInstanceOf(DataSketchesHllImage.Coupons.class, read(sketch.toUpdatableByteArray()));
                    }
                });
    }

    @Test
    void keysThroughThePromotionToHllModeWriteTheImageDataSketchesWrites() {
        for (int lgK : new int[] {4, 7, 8, 10, 14, 17, 21}) {
            int promotion = DataSketchesHllEstimateTest.modeSwitches(lgK).getLast();
            for (int n : new int[] {promotion, promotion + 1, 2 * promotion, 3 << lgK}) {
                long[] keys = LongStream.range(0, n).toArray();
                HllSketch sketch = DataSketchesReplay.heapSketch(lgK, DataSketchesHllType.HLL_8, keys);
                byte[] expected = sketch.toUpdatableByteArray();
                assertArrayEquals(
                        expected,
                        DataSketchesHllWriter.updatableHll8(
                                DataSketchesReplay.of(lgK, keys).registerImage()),
                        "lgK " + lgK + ", " + n + " keys");
                assertArrayEquals(
                        expected,
                        DataSketchesHllWriter.updatableHll8(DataSketchesReplay.directSketchRead(lgK, keys)),
                        "lgK " + lgK + ", " + n + " keys, direct");
            }
        }
    }

    @Test
    void everyHllModeImageConvertedToHll8WritesWhatDataSketchesConvertsItTo() {
        qt().withFixedSeed(2103L)
                .withExamples(100)
                .forAll(
                        keys(200, 5_000),
                        keys(0, 5_000),
                        integers().between(4, 10),
                        integers().between(0, 2))
                .checkAssert((left, right, lgK, typeIndex) -> {
                    DataSketchesHllType type = DataSketchesHllType.values()[typeIndex];
                    HllSketch sketch = DataSketchesReplay.heapSketch(lgK, type, left);
                    HllSketch union = DataSketchesReplay.union(
                                    lgK, sketch, DataSketchesReplay.heapSketch(lgK, type, right))
                            .getResult(DataSketchesReplay.target(type));
                    for (HllSketch each : new HllSketch[] {sketch, union}) {
                        for (byte[] image : new byte[][] {each.toUpdatableByteArray(), each.toCompactByteArray()}) {
                            if (read(image) instanceof DataSketchesHllImage.Registers registers) {
                                assertArrayEquals(
                                        HllSketch.heapify(image)
                                                .copyAs(TgtHllType.HLL_8)
                                                .toUpdatableByteArray(),
                                        DataSketchesHllWriter.updatableHll8(registers.asHll8()));
                            }
                        }
                    }
                });
    }

    @Test
    void couponsPromotedToHll8WriteWhatDataSketchesWritesAtThePromotion() {
        for (int lgK : new int[] {4, 6, 8, 11, 15}) {
            int promotion = DataSketchesHllEstimateTest.modeSwitches(lgK).getLast();
            long[] before = LongStream.range(0, promotion - 1).toArray();
            DataSketchesReplay replay = DataSketchesReplay.of(lgK, before);
            replay.add(promotion - 1);
            HllSketch sketch = DataSketchesReplay.heapSketch(
                    lgK,
                    DataSketchesHllType.HLL_8,
                    LongStream.range(0, promotion).toArray());
            assertArrayEquals(
                    sketch.toUpdatableByteArray(), DataSketchesHllWriter.updatableHll8(replay.registerImage()));
            DataSketchesHllImage.Coupons coupons = (DataSketchesHllImage.Coupons)
                    read(DataSketchesReplay.heapSketch(lgK, DataSketchesHllType.HLL_8, before)
                            .toCompactByteArray());
            assertEquals(promotion - 1, coupons.couponCount());
        }
    }

    @Test
    void onlyHll8RegistersAreWritten() {
        DataSketchesHllImage.Registers hll4 = (DataSketchesHllImage.Registers) read(DataSketchesReplay.heapSketch(
                        5, DataSketchesHllType.HLL_4, LongStream.range(0, 500).toArray())
                .toUpdatableByteArray());
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> DataSketchesHllWriter.updatableHll8(hll4));
        assertEquals("sketch type is HLL_4, expected HLL_8 (see asHll8())", e.getMessage());
    }

    private static DataSketchesHllImage read(byte[] image) {
        try {
            return DataSketchesHllReader.read(image, null);
        } catch (ForeignSketchException e) {
            throw new AssertionError(e);
        }
    }
}
