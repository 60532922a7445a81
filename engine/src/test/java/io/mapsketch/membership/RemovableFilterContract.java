package io.mapsketch.membership;

import static io.mapsketch.enginetesting.KeyGenerators.keys;
import static io.mapsketch.enginetesting.Payloads.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.mapsketch.OpenMode;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * The promises every removable filter keeps on top of a membership filter's: random adds and removes
 * (and refused adds) never lose a key still present, a remove of a key certainly absent is refused and changes nothing,
 * and the items counter is net of removes.
 *
 * @param <F> the filter under test
 */
abstract class RemovableFilterContract<F extends RemovableFilter> extends MembershipFilterContract<F> {

    /** The most copies of one key the filter holds (a cuckoo filter's 2b); unbounded by default. */
    int maxCopies() {
        return Integer.MAX_VALUE;
    }

    /**
     * One step of an add/remove sequence: a key of the sequence's universe, and whether to remove it if
     * it is present (a third of the time; otherwise it is added again, unless the filter is at its
     * capacity or holds the most copies of it).
     */
    private record Step(int key, boolean remove) {}

    private static Gen<List<Step>> steps() {
        return lists().of(integers()
                        .between(0, 299)
                        .zip(integers().between(0, 2), (key, roll) -> new Step(key, roll == 0)))
                .ofSizeBetween(1, 4_000);
    }

    @Test
    void addRemoveSequencesNeverLoseAPresentKey() {
        int capacity = 200;
        qt().withFixedSeed(41L)
                .withExamples(100)
                .forAll(keys(300, 300), steps(), booleans().all())
                .checkAssert((universe, steps, shared) -> {
                    Map<Long, Integer> present = new HashMap<>();
                    int held = 0;
                    try (F filter = anonymous(capacity, 0.01, shared ? OpenMode.SHARED : OpenMode.EXCLUSIVE)) {
                        for (Step step : steps) {
                            long key = universe[step.key() % universe.length];
                            int copies = present.getOrDefault(key, 0);
                            boolean remove = copies > 0 && (step.remove() || held == capacity || copies == maxCopies());
                            if (remove) {
                                filter.remove(key);
                                present.merge(key, -1, (a, b) -> a + b == 0 ? null : a + b);
                                held--;
                            } else if (held < capacity && copies < maxCopies() && added(filter, key)) {
                                present.merge(key, 1, Integer::sum);
                                held++;
                            }
                        }
                        for (long key : present.keySet()) {
                            assertTrue(filter.mightContain(key), "present key " + key);
                        }
                        assertEquals(held, filter.itemsAdded(), "the items counter is net of removes");
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    /**
     * Adds a key, or reports that the filter refused it for want of room (a cuckoo filter whose buckets
     * are crowded by copies of a few keys can refuse well below its usual load); a refused add changes
     * nothing, which the property then checks too.
     */
    private static boolean added(RemovableFilter filter, long key) {
        try {
            filter.add(key);
            return true;
        } catch (FilterFullException refused) {
            return false;
        }
    }

    @Test
    void removingAnAbsentKeyIsRefusedAndChangesNothing() throws IOException {
        try (F filter = anonymous(1_000, 0.001, OpenMode.SHARED)) {
            filter.addAll(new SplittableRandom(3).longs(500).toArray());
            long absent = new SplittableRandom(4)
                    .longs(10_000)
                    .filter(k -> !filter.mightContain(k))
                    .findFirst()
                    .orElseThrow();
            byte[] before = bytes(filter);
            KeyNotPresentException e = assertThrows(KeyNotPresentException.class, () -> filter.remove(absent));
            assertTrue(e.getMessage().contains("nothing was changed"), e.getMessage());
            assertArrayEquals(before, bytes(filter));
            assertEquals(500, filter.itemsAdded());
        }
    }

    @Test
    void removeThenLookupForgetsTheKey() throws IOException {
        try (F filter = anonymous(1_000, 0.001, OpenMode.EXCLUSIVE)) {
            filter.add("alice");
            filter.add("bob");
            filter.remove("alice");
            assertFalse(filter.mightContain("alice"));
            assertTrue(filter.mightContain("bob"));
            assertEquals(1, filter.itemsAdded());
        }
    }
}
