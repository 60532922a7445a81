package io.mapsketch.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.FalsePositives;
import io.mapsketch.internal.SketchInternals;
import io.mapsketch.kernels.BitSetKernels;
import java.io.IOException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A filter of more than 2^32 bits uses all of them and keeps its false-positive rate: the failure
 * of libraries whose positions are computed in 32 bits is that the bits past 2^31 or 2^32 stay
 * empty and the rest fill up too fast.
 *
 * <p>Filling such a filter to capacity takes about m ln 2 = 3 * 10^9 random probes whatever its
 * error rate, minutes in a unit test. So the filter is sized for 3 * 10^9 items at p = 0.5
 * (k = 1, 4.33 * 10^9 bits) and filled to a tenth, where the rate 1 - e^(-n/m) is large enough to
 * measure precisely.
 */
class LargeBloomFilterTest {

    @Test
    void moreThanTwoToTheThirtyTwoBitsAreAllUsed() throws IOException {
        long capacity = 3_000_000_000L;
        long items = capacity / 10;
        try (BloomFilter filter = BloomFilter.builder()
                .expectedItems(capacity)
                .falsePositiveRate(0.5)
                .seed(3)
                .createAnonymous(OpenMode.EXCLUSIVE)) {
            long bits = filter.bitCount();
            assertTrue(bits > 1L << 32, "bits = " + bits);
            assertEquals(1, filter.hashCount());
            SplittableRandom random = new SplittableRandom(11);
            long[] batch = new long[1 << 16];
            for (long added = 0; added < items; added += batch.length) {
                for (int i = 0; i < batch.length; i++) {
                    batch[i] = random.nextLong();
                }
                filter.addAll(batch);
            }
            long added = filter.itemsAdded();
            double expectedFill = -Math.expm1(-(double) added / bits);
            assertEquals(expectedFill, filter.fillRatio(), expectedFill * 0.01);

            long upperWords = (bits >>> 6) - (1L << 26);
            long upperSetBits =
                    BitSetKernels.popcount(SketchInternals.payload(filter).segment(), (1L << 32) / 8, upperWords);
            assertEquals(
                    expectedFill,
                    (double) upperSetBits / (upperWords * 64),
                    expectedFill * 0.02,
                    "bits past 2^32 fill like the rest");

            double measured = FalsePositives.measuredFalsePositiveRate(filter, 1_000_000, 12);
            assertEquals(expectedFill, measured, expectedFill * 0.05, "measured " + measured);
        }
    }
}
