package io.mapsketch.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mapsketch.OpenMode;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.enginetesting.CouponStepWorker;
import io.mapsketch.enginetesting.CouponStepWorker.Step;
import io.mapsketch.testing.ChildJvm;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The only writer of a file in DataSketches' coupon modes, killed with SIGKILL in the middle of a LIST's
 * growth into a SET or of the promotion to registers ({@link CouponStepWorker} names the points): the next
 * {@code EXCLUSIVE} open completes the step, and from then on the file answers and exports as the same adds
 * made by a writer that was never killed, and as DataSketches' own sketch of those keys, through the
 * promotion and past it.
 */
class DataSketchesHllKilledWriterTest {

    /** Keys added after the recovery: past the promotion at every lgK here. */
    private static final int MORE_KEYS = 5_000;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "lgK {0}, killed at {1}")
    @CsvSource({
        "8, GROWTH_STARTED",
        "8, GROWTH_AREA_CLEARED",
        "8, GROWTH_PUBLISHED",
        "8, PROMOTION_COUNTED",
        "8, PROMOTION_HALF_RAISED",
        "11, GROWTH_STARTED",
        "11, GROWTH_AREA_CLEARED",
        "11, GROWTH_PUBLISHED",
        "11, PROMOTION_COUNTED",
        "11, PROMOTION_HALF_RAISED"
    })
    void theNextOnlyWriterCompletesTheStepAndTheFileGoesOnAsIfNeverKilled(int lgK, Step step) throws IOException {
        Path killed = dir.resolve("killed.hll");
        long lastKey;
        try (ChildJvm writer = ChildJvm.start(dir, CouponStepWorker.class, killed.toString(), "" + lgK, step.name())) {
            String ready = writer.readLine();
            lastKey = Long.parseLong(ready.substring("ready ".length()));
            writer.kill();
        }
        Path kept = dir.resolve("kept.hll");
        HllSketch theirs = new HllSketch(lgK, TgtHllType.HLL_8);
        try (HyperLogLog recovered = HyperLogLog.open(killed, OpenMode.EXCLUSIVE);
                HyperLogLog reference = HyperLogLog.builder()
                        .precision(lgK)
                        .dataSketchesHashing()
                        .create(kept, OpenMode.EXCLUSIVE)) {
            for (long key = 0; key <= lastKey; key++) {
                reference.add(key);
                theirs.update(key);
            }
            assertSame(reference, recovered, theirs);
            for (long key = lastKey + 1; key <= lastKey + MORE_KEYS; key++) {
                reference.add(key);
                recovered.add(key);
                theirs.update(key);
            }
            assertSame(reference, recovered, theirs);
        }
    }

    private static void assertSame(HyperLogLog reference, HyperLogLog recovered, HllSketch theirs) {
        assertEquals(reference.estimator(), recovered.estimator());
        assertArrayEquals(reference.dataSketchesCoupons(), recovered.dataSketchesCoupons());
        assertEquals(theirs.getEstimate(), recovered.estimate(), 1e-9 * theirs.getEstimate());
        assertArrayEquals(DataSketchesHll.exportTo(reference), DataSketchesHll.exportTo(recovered));
    }
}
