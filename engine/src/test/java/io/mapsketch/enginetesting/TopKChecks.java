package io.mapsketch.enginetesting;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.frequency.HeavyHitter;
import io.mapsketch.frequency.TopK;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The exact answers of a stream of keys, and what a Top-K sketch of it must list. */
public final class TopKChecks {

    private TopKChecks() {}

    /** How often each key occurs in the streams together. */
    public static Map<Long, Long> exactCounts(long[]... streams) {
        Map<Long, Long> exact = new HashMap<>();
        for (long[] stream : streams) {
            for (long key : stream) {
                exact.merge(key, 1L, Long::sum);
            }
        }
        return exact;
    }

    /** The n keys with the largest exact counts (ties by key, so the answer is one list). */
    public static List<Long> exactTop(Map<Long, Long> exact, int n) {
        return exact.entrySet().stream()
                .sorted(Map.Entry.<Long, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .limit(n)
                .map(Map.Entry::getKey)
                .toList();
    }

    /** The keys of a listing, as longs, in its order. */
    public static List<Long> keys(List<HeavyHitter> top) {
        return top.stream().map(HeavyHitter::keyAsLong).toList();
    }

    /** Every listed estimate at least the truth, and every key heavier than N / k + the error bound listed. */
    public static void assertSound(TopK sketch, Map<Long, Long> exact) {
        List<HeavyHitter> top = sketch.top();
        for (HeavyHitter hitter : top) {
            long truth = exact.getOrDefault(hitter.keyAsLong(), 0L);
            assertTrue(hitter.estimate() >= truth, hitter + " below its count " + truth);
        }
        long heavy = sketch.totalWeight() / sketch.k() + sketch.errorBound();
        List<Long> listed = keys(top);
        exact.forEach((key, count) -> {
            if (count > heavy) {
                assertTrue(listed.contains(key), "key " + key + " counted " + count + " > " + heavy + " is not listed");
            }
        });
    }
}
