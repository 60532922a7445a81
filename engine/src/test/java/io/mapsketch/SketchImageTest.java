package io.mapsketch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BloomFilter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SketchImageTest {

    @TempDir
    Path dir;

    @Test
    void imageWrittenToAFileIsTheFileAndOpensAsItsKind() throws Exception {
        Path file = dir.resolve("users.bf");
        try (BlockedBloomFilter filter = BlockedBloomFilter.builder()
                .expectedItems(1000)
                .falsePositiveRate(0.01)
                .createAnonymous(OpenMode.EXCLUSIVE)) {
            for (long key = 0; key < 500; key++) {
                filter.add(key);
            }
            byte[] image = SketchImage.toBytes(filter);
            assertEquals(4096 + filter.memoryBytes(), image.length);
            SketchImage.create(image, file);
            assertArrayEquals(image, Files.readAllBytes(file));
        }
        try (BlockedBloomFilter opened = BlockedBloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertEquals(500, opened.itemsAdded());
            assertTrue(opened.mightContain(499));
            assertEquals(PayloadVerification.State.OK, opened.verify().state());
        }
    }

    @Test
    void bytesOpenAsAnAnonymousSketchOfTheirKind() throws Exception {
        try (CountMinSketch sketch =
                CountMinSketch.builder().epsilon(0.01).delta(0.01).createAnonymous(OpenMode.SHARED)) {
            sketch.add("page", 7);
            sketch.add(42L, 3);
            byte[] image = SketchImage.toBytes(sketch);
            try (Sketch opened = SketchImage.open(image, OpenMode.EXCLUSIVE)) {
                CountMinSketch copy = assertInstanceOf(CountMinSketch.class, opened);
                assertTrue(copy.file().isEmpty());
                assertEquals(7, copy.estimate("page"));
                assertEquals(3, copy.estimate(42L));
                assertEquals(2, copy.itemsAdded());
                copy.add("page", 1);
                assertEquals(8, copy.estimate("page"));
                assertArrayEquals(image, SketchImage.toBytes(sketch), "the source is not changed");
            }
        }
    }

    @Test
    void equalItemsAtEqualCreationTimesGiveEqualImages() throws Exception {
        byte[][] images = new byte[2][];
        for (int round = 0; round < 2; round++) {
            try (HyperLogLog a = HyperLogLog.builder().precision(12).createAnonymous(OpenMode.EXCLUSIVE);
                    HyperLogLog b = HyperLogLog.builder().precision(12).createAnonymous(OpenMode.EXCLUSIVE)) {
                for (long key = 0; key < 10_000; key++) {
                    (key % 2 == round ? a : b).add(key);
                }
                a.merge(b);
                images[round] = SketchImage.toBytes(a, Instant.EPOCH);
            }
        }
        assertArrayEquals(
                Arrays.copyOfRange(images[0], 4096, images[0].length),
                Arrays.copyOfRange(images[1], 4096, images[1].length));
        assertArrayEquals(images[0], images[1]);
        try (HyperLogLog direct = HyperLogLog.builder().precision(12).createAnonymous(OpenMode.EXCLUSIVE)) {
            for (long key = 0; key < 10_000; key++) {
                direct.add(key);
            }
            byte[] image = SketchImage.toBytes(direct, Instant.EPOCH);
            assertArrayEquals(Arrays.copyOfRange(image, 320, 384), Arrays.copyOfRange(images[0], 320, 384));
            assertArrayEquals(image, images[0], "merged or added, the same registers give the same image");
        }
    }

    @Test
    void aDamagedImageIsRefusedNamingItsOrigin() throws Exception {
        byte[] image;
        try (BloomFilter filter =
                BloomFilter.builder().expectedItems(100).falsePositiveRate(0.01).createAnonymous(OpenMode.EXCLUSIVE)) {
            filter.add("a");
            image = SketchImage.toBytes(filter);
        }
        image[4096 + 3] ^= 1;
        CorruptSketchFileException payload = assertThrows(
                CorruptSketchFileException.class,
                () -> SketchImage.open(
                        java.lang.foreign.MemorySegment.ofArray(image), Path.of("shard 3"), OpenMode.READ_ONLY));
        assertTrue(payload.getMessage().contains("shard 3"), payload.getMessage());
        assertTrue(payload.getMessage().contains("payload chunk 0"), payload.getMessage());
        byte[] header = image.clone();
        header[70] ^= 1;
        CorruptSketchFileException crc =
                assertThrows(CorruptSketchFileException.class, () -> SketchImage.open(header, OpenMode.READ_ONLY));
        assertTrue(crc.getMessage().contains("header CRC32C"), crc.getMessage());
        assertThrows(CorruptSketchFileException.class, () -> SketchImage.open(new byte[100], OpenMode.READ_ONLY));
        assertThrows(CorruptSketchFileException.class, () -> SketchImage.create(header, dir.resolve("x")));
        assertTrue(Files.notExists(dir.resolve("x")));
    }

    @Test
    void aReadOnlyCopyRefusesWrites() throws Exception {
        byte[] image;
        try (HyperLogLog sketch = HyperLogLog.builder().precision(10).createAnonymous(OpenMode.EXCLUSIVE)) {
            sketch.add("x");
            image = SketchImage.toBytes(sketch);
        }
        try (HyperLogLog copy = (HyperLogLog) SketchImage.open(image, OpenMode.READ_ONLY)) {
            assertEquals(1.0, copy.estimate(), 0.01);
            assertThrows(IllegalStateException.class, () -> copy.add("y"));
        }
    }
}
