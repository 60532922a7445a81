package io.mapsketch.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.SketchImage;
import io.mapsketch.cardinality.HyperLogLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.apache.datasketches.hll.HllSketch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DataSketchesHll#importAnonymous}: the sketch {@code importFrom} creates in a file, held off-heap
 * instead, for images of every mode and type, in order and out of order; bad bytes are refused as the file
 * import refuses them.
 */
class DataSketchesHllAnonymousImportTest {

    @TempDir
    Path dir;

    @Test
    void anAnonymousImportIsTheSketchTheFileImportCreates() throws IOException {
        int lgK = 12;
        int promotion = DataSketchesHllLayout.promotionCoupons(lgK);
        List<byte[]> images = new ArrayList<>();
        for (int keys : new int[] {0, 1, 7, promotion - 1, promotion + 1, 20_000}) {
            for (DataSketchesHllType type : DataSketchesHllType.values()) {
                HllSketch sketch = DataSketchesReplay.heapSketch(
                        lgK, type, LongStream.range(0, keys).toArray());
                images.add(sketch.toCompactByteArray());
                images.add(sketch.toUpdatableByteArray());
            }
        }
        HllSketch left = DataSketchesReplay.heapSketch(
                lgK, DataSketchesHllType.HLL_8, LongStream.range(0, 9_000).toArray());
        HllSketch right = DataSketchesReplay.heapSketch(
                lgK, DataSketchesHllType.HLL_4, LongStream.range(5_000, 30_000).toArray());
        images.add(DataSketchesReplay.union(lgK, left, right)
                .getResult(DataSketchesReplay.target(DataSketchesHllType.HLL_8))
                .toUpdatableByteArray());
        for (int i = 0; i < images.size(); i++) {
            byte[] image = images.get(i);
            double theirs = HllSketch.heapify(image).getEstimate();
            for (OpenMode mode : new OpenMode[] {OpenMode.SHARED, OpenMode.EXCLUSIVE}) {
                String what = "image " + i + " " + mode;
                Path file = dir.resolve(i + "-" + mode + ".hll");
                try (HyperLogLog mapped = DataSketchesHll.importFrom(image, file, mode);
                        HyperLogLog anonymous = DataSketchesHll.importAnonymous(image, mode)) {
                    assertFalse(anonymous.file().isPresent(), what);
                    assertEquals(mapped.estimator(), anonymous.estimator(), what);
                    assertEquals(mapped.estimate(), anonymous.estimate(), what);
                    assertEquals(theirs, anonymous.estimate(), 1e-9 * theirs, what);
                    if (mode == OpenMode.SHARED) {
                        assertArrayEquals(
                                SketchImage.toBytes(mapped, Instant.EPOCH),
                                SketchImage.toBytes(anonymous, Instant.EPOCH),
                                what);
                    }
                }
            }
            try (HyperLogLog anonymous = DataSketchesHll.importAnonymous(image, OpenMode.SHARED);
                    HyperLogLog reopened =
                            (HyperLogLog) SketchImage.open(SketchImage.toBytes(anonymous), OpenMode.READ_ONLY)) {
                assertEquals(anonymous.estimator(), reopened.estimator(), "image " + i + " reopened");
                assertEquals(theirs, reopened.estimate(), 1e-9 * theirs, "image " + i + " reopened");
            }
        }
    }

    @Test
    void badBytesAreRefusedAsTheFileImportRefusesThem() throws IOException {
        byte[] image = DataSketchesReplay.heapSketch(12, DataSketchesHllType.HLL_8, new long[] {1, 2, 3})
                .toCompactByteArray();
        image[1] = 99;
        ForeignSketchException anonymous = assertThrows(
                ForeignSketchException.class, () -> DataSketchesHll.importAnonymous(image, OpenMode.EXCLUSIVE));
        Path target = dir.resolve("refused.hll");
        ForeignSketchException mapped = assertThrows(
                ForeignSketchException.class, () -> DataSketchesHll.importFrom(image, target, OpenMode.EXCLUSIVE));
        assertEquals(mapped.getMessage(), anonymous.getMessage());
        assertFalse(Files.exists(target));
        assertTrue(anonymous.getMessage().contains("at byte 1"), anonymous.getMessage());
    }
}
