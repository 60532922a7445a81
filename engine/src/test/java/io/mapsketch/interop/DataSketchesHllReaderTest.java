package io.mapsketch.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.stream.LongStream;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;
import org.junit.jupiter.api.Test;

/**
 * What the reader takes out of real DataSketches images: empty sketches, coupons, HLL_6 and HLL_8
 * registers, HLL_4 registers with their exceptions resolved through the aux table (updatable and
 * compact), and the stale aux entry a direct HLL_4 sketch leaves behind.
 */
class DataSketchesHllReaderTest {

    @Test
    void emptySketchesReadAsListsWithoutCoupons() throws ForeignSketchException {
        for (DataSketchesHllType type : DataSketchesHllType.values()) {
            for (boolean compact : new boolean[] {false, true}) {
                byte[] image = DataSketchesHllImages.of(12, type, 0, compact);
                assertEquals(compact ? 8 : 40, image.length);
                DataSketchesHllImage.Coupons read =
                        (DataSketchesHllImage.Coupons) DataSketchesHllReader.read(image, null);
                assertEquals(DataSketchesHllMode.LIST, read.mode());
                assertEquals(type, read.type());
                assertEquals(compact, read.compact());
                assertEquals(0, read.couponCount());
                assertEquals(0.0, read.estimate());
                assertEquals(DataSketchesHllEstimator.COUPON, read.estimator());
            }
        }
    }

    @Test
    void registersOfEveryTypeAreTheValuesTheKeysSet() throws ForeignSketchException {
        long[] keys = LongStream.range(0, 40_000).toArray();
        byte[] expected = DataSketchesReplay.of(9, keys).registerImage().registers();
        for (DataSketchesHllType type : DataSketchesHllType.values()) {
            HllSketch sketch = DataSketchesReplay.heapSketch(9, type, keys);
            for (byte[] image : new byte[][] {sketch.toUpdatableByteArray(), sketch.toCompactByteArray()}) {
                DataSketchesHllImage.Registers read =
                        (DataSketchesHllImage.Registers) DataSketchesHllReader.read(image, null);
                assertEquals(type, read.type());
                assertArrayEquals(expected, read.registers(), type.toString());
                assertEquals(DataSketchesHllEstimator.HIP, read.estimator());
                assertEquals(sketch.getEstimate(), read.estimate());
            }
        }
    }

    @Test
    void hll4ExceptionsResolveThroughTheAuxTableUpdatableAndCompact() throws ForeignSketchException {
        for (boolean compact : new boolean[] {false, true}) {
            byte[] image = DataSketchesHllImages.hll4WithExceptions(2, compact);
            DataSketchesHllImage.Registers read =
                    (DataSketchesHllImage.Registers) DataSketchesHllReader.read(image, null);
            int curMin = read.state().curMin();
            int exceptions = 0;
            for (int slot = 0; slot < 1 << read.lgK(); slot++) {
                if (read.register(slot) >= curMin + 15) {
                    exceptions++;
                }
            }
            assertEquals(DataSketchesHllImages.auxCount(image), exceptions);
            assertEquals(compact, read.compact());
            byte[] asHll8 = HllSketch.heapify(image).copyAs(TgtHllType.HLL_8).toUpdatableByteArray();
            assertArrayEquals(
                    ((DataSketchesHllImage.Registers) DataSketchesHllReader.read(asHll8, null)).registers(),
                    read.registers());
        }
    }

    @Test
    void aStaleAuxEntryOfADirectHll4SketchIsIgnoredAsDataSketchesIgnoresIt() throws ForeignSketchException {
        byte[][] images = DataSketchesHllImages.directHll4WithStaleAuxEntry();
        DataSketchesHllImage.Registers direct =
                (DataSketchesHllImage.Registers) DataSketchesHllReader.read(images[0], null);
        DataSketchesHllImage.Registers heap =
                (DataSketchesHllImage.Registers) DataSketchesHllReader.read(images[1], null);
        assertArrayEquals(heap.registers(), direct.registers());
        assertEquals(HllSketch.heapify(images[0]).getEstimate(), direct.estimate());
    }

    @Test
    void copiesGoInAndOut() throws ForeignSketchException {
        DataSketchesHllImage.Registers read = (DataSketchesHllImage.Registers)
                DataSketchesHllReader.read(DataSketchesHllImages.of(6, DataSketchesHllType.HLL_8, 500, false), null);
        byte[] registers = read.registers();
        registers[0] = 99;
        assertFalse(read.register(0) == 99);
        assertTrue(read.equals(
                DataSketchesHllReader.read(DataSketchesHllImages.of(6, DataSketchesHllType.HLL_8, 500, false), null)));
    }

    @Test
    void aFaultNamesTheFileTheOffsetAndTheFault() {
        byte[] image = DataSketchesHllImages.of(12, DataSketchesHllType.HLL_8, 3, false);
        image[DataSketchesHllLayout.SERIAL_VERSION_BYTE] = 2;
        ForeignSketchException e = assertThrows(
                ForeignSketchException.class, () -> DataSketchesHllReader.read(image, Path.of("spark-hll.bin")));
        assertEquals(
                "spark-hll.bin: not a datasketches-hll sketch: at byte 1, serial version 2, expected 1",
                e.getMessage());
        assertEquals(Path.of("spark-hll.bin"), e.file());
        assertEquals("datasketches-hll", e.format());
        assertEquals(1, e.offset());
    }
}
