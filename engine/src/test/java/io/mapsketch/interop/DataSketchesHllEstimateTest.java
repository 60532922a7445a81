package io.mapsketch.interop;

import static io.mapsketch.enginetesting.KeyGenerators.keys;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.HllUnion;
import org.junit.jupiter.api.Test;

/**
 * The estimate of every DataSketches HLL image equals DataSketches' own estimate of the same bytes
 * (within 1e-9 relative, as are the bounds), by the estimator DataSketches picks for the mode: for
 * sketches of every type built from generated keys, heap and direct, updatable and compact, for union
 * results (out of order), and for exact key counts around each mode switch of several lgK.
 */
class DataSketchesHllEstimateTest {

    private static final double RELATIVE = 1e-9;

    @Test
    void everyImageOfGeneratedKeysEstimatesAsDataSketches() {
        qt().withFixedSeed(2101L)
                .withExamples(150)
                .forAll(
                        keys(0, 3_000),
                        keys(0, 3_000),
                        integers().between(4, 21),
                        integers().between(0, 2))
                .checkAssert((left, right, lgK, typeIndex) -> {
                    DataSketchesHllType type = DataSketchesHllType.values()[typeIndex];
                    HllSketch heap = DataSketchesReplay.heapSketch(lgK, type, left);
                    HllSketch direct = DataSketchesReplay.directSketch(lgK, type, left);
                    HllSketch other = DataSketchesReplay.heapSketch(lgK, type, right);
                    HllUnion union = DataSketchesReplay.union(lgK, heap, other);
                    DataSketchesHllMode mode = DataSketchesReplay.of(lgK, left).mode();
                    for (byte[] image : List.of(
                            heap.toUpdatableByteArray(),
                            heap.toCompactByteArray(),
                            direct.toUpdatableByteArray(),
                            direct.toCompactByteArray())) {
                        DataSketchesHllImage read = estimatesAsDataSketches(image);
                        if (read != null) {
                            assertEquals(mode, read.mode());
                        }
                    }
                    for (byte[] image : List.of(
                            union.getResult(DataSketchesReplay.target(type)).toUpdatableByteArray(),
                            union.getResult(DataSketchesReplay.target(type)).toCompactByteArray(),
                            union.toUpdatableByteArray(),
                            union.toCompactByteArray())) {
                        estimatesAsDataSketches(image);
                    }
                });
    }

    @Test
    void exactKeyCountsAroundEachModeSwitchEstimateAsDataSketches() {
        for (int lgK : new int[] {4, 5, 7, 8, 9, 11, 13, 16, 21}) {
            for (int switchAt : modeSwitches(lgK)) {
                for (int n = switchAt - 1; n <= switchAt + 1; n++) {
                    long[] keys = LongStream.range(0, n).toArray();
                    long[] more = LongStream.range(n, 2L * n).toArray();
                    DataSketchesReplay replay = DataSketchesReplay.of(lgK, keys);
                    for (DataSketchesHllType type : DataSketchesHllType.values()) {
                        HllSketch heap = DataSketchesReplay.heapSketch(lgK, type, keys);
                        HllSketch direct = DataSketchesReplay.directSketch(lgK, type, keys);
                        for (byte[] image : List.of(
                                heap.toUpdatableByteArray(),
                                heap.toCompactByteArray(),
                                direct.toUpdatableByteArray(),
                                direct.toCompactByteArray())) {
                            DataSketchesHllImage read = estimatesAsDataSketches(image);
                            if (read != null) {
                                assertEquals(replay.mode(), read.mode(), "lgK " + lgK + ", " + n + " keys, " + type);
                                assertHolds(replay, read);
                            }
                        }
                        HllUnion union =
                                DataSketchesReplay.union(lgK, heap, DataSketchesReplay.heapSketch(lgK, type, more));
                        estimatesAsDataSketches(
                                union.getResult(DataSketchesReplay.target(type)).toCompactByteArray());
                    }
                }
            }
        }
    }

    @Test
    void aUnionOfTwoHllModeSketchesAnswersWithTheCompositeEstimator() throws ForeignSketchException {
        for (DataSketchesHllType type : DataSketchesHllType.values()) {
            HllUnion union = DataSketchesReplay.union(
                    10,
                    DataSketchesReplay.heapSketch(
                            10, type, LongStream.range(0, 5_000).toArray()),
                    DataSketchesReplay.heapSketch(
                            10, type, LongStream.range(2_500, 9_000).toArray()));
            byte[] image = union.getResult(DataSketchesReplay.target(type)).toUpdatableByteArray();
            DataSketchesHllImage read = DataSketchesHllReader.read(image, null);
            assertEquals(DataSketchesHllEstimator.COMPOSITE, read.estimator());
            assertEquals(HllSketch.heapify(image).getEstimate(), read.estimate(), RELATIVE * read.estimate());
        }
    }

    @Test
    void aUnionGadgetFlaggedForARebuildEstimatesAsDataSketchesRebuildsIt() throws ForeignSketchException {
        int lgK = 11;
        MemorySegment gadget = MemorySegment.ofArray(new byte[HllUnion.getMaxSerializationBytes(lgK)]);
        HllUnion union = new HllUnion(lgK, gadget);
        union.update(DataSketchesReplay.heapSketch(
                lgK, DataSketchesHllType.HLL_8, LongStream.range(0, 20_000).toArray()));
        union.update(DataSketchesReplay.heapSketch(
                lgK, DataSketchesHllType.HLL_4, LongStream.range(10_000, 40_000).toArray()));
        byte[] image = gadget.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        assertEquals(
                DataSketchesHllLayout.REBUILD_FLAG,
                image[DataSketchesHllLayout.FLAGS_BYTE] & DataSketchesHllLayout.REBUILD_FLAG);
        DataSketchesHllImage.Registers read = (DataSketchesHllImage.Registers) DataSketchesHllReader.read(image, null);
        assertEquals(HllSketch.heapify(image).getEstimate(), read.estimate(), RELATIVE * read.estimate());
        DataSketchesHllImage.Registers result = (DataSketchesHllImage.Registers)
                DataSketchesHllReader.read(HllSketch.heapify(image).toUpdatableByteArray(), null);
        assertEquals(result.state(), read.state());
        assertArrayEquals(result.registers(), read.registers());
    }

    /** The key counts (keys 0, 1, ...) at which the replay changes mode. */
    static List<Integer> modeSwitches(int lgK) {
        List<Integer> switches = new ArrayList<>();
        DataSketchesReplay replay = new DataSketchesReplay(lgK);
        DataSketchesHllMode mode = replay.mode();
        for (int n = 1; mode != DataSketchesHllMode.HLL; n++) {
            replay.add(n - 1);
            if (replay.mode() != mode) {
                switches.add(n);
                mode = replay.mode();
            }
        }
        return switches;
    }

    /** The coupons or registers and HIP state the replay built are those the image holds. */
    static void assertHolds(DataSketchesReplay replay, DataSketchesHllImage read) {
        switch (read) {
            case DataSketchesHllImage.Coupons coupons -> {
                int[] expected = replay.couponImage().coupons();
                int[] actual = coupons.coupons();
                Arrays.sort(expected);
                Arrays.sort(actual);
                assertArrayEquals(expected, actual, read.toString());
            }
            case DataSketchesHllImage.Registers registers -> {
                DataSketchesHllImage.Registers expected = replay.registerImage();
                assertArrayEquals(expected.registers(), registers.registers(), read.toString());
                assertEquals(
                        expected.state().hipAccumulator(), registers.state().hipAccumulator(), read.toString());
                assertEquals(expected.state().kxq0(), registers.state().kxq0(), read.toString());
                assertEquals(expected.state().kxq1(), registers.state().kxq1(), read.toString());
            }
        }
    }

    /**
     * Reads the image, checks its estimate, estimator and bounds against DataSketches', returns it; an
     * image DataSketches cannot read itself must be refused, and gives {@code null}.
     */
    static DataSketchesHllImage estimatesAsDataSketches(byte[] image) {
        HllSketch theirs;
        try {
            theirs = HllSketch.heapify(image);
        } catch (RuntimeException unreadable) {
            assertThrows(ForeignSketchException.class, () -> DataSketchesHllReader.read(image, null));
            return null;
        }
        DataSketchesHllImage read;
        try {
            read = DataSketchesHllReader.read(image, null);
        } catch (ForeignSketchException e) {
            throw new AssertionError(HllSketch.toString(image), e);
        }
        assertClose(theirs.getEstimate(), read.estimate(), read + ": estimate");
        for (int numStdDev = 1; numStdDev <= 3; numStdDev++) {
            assertClose(theirs.getLowerBound(numStdDev), read.lowerBound(numStdDev), read + ": lower bound");
            assertClose(theirs.getUpperBound(numStdDev), read.upperBound(numStdDev), read + ": upper bound");
        }
        DataSketchesHllEstimator expected = read.mode() != DataSketchesHllMode.HLL
                ? DataSketchesHllEstimator.COUPON
                : (image[DataSketchesHllLayout.FLAGS_BYTE] & DataSketchesHllLayout.OUT_OF_ORDER_FLAG) != 0
                        ? DataSketchesHllEstimator.COMPOSITE
                        : DataSketchesHllEstimator.HIP;
        assertEquals(expected, read.estimator(), read.toString());
        return read;
    }

    private static void assertClose(double expected, double actual, String what) {
        assertEquals(expected, actual, RELATIVE * Math.abs(expected), what);
    }
}
