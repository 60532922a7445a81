package io.mapsketch.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.OpenMode;
import io.mapsketch.cardinality.CardinalityEstimator;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.testing.HeaderSeal;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The format version of HyperLogLog files: a file of DataSketches' scheme, which has the coupon area, is
 * written at version 6, which a build reading only to version 5 refuses as newer; every other HyperLogLog
 * at version 5, which such builds read. Version 6 with another scheme, or without the area, is refused as
 * corrupt; a version 5 file with the area is read with it.
 */
class DataSketchesHllFormatVersionTest {

    private static final int VERSION_OFFSET = 8;

    @TempDir
    Path dir;

    @Test
    void aFileWithTheCouponAreaIsOfVersionSixAndOthersOfVersionFive() throws IOException {
        Path dataSketches = dir.resolve("ds.hll");
        Path nativeScheme = dir.resolve("native.hll");
        HyperLogLog.builder()
                .precision(12)
                .dataSketchesHashing()
                .create(dataSketches, OpenMode.EXCLUSIVE)
                .close();
        HyperLogLog.builder()
                .precision(12)
                .create(nativeScheme, OpenMode.EXCLUSIVE)
                .close();
        assertEquals(6, versionOf(dataSketches));
        assertEquals(5, versionOf(nativeScheme));
    }

    @Test
    void versionSixOfAnotherSchemeIsRefusedNamingTheVersionAndTheScheme() throws IOException {
        Path file = dir.resolve("native.hll");
        HyperLogLog.builder().precision(12).create(file, OpenMode.EXCLUSIVE).close();
        setVersion(file, 6);
        CorruptSketchFileException refusal =
                assertThrows(CorruptSketchFileException.class, () -> HyperLogLog.open(file, OpenMode.READ_ONLY));
        assertTrue(refusal.getMessage().contains(file.toString()), refusal.getMessage());
        assertTrue(refusal.getMessage().contains("'format version' is 6"), refusal.getMessage());
        assertTrue(refusal.getMessage().contains("XXH3_64"), refusal.getMessage());
    }

    @Test
    void versionSixWithoutTheCouponAreaIsRefusedNamingThePayload() throws IOException {
        Path file = dir.resolve("registers-only.sketch");
        try (InputStream golden = getClass().getResourceAsStream("/ds-registers-only-p10.sketch")) {
            Files.copy(golden, file);
        }
        setVersion(file, 6);
        CorruptSketchFileException refusal =
                assertThrows(CorruptSketchFileException.class, () -> HyperLogLog.open(file, OpenMode.READ_ONLY));
        assertTrue(refusal.getMessage().contains("coupon area"), refusal.getMessage());
    }

    @Test
    void aVersionFiveFileWithTheCouponAreaIsReadWithIt() throws IOException {
        Path file = dir.resolve("ds-five.hll");
        HllSketch theirs = new HllSketch(11, TgtHllType.HLL_8);
        try (HyperLogLog ours =
                HyperLogLog.builder().precision(11).dataSketchesHashing().create(file, OpenMode.EXCLUSIVE)) {
            for (long key = 0; key < 50; key++) {
                ours.add(key);
                theirs.update(key);
            }
        }
        setVersion(file, 5);
        try (HyperLogLog reader = HyperLogLog.open(file, OpenMode.READ_ONLY)) {
            assertNotNull(reader.dataSketchesCoupons());
            assertEquals(CardinalityEstimator.DATASKETCHES_COUPON, reader.estimator());
            assertEquals(theirs.getEstimate(), reader.estimate(), theirs.getEstimate() * 1e-9);
        }
    }

    private static int versionOf(Path file) throws IOException {
        return ByteBuffer.wrap(Files.readAllBytes(file))
                .order(ByteOrder.LITTLE_ENDIAN)
                .getInt(VERSION_OFFSET);
    }

    private static void setVersion(Path file, int version) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(VERSION_OFFSET, version);
        HeaderSeal.rewriteChecksum(bytes);
        Files.write(file, bytes);
    }
}
