package io.mapsketch.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import io.mapsketch.OpenMode;
import io.mapsketch.cardinality.CardinalityEstimator;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.internal.DataSketchesCoupons;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.HllUnion;
import org.apache.datasketches.hll.TgtHllType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DataSketches' coupon modes in a mapped HyperLogLog against datasketches-java 9.1.0: a sketch created new
 * or imported from a LIST or SET image keeps DataSketches' coupons, promotes at DataSketches' coupon count,
 * and after any adds estimates as DataSketches does, names the estimator and exports DataSketches' own
 * updatable image; SHARED writers, readers, merges and reopens answer correctly.
 */
class DataSketchesHllCouponsTest {

    private static final long FURTHER_KEYS = 1L << 41;

    @TempDir
    Path dir;

    private int files;

    @Test
    void importsAroundEveryModeSwitchAddAndExportAsDataSketches() throws IOException {
        for (int lgK : new int[] {4, 8, 12, 21}) {
            int promotion = DataSketchesCoupons.promotionCoupons(lgK);
            for (int switchAt : lgK < 8 ? new int[] {8} : new int[] {8, promotion}) {
                for (int coupons : new int[] {switchAt - 1, switchAt, switchAt + 1}) {
                    long keys = keysForCoupons(lgK, coupons);
                    for (TgtHllType type : TgtHllType.values()) {
                        for (boolean compact : new boolean[] {false, true}) {
                            HllSketch source = new HllSketch(lgK, type);
                            for (long key = 0; key < keys; key++) {
                                source.update(key);
                            }
                            byte[] image = compact ? source.toCompactByteArray() : source.toUpdatableByteArray();
                            String what = "lgK " + lgK + " " + type + " " + coupons + " coupons"
                                    + (compact ? " compact" : " updatable");
                            checkImportAndFurtherAdds(image, lgK, promotion, what);
                        }
                    }
                }
            }
        }
    }

    /** Imports, then adds keys on both sides past the next switches, comparing estimate and export at each step. */
    private void checkImportAndFurtherAdds(byte[] image, int lgK, int promotion, String what) throws IOException {
        HllSketch theirs = HllSketch.heapify(image);
        Path file = newFile();
        try (HyperLogLog ours = DataSketchesHll.importFrom(image, file, OpenMode.EXCLUSIVE)) {
            checkSame(theirs, ours, what + " imported");
            long next = FURTHER_KEYS;
            for (int step : new int[] {1, 7, promotion}) {
                for (int i = 0; i < step; i++, next++) {
                    ours.add(next);
                    theirs.update(next);
                }
                checkSame(theirs, ours, what + " after " + (next - FURTHER_KEYS) + " more");
            }
        }
        try (HyperLogLog reader = HyperLogLog.open(file, OpenMode.READ_ONLY)) {
            checkSame(theirs, reader, what + " reopened");
        }
    }

    @Test
    void aNewSketchKeepsCouponsAcrossClosesAndPromotesWhereDataSketchesDoes() {
        qt().withFixedSeed(ForeignKeys.QT_SEED)
                .withExamples(40)
                .forAll(ForeignKeys.longLists(1200))
                .checkAssert(keys -> {
                    int lgK = 4 + Math.floorMod(keys.hashCode(), 9);
                    Path file = newFile();
                    HllSketch theirs = new HllSketch(lgK, TgtHllType.HLL_8);
                    try {
                        HyperLogLog.builder()
                                .precision(lgK)
                                .dataSketchesHashing()
                                .create(file, OpenMode.EXCLUSIVE)
                                .close();
                        int session = Math.max(1, keys.size() / 3);
                        for (int from = 0; from < keys.size(); from += session) {
                            try (HyperLogLog ours = HyperLogLog.open(file, OpenMode.EXCLUSIVE)) {
                                for (long key : keys.subList(from, Math.min(keys.size(), from + session))) {
                                    ours.add(key);
                                    theirs.update(key);
                                }
                                checkSame(theirs, ours, "lgK " + lgK + " after " + (from + session));
                            }
                            try (HyperLogLog reader = HyperLogLog.open(file, OpenMode.READ_ONLY)) {
                                checkSame(theirs, reader, "reader lgK " + lgK);
                            }
                        }
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    @Test
    void stringKeysInCouponModeHashAsHllSketchUpdateDoes() {
        qt().withFixedSeed(ForeignKeys.QT_SEED)
                .withExamples(30)
                .forAll(ForeignKeys.stringLists(60))
                .checkAssert(strings -> {
                    HllSketch theirs = new HllSketch(11, TgtHllType.HLL_8);
                    try (HyperLogLog ours =
                            DataSketchesHll.importFrom(theirs.toCompactByteArray(), newFile(), OpenMode.EXCLUSIVE)) {
                        for (String key : strings) {
                            ours.add(key);
                            theirs.update(key);
                        }
                        checkSame(theirs, ours, strings.size() + " strings");
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    @Test
    void sharedWritersPromoteFirstAndReadersAnswerTheCoupons() throws IOException {
        int lgK = 12;
        HllSketch theirs = new HllSketch(lgK, TgtHllType.HLL_8);
        for (long key = 0; key < 100; key++) {
            theirs.update(key);
        }
        Path file = newFile();
        DataSketchesHll.importFrom(theirs.toUpdatableByteArray(), file, OpenMode.EXCLUSIVE)
                .close();
        try (HyperLogLog shared = HyperLogLog.open(file, OpenMode.SHARED);
                HyperLogLog reader = HyperLogLog.open(file, OpenMode.READ_ONLY)) {
            checkSame(theirs, shared, "shared, before adding");
            checkSame(theirs, reader, "reader, before");
            for (long key = 100; key < 3000; key++) {
                shared.add(key);
                theirs.update(key);
            }
            assertNull(shared.dataSketchesCoupons());
            assertEquals(CardinalityEstimator.DATASKETCHES_COMPOSITE, shared.estimator());
            assertEquals(CardinalityEstimator.DATASKETCHES_COMPOSITE, reader.estimator());
            assertClose(theirs.getCompositeEstimate(), shared.estimate(), "shared composite");
            assertClose(theirs.getCompositeEstimate(), reader.estimate(), "reader composite");
        }
    }

    @Test
    void theOnlyWritersMergeIsDataSketchesUnionOfTwoSketchesOfOneLgK() {
        qt().withFixedSeed(ForeignKeys.QT_SEED)
                .withExamples(60)
                .forAll(
                        ForeignKeys.longLists(1500),
                        ForeignKeys.longLists(1500),
                        integers().between(0, 2))
                .checkAssert((leftKeys, rightKeys, lgKChoice) -> {
                    int lgK = new int[] {4, 7, 10}[lgKChoice];
                    HllSketch leftOnly = new HllSketch(lgK, TgtHllType.HLL_8);
                    HllSketch rightOnly = new HllSketch(lgK, TgtHllType.HLL_8);
                    try (HyperLogLog left = newSketch(lgK);
                            HyperLogLog right = newSketch(lgK)) {
                        for (long key : leftKeys) {
                            left.add(key);
                            leftOnly.update(key);
                        }
                        for (long key : rightKeys) {
                            right.add(key);
                            rightOnly.update(key);
                        }
                        left.merge(right);
                        // The destination is the union's first sketch; the source is read from memory, as a
                        // file's sketch is (DataSketches copies a heap SET into an empty union instead).
                        HllUnion union = new HllUnion(lgK);
                        union.update(leftOnly);
                        union.update(HllSketch.wrap(MemorySegment.ofArray(rightOnly.toUpdatableByteArray())));
                        HllSketch theirs = union.getResult(TgtHllType.HLL_8);
                        String what = "lgK " + lgK + ": " + leftKeys.size() + " + " + rightKeys.size() + " keys";
                        checkSame(theirs, left, what + " merged");
                        for (long key = 0; key < 300; key++) {
                            left.add(FURTHER_KEYS + key);
                            theirs.update(FURTHER_KEYS + key);
                        }
                        checkSame(theirs, left, what + " merged, then 300 more");
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    @Test
    void sharedMergesPromoteFirstAndAnswerTheCompositeEstimateOfTheUnionsRegisters() throws IOException {
        for (int[] sizes : List.of(new int[] {3, 5}, new int[] {0, 40}, new int[] {40, 0}, new int[] {30, 2000})) {
            Path leftFile = newFile();
            HyperLogLog.builder()
                    .precision(10)
                    .dataSketchesHashing()
                    .create(leftFile, OpenMode.SHARED)
                    .close();
            try (HyperLogLog left = HyperLogLog.open(leftFile, OpenMode.SHARED);
                    HyperLogLog right = newSketch(10)) {
                HllSketch all = new HllSketch(10, TgtHllType.HLL_8);
                for (long key = 0; key < sizes[0]; key++) {
                    left.add(key);
                    all.update(key);
                }
                for (long key = 0; key < sizes[1]; key++) {
                    right.add(FURTHER_KEYS + key);
                    all.update(FURTHER_KEYS + key);
                }
                left.merge(right);
                String what = sizes[0] + " + " + sizes[1];
                if (sizes[1] == 0) {
                    continue;
                }
                byte[] exported = DataSketchesHll.exportTo(left);
                HllSketch heapified = HllSketch.heapify(exported);
                assertEquals(CardinalityEstimator.DATASKETCHES_COMPOSITE, left.estimator(), what);
                assertClose(heapified.getCompositeEstimate(), left.estimate(), what);
                assertArrayEquals(
                        registersOf(all),
                        Arrays.copyOfRange(exported, 40, exported.length),
                        what + ": the registers of the union's keys");
                assertClose(heapified.getCompositeEstimate(), HyperLogLog.estimateUnion(right, left), what);
            }
        }
    }

    /** The registers DataSketches' sketch of these keys holds in HLL mode: its coupons' slots raised. */
    private static byte[] registersOf(HllSketch sketch) {
        try {
            return switch (DataSketchesHllReader.read(sketch.toUpdatableByteArray(), null)) {
                case DataSketchesHllImage.Coupons coupons -> coupons.promoted().registers();
                case DataSketchesHllImage.Registers registers -> registers.registers();
            };
        } catch (ForeignSketchException e) {
            throw new AssertionError(e);
        }
    }

    /** The number of keys 0, 1, ... after which DataSketches' sketch of lgK holds this many distinct coupons. */
    private static long keysForCoupons(int lgK, int coupons) {
        DataSketchesReplay replay = new DataSketchesReplay(lgK);
        long key = 0;
        while (replay.distinctCoupons() < coupons && replay.mode() != DataSketchesHllMode.HLL) {
            replay.add(key++);
        }
        return key;
    }

    private static void checkSame(HllSketch theirs, HyperLogLog ours, String what) {
        byte[] expected = theirs.copyAs(TgtHllType.HLL_8).toUpdatableByteArray();
        DataSketchesHllImage image;
        try {
            image = DataSketchesHllReader.read(expected, null);
        } catch (ForeignSketchException e) {
            throw new AssertionError(e);
        }
        assertClose(theirs.getEstimate(), ours.estimate(), what);
        CardinalityEstimator estimator = switch (image.estimator()) {
            case COUPON -> CardinalityEstimator.DATASKETCHES_COUPON;
            case HIP -> CardinalityEstimator.DATASKETCHES_HIP;
            case COMPOSITE -> CardinalityEstimator.DATASKETCHES_COMPOSITE;
        };
        assertEquals(estimator, ours.estimator(), what);
        assertArrayEquals(expected, DataSketchesHll.exportTo(ours), what);
    }

    private HyperLogLog newSketch(int lgK) throws IOException {
        return HyperLogLog.builder().precision(lgK).dataSketchesHashing().createAnonymous(OpenMode.EXCLUSIVE);
    }

    private Path newFile() {
        return dir.resolve("coupons-" + files++ + ".hll");
    }

    private static void assertClose(double expected, double actual, String what) {
        assertEquals(expected, actual, Math.abs(expected) * 1e-9, what);
    }
}
