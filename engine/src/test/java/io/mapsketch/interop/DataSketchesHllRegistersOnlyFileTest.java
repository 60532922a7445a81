package io.mapsketch.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.mapsketch.OpenMode;
import io.mapsketch.cardinality.CardinalityEstimator;
import io.mapsketch.cardinality.HyperLogLog;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HyperLogLog files of DataSketches' scheme written before the coupon area existed (registers only) open and
 * answer as they did, take adds in HLL mode as DataSketches would, and keep their layout. Both golden files
 * were created by mapsketch at commit 15a60d4: {@code ds-registers-only-p10.sketch} imports the updatable
 * HLL_8 image of the {@code long} keys 0 to 2,999 at lgK 10, then adds 3,000 to 3,999 as its exclusive
 * writer; {@code ds-registers-only-p12-five-keys.sketch} is a new sketch of precision 12 given the keys 0
 * to 4, which that build kept in HLL mode.
 */
class DataSketchesHllRegistersOnlyFileTest {

    /** The estimates of the golden files when they were written, as the bits of the doubles. */
    private static final long P10_ESTIMATE_BITS = 4_661_329_003_533_239_346L;

    private static final long P12_ESTIMATE_BITS = 4_617_317_099_208_263_669L;

    @TempDir
    Path dir;

    private Path golden(String name) throws IOException {
        Path file = dir.resolve(name);
        try (InputStream golden = getClass().getResourceAsStream("/" + name)) {
            Files.copy(golden, file);
        }
        return file;
    }

    @Test
    void anImportedFileAnswersAsItDidAndGoesOnAsDataSketches() throws IOException {
        Path file = golden("ds-registers-only-p10.sketch");
        long size = Files.size(file);
        HllSketch theirs = new HllSketch(10, TgtHllType.HLL_8);
        for (long key = 0; key < 4000; key++) {
            theirs.update(key);
        }
        try (HyperLogLog reader = HyperLogLog.open(file, OpenMode.READ_ONLY)) {
            assertEquals(CardinalityEstimator.DATASKETCHES_HIP, reader.estimator());
            assertEquals(P10_ESTIMATE_BITS, Double.doubleToLongBits(reader.estimate()));
            assertEquals(theirs.getEstimate(), reader.estimate(), theirs.getEstimate() * 1e-9);
            assertNull(reader.dataSketchesCoupons());
            assertArrayEquals(theirs.toUpdatableByteArray(), DataSketchesHll.exportTo(reader));
        }
        try (HyperLogLog writer = HyperLogLog.open(file, OpenMode.EXCLUSIVE)) {
            for (long key = 4000; key < 5000; key++) {
                writer.add(key);
                theirs.update(key);
            }
            assertEquals(theirs.getEstimate(), writer.estimate(), theirs.getEstimate() * 1e-9);
            assertArrayEquals(theirs.toUpdatableByteArray(), DataSketchesHll.exportTo(writer));
        }
        assertEquals(size, Files.size(file));
    }

    @Test
    void aSketchBuiltBeforeTheCouponModesStaysInHllMode() throws IOException {
        Path file = golden("ds-registers-only-p12-five-keys.sketch");
        long size = Files.size(file);
        try (HyperLogLog reader = HyperLogLog.open(file, OpenMode.READ_ONLY)) {
            assertEquals(CardinalityEstimator.DATASKETCHES_HIP, reader.estimator());
            assertEquals(P12_ESTIMATE_BITS, Double.doubleToLongBits(reader.estimate()));
        }
        try (HyperLogLog writer = HyperLogLog.open(file, OpenMode.EXCLUSIVE)) {
            for (long key = 5; key < 100; key++) {
                writer.add(key);
            }
            assertEquals(CardinalityEstimator.DATASKETCHES_HIP, writer.estimator());
            assertNull(writer.dataSketchesCoupons());
        }
        try (HyperLogLog shared = HyperLogLog.open(file, OpenMode.SHARED)) {
            shared.add(-1L);
            assertEquals(CardinalityEstimator.DATASKETCHES_COMPOSITE, shared.estimator());
        }
        assertEquals(size, Files.size(file));
    }
}
