package io.mapsketch.interop;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;

/** Real DataSketches images of each mode and type, for tests that read or forge them. */
final class DataSketchesHllImages {

    private DataSketchesHllImages() {}

    static byte[] of(int lgK, DataSketchesHllType type, int keys, boolean compact) {
        HllSketch sketch = DataSketchesReplay.heapSketch(
                lgK, type, LongStream.range(0, keys).toArray());
        return compact ? sketch.toCompactByteArray() : sketch.toUpdatableByteArray();
    }

    static int auxCount(byte[] image) {
        return ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN).getInt(DataSketchesHllLayout.AUX_COUNT_INT);
    }

    /**
     * The first HLL_4 image with at least {@code exceptions} aux entries that a heap sketch of lgK 12
     * writes, looked at every 1,000 random keys (seeded): with 4,096 registers the largest is usually
     * 15 or more above the smallest once the sketch is in HLL mode.
     */
    static byte[] hll4WithExceptions(int exceptions, boolean compact) {
        SplittableRandom random = new SplittableRandom(2106L);
        HllSketch sketch = new HllSketch(12, TgtHllType.HLL_4);
        while (true) {
            for (int i = 0; i < 1_000; i++) {
                sketch.update(random.nextLong());
            }
            byte[] image = compact ? sketch.toCompactByteArray() : sketch.toUpdatableByteArray();
            if (image[DataSketchesHllLayout.MODE_BYTE] == 2 && auxCount(image) >= exceptions) {
                return image;
            }
        }
    }

    /**
     * An updatable image of a direct HLL_4 sketch whose aux count outlived its last exception (a rise of
     * curMin turned it into an ordinary nibble), with the heap sketch of the same keys.
     */
    static byte[][] directHll4WithStaleAuxEntry() {
        SplittableRandom random = new SplittableRandom(2107L);
        while (true) {
            TgtHllType type = TgtHllType.HLL_4;
            HllSketch heap = new HllSketch(4, type);
            HllSketch direct = new HllSketch(
                    4, type, MemorySegment.ofArray(new byte[HllSketch.getMaxUpdatableSerializationBytes(4, type)]));
            for (int i = 0; i < 3_000; i++) {
                long key = random.nextLong();
                heap.update(key);
                direct.update(key);
                byte[] image = direct.toUpdatableByteArray();
                if (image[DataSketchesHllLayout.MODE_BYTE] == 2 && auxCount(image) > 0 && tokens(image) == 0) {
                    return new byte[][] {image, heap.toUpdatableByteArray()};
                }
            }
        }
    }

    private static int tokens(byte[] image) {
        int tokens = 0;
        for (int slot = 0; slot < 16; slot++) {
            if ((image[DataSketchesHllLayout.REGISTERS_START + slot / 2] >> (slot % 2 * 4) & 0xF) == 15) {
                tokens++;
            }
        }
        return tokens;
    }
}
