package io.mapsketch.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.OpenMode;
import io.mapsketch.cardinality.CardinalityEstimator;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.internal.DataSketchesCoupons;
import io.mapsketch.memory.SketchFileLayout;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coupon word of a file in DataSketches' coupon modes (summary line byte 40, outside the header's
 * checksum): a word no writer leaves, or one that disagrees with the table, is refused on open naming the
 * file and the fault; a file of another scheme or without a coupon area must keep the word zero.
 */
class DataSketchesHllCouponWordTest {

    private static final long WORD_OFFSET = SketchFileLayout.SUMMARY_OFFSET + DataSketchesCoupons.WORD;

    @TempDir
    Path dir;

    private Path listOfThree() throws IOException {
        Path file = dir.resolve("list.hll");
        try (HyperLogLog sketch =
                HyperLogLog.builder().precision(12).dataSketchesHashing().create(file, OpenMode.EXCLUSIVE)) {
            for (long key = 0; key < 3; key++) {
                sketch.add(key);
            }
            assertEquals(CardinalityEstimator.DATASKETCHES_COUPON, sketch.estimator());
        }
        return file;
    }

    private static long word(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer bytes = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
            channel.read(bytes, WORD_OFFSET);
            return bytes.getLong(0);
        }
    }

    private static void forge(Path file, long word) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, word), WORD_OFFSET);
        }
    }

    @Test
    void aListOfThreeCouponsHasTheWordOfItsModeTableAndCount() throws IOException {
        assertEquals(3L << 32 | 3 << 8 | DataSketchesCoupons.LIST, word(listOfThree()));
    }

    @Test
    void wordsNoWriterLeavesAreRefusedNamingTheFault() throws IOException {
        long list = 3 << 8 | DataSketchesCoupons.LIST;
        for (long forged :
                new long[] {3, 1L << 20, 9L << 32 | list, 4 << 8 | DataSketchesCoupons.SET, 5L << 32 | list}) {
            Path file = listOfThree();
            forge(file, forged);
            for (OpenMode mode : OpenMode.values()) {
                CorruptSketchFileException refused = assertThrows(
                        CorruptSketchFileException.class,
                        () -> HyperLogLog.open(file, mode).close());
                assertTrue(refused.getMessage().contains(file.toString()), refused.getMessage());
                assertTrue(
                        refused.getMessage().contains("coupon word")
                                || refused.getMessage().contains("coupon area"),
                        refused.getMessage());
            }
            Files.delete(file);
        }
    }

    @Test
    void aFileWithoutCouponsKeepsTheWordZero() throws IOException {
        Path file = dir.resolve("native.hll");
        HyperLogLog.builder().precision(12).create(file, OpenMode.EXCLUSIVE).close();
        forge(file, 1L << 32 | 3 << 8 | DataSketchesCoupons.LIST);
        CorruptSketchFileException refused =
                assertThrows(CorruptSketchFileException.class, () -> HyperLogLog.open(file, OpenMode.READ_ONLY));
        assertTrue(refused.getMessage().contains("reserved"), refused.getMessage());
    }
}
