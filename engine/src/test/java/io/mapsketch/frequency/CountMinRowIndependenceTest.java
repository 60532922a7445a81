package io.mapsketch.frequency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchBuilder;
import io.mapsketch.enginetesting.CountMinColumns;
import io.mapsketch.internal.SketchInternals;
import io.mapsketch.memory.SketchFileLayout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Count-Min honours delta at every depth: each row's counter comes from the whole hash with a mix of
 * its own, so an absent key reads a heavy key's count only if it shares that key's counter in every
 * row, with probability about {@code w^-d}. Under the double hashing of files before format version 4
 * two keys that share their first two reduced values share every row; those files keep it (they answer
 * as they were written), and the pair of keys below, found that way, still collides there.
 */
class CountMinRowIndependenceTest {

    /** Two keys of the issue that share every row under double hashing at epsilon 0.01 and seed 0. */
    private static final String HEAVY = "/page/20";

    private static final String PARTNER = "/page/22460";
    private static final long HEAVY_COUNT = 1_000;
    private static final int ABSENT_KEYS = 1_000_000;

    @TempDir
    Path dir;

    /** Delta for depth d at epsilon 0.01 (width 272): depths 5, 10, 20 and 21. */
    private static final double[] DELTAS = {0.01, 1e-4, 3e-9, 1e-9};

    @Test
    void theIssuesPairSharesEveryRowOnlyInOlderFiles() throws IOException {
        for (double delta : DELTAS) {
            try (CountMinSketch newer = CountMinSketch.builder()
                            .epsilon(0.01)
                            .delta(delta)
                            .create(dir.resolve("new-" + delta + ".cms"), OpenMode.EXCLUSIVE);
                    CountMinSketch older = OlderFrequencyFiles.countMin(
                            dir.resolve("old-" + delta + ".cms"),
                            CountMinFormat.INDEPENDENT_ROWS_VERSION - 1,
                            CountMinFormat.of(0.01, delta, 32, false),
                            SketchBuilder.DEFAULT_SEED,
                            OpenMode.EXCLUSIVE)) {
                String depth = "depth " + newer.depth();
                newer.add(HEAVY, HEAVY_COUNT);
                older.add(HEAVY, HEAVY_COUNT);
                assertEquals(0, newer.estimate(PARTNER), depth + ": the partner shares at least one row no more");
                assertEquals(HEAVY_COUNT, older.estimate(PARTNER), depth + ": an older file answers as before");
                long hash = SketchInternals.hasher(newer).hash(HEAVY);
                long partner = SketchInternals.hasher(newer).hash(PARTNER);
                int newerShared = sharedRows(hash, partner, newer, CountMinFormat.INDEPENDENT_ROWS_VERSION);
                int olderShared = sharedRows(hash, partner, older, CountMinFormat.INDEPENDENT_ROWS_VERSION - 1);
                assertEquals(older.depth(), olderShared, depth);
                assertTrue(newerShared < newer.depth(), depth + ": " + newerShared + " rows shared");
            }
        }
    }

    private static int sharedRows(long a, long b, CountMinSketch cms, int version) {
        long[] columnsOfA = CountMinColumns.columns(a, cms.width(), cms.depth(), version);
        long[] columnsOfB = CountMinColumns.columns(b, cms.width(), cms.depth(), version);
        int shared = 0;
        for (int row = 0; row < columnsOfA.length; row++) {
            shared += columnsOfA[row] == columnsOfB[row] ? 1 : 0;
        }
        return shared;
    }

    /**
     * One key counted 1,000 times at epsilon 0.01, then 10^6 keys never added asked: at most a delta
     * share of them may read more than {@code ceil(eps N)} = 10 (at depth 10 and 20 that allows no key at
     * all). The counts of both schemes are printed ({@code count-min-rows} lines).
     */
    @Test
    void absentKeysBeyondTheBoundAgainstOneHeavyKeyStayWithinDelta() throws IOException {
        for (double delta : new double[] {DELTAS[0], DELTAS[1], DELTAS[2]}) {
            try (CountMinSketch newer =
                            CountMinSketch.builder().epsilon(0.01).delta(delta).createAnonymous(OpenMode.EXCLUSIVE);
                    CountMinSketch older = OlderFrequencyFiles.countMin(
                            dir.resolve("old-" + delta + ".cms"),
                            CountMinFormat.INDEPENDENT_ROWS_VERSION - 1,
                            CountMinFormat.of(0.01, delta, 32, false),
                            SketchBuilder.DEFAULT_SEED,
                            OpenMode.EXCLUSIVE)) {
                long beyond = beyondTheBound(newer);
                long olderBeyond = beyondTheBound(older);
                System.out.printf(
                        "count-min-rows depth %d delta %.0e: %d of %d absent keys beyond eps N = %d"
                                + " (double hashing, older files: %d)%n",
                        newer.depth(), delta, beyond, ABSENT_KEYS, newer.errorBound(), olderBeyond);
                assertTrue(beyond <= delta * ABSENT_KEYS, "depth " + newer.depth() + ": " + beyond);
                if (newer.depth() >= 10) {
                    assertEquals(0, beyond, "depth " + newer.depth());
                }
            }
        }
    }

    /** Adds the heavy key, then counts the absent keys {@code /page/i} whose estimate passes the bound. */
    private static long beyondTheBound(CountMinSketch cms) {
        cms.add(HEAVY, HEAVY_COUNT);
        assertEquals(10, cms.errorBound());
        byte[] key = new byte[16];
        byte[] prefix = "/page/".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(prefix, 0, key, 0, prefix.length);
        long beyond = 0;
        for (int i = 0; i <= ABSENT_KEYS; i++) {
            if (i == 20) {
                continue;
            }
            int length = prefix.length;
            String digits = Integer.toString(i);
            for (int c = 0; c < digits.length(); c++) {
                key[length++] = (byte) digits.charAt(c);
            }
            beyond += cms.estimate(key, 0, length) > cms.errorBound() ? 1 : 0;
        }
        return beyond;
    }

    /** Top-K inherits the rows: a key seen twice is not listed with the heavy key's count. */
    @Test
    void aKeySeenTwiceIsNotListedWithAHeavyKeysCount() throws IOException {
        try (TopK top = TopK.builder().k(5).epsilon(0.01).delta(0.01).createAnonymous(OpenMode.EXCLUSIVE)) {
            top.add(HEAVY, HEAVY_COUNT);
            for (int i = 0; i < 50; i++) {
                top.add("/page/" + (i * 7 + 1), 10 + i);
            }
            top.add(PARTNER);
            top.add(PARTNER);
            List<HeavyHitter> listed = top.top();
            assertEquals(HEAVY, listed.getFirst().keyAsString());
            assertFalse(listed.stream().anyMatch(hitter -> hitter.keyAsString().equals(PARTNER)), listed.toString());
            assertTrue(top.estimate(PARTNER) <= 2 + top.errorBound(), "estimate " + top.estimate(PARTNER));
        }
    }

    @Test
    void sketchesOfTheTwoSchemesDoNotMerge() throws IOException {
        CountMinFormat shape = CountMinFormat.of(0.01, 0.01, 32, false);
        try (CountMinSketch newer =
                        CountMinSketch.builder().epsilon(0.01).delta(0.01).createAnonymous(OpenMode.EXCLUSIVE);
                CountMinSketch older = OlderFrequencyFiles.countMin(
                        dir.resolve("old.cms"),
                        SketchFileLayout.FIRST_FORMAT_VERSION,
                        shape,
                        SketchBuilder.DEFAULT_SEED,
                        OpenMode.EXCLUSIVE);
                TopK newerTop = TopK.builder().k(5).epsilon(0.01).delta(0.01).createAnonymous(OpenMode.EXCLUSIVE);
                TopK olderTop = OlderFrequencyFiles.topK(
                        dir.resolve("old.topk"),
                        SketchFileLayout.FIRST_FORMAT_VERSION,
                        shape,
                        5,
                        SketchBuilder.DEFAULT_SEED,
                        OpenMode.EXCLUSIVE)) {
            older.add(HEAVY, 3);
            String message = assertThrows(IncompatibleSketchException.class, () -> newer.merge(older))
                    .getMessage();
            assertTrue(
                    message.startsWith("sketches differ in row scheme: a mix per row (format version 4 and later)"
                            + " here, double hashing (format versions before 4) in the other sketch"),
                    message);
            assertEquals(0, newer.totalWeight(), "a refused merge changes nothing");
            assertThrows(IncompatibleSketchException.class, () -> older.merge(newer));
            message = assertThrows(IncompatibleSketchException.class, () -> olderTop.merge(newerTop))
                    .getMessage();
            assertTrue(message.startsWith("sketches differ in row scheme: double hashing"), message);
        }
    }
}
