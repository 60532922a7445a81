package io.mapsketch.frequency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.mapsketch.OpenMode;
import java.io.IOException;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Top-K on random skewed streams: every listed estimate is at least the key's count, every key
 * heavier than N / k plus the error bound is listed, the list has min(k, distinct keys) entries; and
 * the same holds after a merge of two sketches of a split stream.
 */
class TopKPropertiesTest {

    /** A skewed stream: key i drawn with probability falling roughly as 1 / i, over 500 keys. */
    private static long[] stream(long seed, int length) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] keys = new long[length];
        for (int i = 0; i < length; i++) {
            keys[i] = random.nextInt(1 + random.nextInt(500));
        }
        return keys;
    }

    private static TopK sketch(int k, boolean shared) {
        return TopK.builder().k(k).epsilon(0.002).delta(0.01).seed(3)
                .createAnonymous(shared ? OpenMode.SHARED : OpenMode.EXCLUSIVE);
    }

    @Test
    void listedKeysAreNeverUndercountAndHeavyKeysAreNeverMissing() {
        qt().withFixedSeed(73L).withExamples(60)
                .forAll(longs().all(), integers().between(0, 6_000), integers().between(1, 40), booleans().all())
                .checkAssert((seed, length, k, shared) -> {
                    long[] keys = stream(seed, length);
                    Map<Long, Long> exact = TopKTest.exactCounts(keys);
                    try (TopK sketch = sketch(k, shared)) {
                        for (long key : keys) {
                            sketch.add(key);
                        }
                        assertEquals(Math.min(k, exact.size()), sketch.top().size());
                        TopKTest.assertSound(sketch, exact);
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    @Test
    void aMergeOfASplitStreamListsWhatTheWholeStreamMust() {
        qt().withFixedSeed(79L).withExamples(40)
                .forAll(longs().all(), integers().between(0, 6_000), integers().between(0, 6_000),
                        integers().between(1, 40))
                .checkAssert((seed, leftLength, rightLength, k) -> {
                    long[] left = stream(seed, leftLength);
                    long[] right = stream(~seed, rightLength);
                    Map<Long, Long> exact = TopKTest.exactCounts(left, right);
                    try (TopK merged = sketch(k, false); TopK other = sketch(k, true)) {
                        merged.addAll(left);
                        other.addAll(right);
                        merged.merge(other);
                        assertEquals(Math.min(k, exact.size()), merged.top().size());
                        TopKTest.assertSound(merged, exact);
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }
}
