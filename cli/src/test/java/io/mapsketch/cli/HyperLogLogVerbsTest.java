package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mapsketch hll create, add, count, merge}, in this JVM. */
class HyperLogLogVerbsTest {

    @TempDir
    Path dir;

    private static String lines(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "user-" + i).collect(Collectors.joining("\n"));
    }

    private static long count(String... files) {
        String[] args = new String[files.length + 2];
        args[0] = "hll";
        args[1] = "count";
        System.arraycopy(files, 0, args, 2, files.length);
        InProcess.Result result = InProcess.run(args);
        assertEquals(0, result.status(), result.err());
        return Long.parseLong(result.out().strip());
    }

    @Test
    void addCountAndMergeLeaveSourcesUnchanged() throws Exception {
        String monday = dir.resolve("mon.hll").toString();
        String tuesday = dir.resolve("tue.hll").toString();
        String week = dir.resolve("week.hll").toString();
        for (String file : new String[] {monday, tuesday}) {
            assertEquals(
                    0, InProcess.run("hll", "create", file, "--precision", "14").status());
        }
        assertEquals(
                0, InProcess.withInput(lines(0, 6_000), "hll", "add", monday).status());
        assertEquals(
                0,
                InProcess.withInput(lines(4_000, 10_000), "hll", "add", tuesday).status());
        assertEquals(0, InProcess.run("hll", "add", tuesday, "user-1", "user-2").status());
        assertEquals(6_000, count(monday), 3 * 0.0081 * 6_000);
        long union = count(monday, tuesday);
        assertEquals(10_000, union, 3 * 0.0081 * 10_000);
        byte[] before = Files.readAllBytes(Path.of(monday));
        assertEquals(
                0, InProcess.run("hll", "create", week, "--precision", "12").status());
        InProcess.Result merged = InProcess.run("hll", "merge", week, monday, tuesday);
        assertEquals(0, merged.status(), merged.err());
        assertEquals(10_000, count(week), 3 * 0.0163 * 10_000);
        assertArrayEquals(before, Files.readAllBytes(Path.of(monday)), "a source is unchanged");
    }

    @Test
    void refusesWhatCannotBeCombined() {
        String high = dir.resolve("high.hll").toString();
        String low = dir.resolve("low.hll").toString();
        String seeded = dir.resolve("seeded.hll").toString();
        InProcess.run("hll", "create", high, "--precision", "14");
        InProcess.run("hll", "create", low, "--precision", "10");
        InProcess.run("hll", "create", seeded, "--precision", "14", "--seed", "9");
        InProcess.Result up = InProcess.run("hll", "merge", high, low);
        assertEquals(1, up.status());
        assertEquals(
                "mapsketch: " + low + ": cannot be merged into " + high + ": cannot fold precision 10 up to 14:"
                        + " a sketch folds only to an equal or lower precision; nothing was merged",
                up.err().strip());
        InProcess.Result seeds = InProcess.run("hll", "count", high, seeded);
        assertEquals(1, seeds.status());
        assertTrue(seeds.err().startsWith("mapsketch: " + seeded + ": hash seed 9 differs"), seeds.err());
        assertEquals(
                2,
                InProcess.run("hll", "create", dir.resolve("p.hll").toString(), "--precision", "30")
                        .status());
        assertEquals(2, InProcess.run("hll", "count").status());
    }

    @Test
    void bothMergeVerbsFoldAHigherPrecision() {
        String coarse = dir.resolve("coarse.hll").toString();
        String fine = dir.resolve("fine.hll").toString();
        InProcess.run("hll", "create", coarse, "--precision", "12");
        InProcess.run("hll", "create", fine, "--precision", "14");
        InProcess.run("hll", "add", fine, "a", "b", "c");
        assertEquals(0, InProcess.run("merge", coarse, fine).status());
        assertEquals(3, count(coarse));
        InProcess.run("hll", "add", fine, "d");
        assertEquals(0, InProcess.run("hll", "merge", coarse, fine).status());
        assertEquals(4, count(coarse));
    }
}
