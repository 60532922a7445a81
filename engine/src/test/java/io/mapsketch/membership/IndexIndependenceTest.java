package io.mapsketch.membership;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.CountMinColumns;
import io.mapsketch.internal.DoubleHashing;
import io.mapsketch.memory.SketchFileLayout;
import java.io.IOException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * How independently the structures that take several indices from one 64-bit hash place two keys
 * (the audit of {@code docs/accuracy.md}): random pairs of hashes, counted where every index of one
 * equals the other's. Seeded; the measurements are printed ({@code index-independence} lines).
 */
class IndexIndependenceTest {

    private static final int PAIRS = 10_000_000;

    /**
     * Count-Min rows of version 4 files: two keys share all d rows at the rate {@code w^-d} of
     * independent rows (w = 8 and 16 so the rate is measurable); under double hashing (older files)
     * at a fraction of {@code w^-2}, the rate of two rows, that falls only slowly with d.
     */
    @Test
    void countMinRowsOfTwoKeysCoincideAsIndependentRowsWould() {
        int[][] shapes = {{8, 5}, {16, 3}};
        for (int[] shape : shapes) {
            int width = shape[0];
            int depth = shape[1];
            SplittableRandom random = new SplittableRandom(width * 100L + depth);
            long independent = 0;
            long doubleHashed = 0;
            for (int pair = 0; pair < PAIRS; pair++) {
                long a = random.nextLong();
                long b = random.nextLong();
                independent += allShared(a, b, width, depth, CountMinColumns.INDEPENDENT_ROWS_VERSION) ? 1 : 0;
                doubleHashed += allShared(a, b, width, depth, SketchFileLayout.FIRST_FORMAT_VERSION) ? 1 : 0;
            }
            double expected = Math.pow(width, -depth);
            double measured = (double) independent / PAIRS;
            System.out.printf(
                    "index-independence count-min w=%d d=%d: every row shared %.3e (w^-d %.3e);"
                            + " double hashing %.3e (w^-2 %.3e)%n",
                    width, depth, measured, expected, (double) doubleHashed / PAIRS, Math.pow(width, -2));
            assertTrue(Math.abs(measured / expected - 1) < 0.25, "w " + width + ", d " + depth + ": " + measured);
            assertTrue(doubleHashed > 4 * independent, "double hashing shares every row far more often");
        }
    }

    private static boolean allShared(long a, long b, int width, int depth, int version) {
        long[] columnsOfA = CountMinColumns.columns(a, width, depth, version);
        long[] columnsOfB = CountMinColumns.columns(b, width, depth, version);
        for (int row = 0; row < depth; row++) {
            if (columnsOfA[row] != columnsOfB[row]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Classic and counting Bloom probes (enhanced double hashing, format version 3): two keys share all
     * k probes about {@code c_k / m^2} of the time, {@code c_k} near {@code 2 / k^2} from k = 7 on: far
     * above {@code m^-k}, the rate of independent probes, and below {@code 4 / ((k - 1) m^2)}, the area
     * within which the first and the last probe both agree.
     */
    @Test
    void bloomProbesOfTwoKeysCoincideAboutOncePerKSquaredMSquaredPairs() {
        long cells = 100;
        ProbeCells probes = ProbeCells.of(cells, ProbedLayout.ENHANCED_PROBES_VERSION);
        for (int k : new int[] {3, 7, 13}) {
            SplittableRandom random = new SplittableRandom(k);
            long shared = 0;
            for (int pair = 0; pair < 2 * PAIRS; pair++) {
                long a = random.nextLong();
                long b = random.nextLong();
                long stepOfA = DoubleHashing.step(a);
                long stepOfB = DoubleHashing.step(b);
                boolean same = true;
                for (int i = 0; i < k && same; i++) {
                    same = DoubleHashing.reduce(probes.value(a, stepOfA, i), cells)
                            == DoubleHashing.reduce(probes.value(b, stepOfB, i), cells);
                }
                shared += same ? 1 : 0;
            }
            double rate = (double) shared / (2 * PAIRS);
            System.out.printf(
                    "index-independence bloom m=%d k=%d: every probe shared %.3e, c_k = %.4f"
                            + " (2 / k^2 = %.4f; independent probes m^-k = %.1e)%n",
                    cells, k, rate, rate * cells * cells, 2.0 / (k * k), Math.pow(cells, -k));
            assertTrue(rate <= 4.0 / ((k - 1) * cells * cells), "k " + k + ": " + rate);
            assertTrue(rate >= 10 * Math.pow(cells, -k), "k " + k + ": " + rate);
        }
    }

    /**
     * Cuckoo filters: a key's bucket (high hash bits) and fingerprint (low 32 bits) are independent, and
     * its other bucket depends on the fingerprint alone, so a bucket's fingerprints can move to at most
     * {@code 2^f - 1} others. With f = 8 and a million buckets (255 of them reachable from each) the
     * table still fills about as far as with f = 16 before the first refused add.
     */
    @Test
    void cuckooTablesFillAsFarWithFewAlternatesAsWithMany() throws IOException {
        double[] loads = new double[2];
        double[] rates = {0.05, 0.0002};
        for (int i = 0; i < rates.length; i++) {
            try (CuckooFilter filter = CuckooFilter.builder()
                    .expectedItems(3_700_000)
                    .falsePositiveRate(rates[i])
                    .createAnonymous(OpenMode.EXCLUSIVE)) {
                SplittableRandom random = new SplittableRandom(4);
                long count = 0;
                try {
                    while (true) {
                        filter.add(random.nextLong());
                        count++;
                    }
                } catch (FilterFullException full) {
                    loads[i] = (double) count / filter.slotCount();
                }
                System.out.printf(
                        "index-independence cuckoo slots=%d f=%d: load at the first refused add %.4f%n",
                        filter.slotCount(), filter.fingerprintBits(), loads[i]);
            }
        }
        assertTrue(loads[0] > 0.95 && loads[0] > loads[1] - 0.01, loads[0] + " against " + loads[1]);
    }
}
