package io.mapsketch.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.OpenMode;
import io.mapsketch.cardinality.CardinalityEstimator;
import io.mapsketch.cardinality.HyperLogLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.HllUnion;
import org.apache.datasketches.hll.TgtHllType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DataSketchesHll} and the DataSketches scheme of {@link HyperLogLog} against datasketches-java
 * 9.1.0: images of every mode, type and form around each mode switch import with DataSketches' own
 * estimate; after the same further updates on both sides an export is the HLL_8 image DataSketches
 * writes; keys of every form hash as {@code HllSketch.update} does; SHARED writers and merges answer
 * the composite estimate DataSketches gives the same registers out of order; bad bytes write nothing.
 */
class DataSketchesHllTest {

    private static final long FURTHER_KEYS = 1L << 40;

    @TempDir
    Path dir;

    private int files;

    @Test
    void everyImageImportsWithDataSketchesEstimateAndExportsAsDataSketchesAfterTheSameUpdates() throws IOException {
        for (int lgK : new int[] {4, 12, 21}) {
            int promotion = DataSketchesHllLayout.promotionCoupons(lgK);
            for (int keys : new int[] {0, 1, 7, 8, promotion - 1, promotion, promotion + 1, promotion + (3 << 12)}) {
                for (TgtHllType type : TgtHllType.values()) {
                    HllSketch source = heap(lgK, type, LongStream.range(0, keys));
                    for (boolean compact : new boolean[] {false, true}) {
                        byte[] image = compact ? source.toCompactByteArray() : source.toUpdatableByteArray();
                        checkRoundTrip(image, lgK + " " + type + " " + keys + (compact ? " compact" : " updatable"));
                    }
                }
            }
        }
    }

    /** Imports, compares the estimate, adds the same keys on both sides and compares an export. */
    private void checkRoundTrip(byte[] image, String what) throws IOException {
        HllSketch theirs = HllSketch.heapify(image);
        DataSketchesHllImage read = DataSketchesHllReader.read(image, null);
        try (HyperLogLog ours = DataSketchesHll.importFrom(image, newFile(), OpenMode.EXCLUSIVE)) {
            assertClose(theirs.getEstimate(), ours.estimate(), what);
            assertEquals(
                    switch (read.estimator()) {
                        case COUPON -> CardinalityEstimator.DATASKETCHES_COUPON;
                        case HIP -> CardinalityEstimator.DATASKETCHES_HIP;
                        case COMPOSITE -> CardinalityEstimator.DATASKETCHES_COMPOSITE;
                    },
                    ours.estimator(),
                    what);
            for (long key = FURTHER_KEYS; key < FURTHER_KEYS + 500; key++) {
                ours.add(key);
                theirs.update(key);
            }
            assertClose(theirs.getEstimate(), ours.estimate(), what + " after further updates");
            assertArrayEquals(
                    theirs.copyAs(TgtHllType.HLL_8).toUpdatableByteArray(), DataSketchesHll.exportTo(ours), what);
        }
    }

    @Test
    void aSketchBuiltInTheSchemeExportsTheRegistersAndHipStateDataSketchesReaches() {
        qt().withFixedSeed(ForeignKeys.QT_SEED)
                .withExamples(30)
                .forAll(ForeignKeys.longLists(3000))
                .checkAssert(keys -> {
                    int lgK = 4 + Math.floorMod(keys.hashCode(), 8);
                    try (HyperLogLog ours = newSketch(lgK)) {
                        HllSketch theirs = new HllSketch(lgK, TgtHllType.HLL_8);
                        for (long key : keys) {
                            ours.add(key);
                            theirs.update(key);
                        }
                        byte[] theirBytes = theirs.toUpdatableByteArray();
                        if (DataSketchesHllReader.read(theirBytes, null).mode() == DataSketchesHllMode.HLL) {
                            byte[] exported = DataSketchesHll.exportTo(ours);
                            assertArrayEquals(
                                    Arrays.copyOfRange(theirBytes, 40, theirBytes.length),
                                    Arrays.copyOfRange(exported, 40, exported.length));
                        }
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    @Test
    void stringsAndBytesHashAsHllSketchUpdateDoes() {
        qt().withFixedSeed(ForeignKeys.QT_SEED)
                .withExamples(30)
                .forAll(ForeignKeys.stringLists(400))
                .checkAssert(strings -> checkForms(strings));
        qt().withFixedSeed(ForeignKeys.QT_SEED)
                .withExamples(30)
                .forAll(ForeignKeys.byteArrayLists(400))
                .checkAssert(arrays -> {
                    int lgK = 10;
                    HllSketch theirs = promotedSketch(lgK);
                    try (HyperLogLog ours =
                            DataSketchesHll.importFrom(theirs.toUpdatableByteArray(), newFile(), OpenMode.EXCLUSIVE)) {
                        for (byte[] key : arrays) {
                            theirs.update(key);
                            ours.add(key, 0, key.length);
                        }
                        assertArrayEquals(theirs.toUpdatableByteArray(), DataSketchesHll.exportTo(ours));
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    private void checkForms(List<String> strings) {
        int lgK = 10;
        HllSketch theirs = promotedSketch(lgK);
        try (HyperLogLog ours =
                DataSketchesHll.importFrom(theirs.toUpdatableByteArray(), newFile(), OpenMode.EXCLUSIVE)) {
            for (String key : strings) {
                theirs.update(key);
                ours.add(key);
            }
            assertArrayEquals(theirs.toUpdatableByteArray(), DataSketchesHll.exportTo(ours));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** A sketch already in HLL mode, so that every further update goes to its registers on both sides. */
    private static HllSketch promotedSketch(int lgK) {
        return heap(lgK, TgtHllType.HLL_8, LongStream.range(-(4L << lgK), 0));
    }

    @Test
    void theHipAccumulatorSurvivesACloseAndAReopenByTheExclusiveWriter() throws IOException {
        HllSketch theirs = heap(14, TgtHllType.HLL_4, LongStream.range(0, 40_000));
        Path file = newFile();
        DataSketchesHll.importFrom(theirs.toCompactByteArray(), file, OpenMode.EXCLUSIVE)
                .close();
        for (int session = 0; session < 3; session++) {
            try (HyperLogLog ours = HyperLogLog.open(file, OpenMode.EXCLUSIVE)) {
                for (long key = session * 10_000L; key < (session + 1) * 10_000L; key++) {
                    ours.add(FURTHER_KEYS + key);
                    theirs.update(FURTHER_KEYS + key);
                }
            }
            try (HyperLogLog reader = HyperLogLog.open(file, OpenMode.READ_ONLY)) {
                assertEquals(CardinalityEstimator.DATASKETCHES_HIP, reader.estimator());
                assertEquals(theirs.getEstimate(), reader.estimate());
            }
        }
        try (HyperLogLog reader = HyperLogLog.open(file, OpenMode.READ_ONLY)) {
            assertArrayEquals(theirs.copyAs(TgtHllType.HLL_8).toUpdatableByteArray(), DataSketchesHll.exportTo(reader));
        }
    }

    @Test
    void sharedWritersAndMergesAnswerTheCompositeEstimateOfTheSameRegisters() throws IOException {
        Path file = newFile();
        DataSketchesHll.importFrom(
                        heap(12, TgtHllType.HLL_8, LongStream.range(0, 5000)).toUpdatableByteArray(),
                        file,
                        OpenMode.EXCLUSIVE)
                .close();
        try (HyperLogLog shared = HyperLogLog.open(file, OpenMode.SHARED)) {
            assertEquals(CardinalityEstimator.DATASKETCHES_HIP, shared.estimator());
            for (long key = 0; key < 3000; key++) {
                shared.add(FURTHER_KEYS + key);
            }
            assertEquals(CardinalityEstimator.DATASKETCHES_COMPOSITE, shared.estimator());
            byte[] exported = DataSketchesHll.exportTo(shared);
            assertClose(HllSketch.heapify(exported).getEstimate(), shared.estimate(), "shared");
        }
        try (HyperLogLog exclusive = HyperLogLog.open(file, OpenMode.EXCLUSIVE);
                HyperLogLog other = newSketch(12)) {
            assertEquals(CardinalityEstimator.DATASKETCHES_COMPOSITE, exclusive.estimator());
            other.add(-1L);
            other.add(-2L);
            exclusive.merge(other);
            assertClose(
                    HllSketch.heapify(DataSketchesHll.exportTo(exclusive)).getEstimate(),
                    exclusive.estimate(),
                    "merged");
        }
        try (HyperLogLog a = newSketch(14);
                HyperLogLog b = newSketch(14);
                HyperLogLog folded = newSketch(11)) {
            HllSketch left = new HllSketch(14, TgtHllType.HLL_8);
            HllSketch right = new HllSketch(14, TgtHllType.HLL_8);
            for (long key = 0; key < 20_000; key++) {
                (key % 3 == 0 ? a : b).add(key);
                (key % 3 == 0 ? left : right).update(key);
            }
            a.merge(b);
            HllUnion union = new HllUnion(14);
            union.update(left);
            union.update(right);
            HllSketch result = union.getResult(TgtHllType.HLL_8);
            assertEquals(CardinalityEstimator.DATASKETCHES_COMPOSITE, a.estimator());
            assertClose(result.getCompositeEstimate(), a.estimate(), "union");
            folded.mergeFolded(a);
            HllUnion smaller = new HllUnion(11);
            smaller.update(result);
            assertClose(smaller.getResult(TgtHllType.HLL_8).getCompositeEstimate(), folded.estimate(), "folded");
            assertClose(folded.estimate(), HyperLogLog.estimateUnion(folded), "estimateUnion");
        }
    }

    @Test
    void concurrentSharedWritersLeaveDataSketchesRegistersAndAnswerItsCompositeEstimate() throws Exception {
        Path file = newFile();
        HllSketch theirs = heap(16, TgtHllType.HLL_8, LongStream.range(0, 10_000));
        DataSketchesHll.importFrom(theirs.toUpdatableByteArray(), file, OpenMode.EXCLUSIVE)
                .close();
        try (HyperLogLog one = HyperLogLog.open(file, OpenMode.SHARED);
                HyperLogLog two = HyperLogLog.open(file, OpenMode.SHARED)) {
            Thread[] writers = new Thread[2];
            for (int w = 0; w < 2; w++) {
                HyperLogLog writer = w == 0 ? one : two;
                long first = w * 50_000L;
                writers[w] = new Thread(() -> {
                    for (long key = first; key < first + 100_000; key++) {
                        writer.add(FURTHER_KEYS + key);
                    }
                });
                writers[w].start();
            }
            for (Thread writer : writers) {
                writer.join();
            }
            for (long key = 0; key < 150_000; key++) {
                theirs.update(FURTHER_KEYS + key);
            }
            byte[] exported = DataSketchesHll.exportTo(one);
            byte[] expected = theirs.toUpdatableByteArray();
            assertArrayEquals(
                    Arrays.copyOfRange(expected, 40, expected.length),
                    Arrays.copyOfRange(exported, 40, exported.length));
            assertEquals(CardinalityEstimator.DATASKETCHES_COMPOSITE, two.estimator());
            assertClose(theirs.getCompositeEstimate(), two.estimate(), "composite");
            assertClose(HllSketch.heapify(exported).getEstimate(), one.estimate(), "heapified export");
        }
    }

    @Test
    void precisionsAboveEighteenHoldOnlyForTheDataSketchesScheme() throws IOException {
        try (HyperLogLog large =
                HyperLogLog.builder().precision(21).dataSketchesHashing().createAnonymous(OpenMode.EXCLUSIVE)) {
            assertEquals(21, large.precision());
        }
        IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class,
                () -> HyperLogLog.builder().precision(19).createAnonymous(OpenMode.EXCLUSIVE));
        assertTrue(
                refused.getMessage().contains("precision = 19, must be in [4, 18] for XXH3_64"), refused.getMessage());
        assertTrue(refused.getMessage().contains("[4, 21]"), refused.getMessage());
        IllegalArgumentException outside = assertThrows(
                IllegalArgumentException.class, () -> HyperLogLog.builder().precision(22));
        assertTrue(outside.getMessage().contains("precision = 22"), outside.getMessage());
    }

    @Test
    void aMergeAcrossSchemesIsRefusedNamingBoth() throws IOException {
        try (HyperLogLog dataSketches = newSketch(14);
                HyperLogLog native_ = HyperLogLog.builder().precision(14).createAnonymous(OpenMode.EXCLUSIVE);
                HyperLogLog redis =
                        HyperLogLog.builder().precision(14).redisHashing().createAnonymous(OpenMode.EXCLUSIVE)) {
            for (HyperLogLog other : List.of(native_, redis)) {
                IncompatibleSketchException refused =
                        assertThrows(IncompatibleSketchException.class, () -> dataSketches.merge(other));
                assertTrue(refused.getMessage().contains("DATASKETCHES_MURMUR3_128"), refused.getMessage());
                assertTrue(
                        refused.getMessage().contains(other == redis ? "REDIS_HLL" : "XXH3_64"), refused.getMessage());
                assertThrows(IncompatibleSketchException.class, () -> other.merge(dataSketches));
            }
            assertThrows(IllegalArgumentException.class, () -> DataSketchesHll.exportTo(native_));
        }
    }

    @Test
    void badBytesNameTheFileTheOffsetAndTheFaultAndWriteNothing() throws IOException {
        byte[] image = heap(12, TgtHllType.HLL_8, LongStream.range(0, 20_000)).toUpdatableByteArray();
        image[1] = 2;
        Path source = dir.resolve("spark-hll.bin");
        Files.write(source, image);
        Path target = dir.resolve("never.hll");
        ForeignSketchException refused = assertThrows(
                ForeignSketchException.class, () -> DataSketchesHll.importFrom(source, target, OpenMode.EXCLUSIVE));
        assertEquals(1, refused.offset());
        assertEquals(source, refused.file());
        assertTrue(refused.getMessage().contains("serial version 2"), refused.getMessage());
        assertFalse(Files.exists(target));
        assertEquals(List.of(source), Files.list(dir).toList());
        assertThrows(
                ForeignSketchException.class,
                () -> DataSketchesHll.importFrom(
                        "not an image".getBytes(StandardCharsets.UTF_8), target, OpenMode.EXCLUSIVE));
        assertFalse(Files.exists(target));
    }

    private HyperLogLog newSketch(int lgK) throws IOException {
        return HyperLogLog.builder().precision(lgK).dataSketchesHashing().createAnonymous(OpenMode.EXCLUSIVE);
    }

    private static HllSketch heap(int lgK, TgtHllType type, LongStream keys) {
        HllSketch sketch = new HllSketch(lgK, type);
        keys.forEach(sketch::update);
        return sketch;
    }

    private Path newFile() {
        return dir.resolve("sketch-" + files++ + ".hll");
    }

    private static void assertClose(double expected, double actual, String what) {
        assertEquals(expected, actual, Math.abs(expected) * 1e-9, what);
    }
}
