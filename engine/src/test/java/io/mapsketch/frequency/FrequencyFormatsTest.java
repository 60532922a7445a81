package io.mapsketch.frequency;

import static io.mapsketch.internal.HeaderFormatChecks.OUTSIDE_UNIT;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;

import io.mapsketch.internal.HeaderFormatChecks;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * The format descriptions of Count-Min and Top-K files over parameters drawn from every value their
 * headers may hold (any epsilon whose width fits, any delta, with the width and depth they give): each
 * reads back what it writes, at every version its kind reads, and refuses a header holding in any
 * parameter a value outside the range {@code docs/file-format.md} gives it, or a payload of another
 * size, naming it.
 */
class FrequencyFormatsTest {

    @Test
    void countMinSketches() {
        HeaderFormatChecks.check(shapes(), CountMinFormat::read, COUNT_MIN_REFUSES);
    }

    @Test
    void topKSketches() {
        HeaderFormatChecks.check(
                shapes().zip(
                                integers().between(1, TopK.MAX_K),
                                integers().between(Long.BYTES, TopK.MAX_KEY_BYTES),
                                TopKFormat::new),
                TopKFormat::read,
                topKRefuses());
    }

    private static final Map<String, List<? extends Number>> COUNT_MIN_REFUSES = Map.of(
            "width",
            List.of(0L, -1L, 1L << 31, Long.MAX_VALUE),
            "depth",
            List.of(0L, -1L, 746L, 1L << 32),
            "counter bytes",
            List.of(0L, 2L, 3L, 5L, 7L, 9L, 16L),
            "conservative",
            List.of(-1L, 2L, 255L),
            "epsilon",
            OUTSIDE_UNIT,
            "delta",
            OUTSIDE_UNIT);

    private static Map<String, List<? extends Number>> topKRefuses() {
        Map<String, List<? extends Number>> refuses = new HashMap<>(COUNT_MIN_REFUSES);
        refuses.put("k", List.of(0L, -1L, (1L << 20) + 1, Long.MAX_VALUE));
        refuses.put("max key bytes", List.of(0L, 7L, 65_537L, -8L));
        return refuses;
    }

    private static Gen<CountMinFormat> shapes() {
        Gen<Double> epsilons = doubles().between(Math.E / Integer.MAX_VALUE * (1 + 1e-9), Math.nextDown(1.0));
        Gen<Double> deltas = doubles().between(Double.MIN_VALUE, Math.nextDown(1.0));
        return epsilons.zip(
                deltas,
                arbitrary().pick(Integer.BYTES, Long.BYTES),
                booleans().all(),
                (epsilon, delta, counterBytes, conservative) -> new CountMinFormat(
                        CountMinSizing.width(epsilon),
                        CountMinSizing.depth(delta),
                        counterBytes,
                        conservative,
                        epsilon,
                        delta));
    }
}
