package io.mapsketch.frequency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.KeyGenerators;
import io.mapsketch.enginetesting.TopKChecks;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * Top-K on random skewed streams: every listed estimate is at least the key's count, every key
 * heavier than N / k plus the error bound is listed, the list has min(k, distinct keys) entries; and
 * the same holds after a merge of two sketches of a split stream.
 */
class TopKPropertiesTest {

    /**
     * Skewed streams of up to 6,000 keys: each key about uniform in 0..b for a bound b itself uniform in
     * 0..499, so that key i occurs with probability falling roughly as 1 / i.
     */
    private static Gen<long[]> streams() {
        Gen<Long> skewed = integers()
                .between(0, 499)
                .zip(integers().between(0, 499), (bound, draw) -> (long) draw * (bound + 1) / 500);
        return KeyGenerators.arrays(skewed, 0, 6_000);
    }

    private static TopK sketch(int k, boolean shared) {
        return TopK.builder()
                .k(k)
                .epsilon(0.002)
                .delta(0.01)
                .seed(3)
                .createAnonymous(shared ? OpenMode.SHARED : OpenMode.EXCLUSIVE);
    }

    @Test
    void listedKeysAreNeverUndercountAndHeavyKeysAreNeverMissing() {
        qt().withFixedSeed(73L)
                .withExamples(60)
                .forAll(streams(), integers().between(1, 40), booleans().all())
                .checkAssert((keys, k, shared) -> {
                    Map<Long, Long> exact = TopKChecks.exactCounts(keys);
                    try (TopK sketch = sketch(k, shared)) {
                        for (long key : keys) {
                            sketch.add(key);
                        }
                        assertEquals(Math.min(k, exact.size()), sketch.top().size());
                        TopKChecks.assertSound(sketch, exact);
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    @Test
    void aMergeOfASplitStreamListsWhatTheWholeStreamMust() {
        qt().withFixedSeed(79L)
                .withExamples(40)
                .forAll(streams(), streams(), integers().between(1, 40))
                .checkAssert((left, right, k) -> {
                    Map<Long, Long> exact = TopKChecks.exactCounts(left, right);
                    try (TopK merged = sketch(k, false);
                            TopK other = sketch(k, true)) {
                        merged.addAll(left);
                        other.addAll(right);
                        merged.merge(other);
                        assertEquals(Math.min(k, exact.size()), merged.top().size());
                        TopKChecks.assertSound(merged, exact);
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }
}
