package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.memory.RegionMode;
import io.mapsketch.memory.SketchRegion;
import io.mapsketch.memory.SketchRegions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code create} verb given parameters no sketch file can hold: a usage error, status 2, one line
 * that names the parameter, its value and the valid range, and no file. And counters near 2^63: merges
 * saturate the items counter, and the file keeps opening.
 */
class UnsizableParametersVerbsTest {

    @TempDir
    Path dir;

    private String file(String name) {
        return dir.resolve(name).toString();
    }

    /** The example printed {@code mapsketch: long overflow} with status 1. */
    @Test
    void aRateNoFilterReachesIsAOneLineUsageError() throws IOException, InterruptedException {
        for (String layout : List.of("blocked", "classic", "counting")) {
            String filter = file(layout + ".bf");
            InProcess.Result refused = InProcess.run(
                    "bf", "create", filter, "--capacity", "100", "--error-rate", "1e-300", "--layout", layout);
            assertEquals(2, refused.status(), refused.err());
            assertEquals(1, refused.err().lines().count(), refused.err());
            assertTrue(refused.err().startsWith("mapsketch: --error-rate = 1.0E-300, must be in ["), refused.err());
            assertTrue(refused.err().strip().endsWith("; see 'mapsketch bf create --help'"), refused.err());
            assertFalse(Files.exists(Path.of(filter)), layout);
        }
        ChildCommand.Result child = ChildCommand.run(
                dir, "", "bf", "create", file("child.bf"), "--capacity", "100", "--error-rate", "1e-300");
        assertEquals(2, child.status(), child.err());
        List<String> ours = child.err()
                .lines()
                .filter(line -> !line.startsWith("WARNING: Using incubator modules"))
                .toList();
        assertEquals(1, ours.size(), child.err());
        assertTrue(ours.get(0).startsWith("mapsketch: --error-rate = 1.0E-300, must be in ["), child.err());
        assertFalse(Files.exists(dir.resolve("child.bf")));
    }

    @Test
    void everyCreateVerbRefusesWhatNoFileHolds() {
        List<List<String>> refusals = List.of(
                List.of("--capacity = 9223372036854775807", "cf", "create", "x", "--capacity", "9223372036854775807"),
                List.of("--error-rate = 1.0E-9", "cf", "create", "x", "--capacity", "10", "--error-rate", "1e-9"),
                List.of("--epsilon = 1.0E-300", "cms", "create", "x", "--epsilon", "1e-300", "--delta", "0.01"),
                List.of("--delta = NaN", "cms", "create", "x", "--epsilon", "0.01", "--delta", "NaN"),
                List.of("--delta = 0.0", "topk", "create", "x", "--k", "10", "--delta", "1e-400"),
                List.of("--k = 2000000", "topk", "create", "x", "--k", "2000000"),
                List.of("--precision = 30", "hll", "create", "x", "--precision", "30"),
                List.of("--standard-error = 1.0E-9", "minhash", "create", "x", "--standard-error", "1e-9"),
                List.of("--capacity = 2199023255553", "simhash", "create", "x", "--capacity", "2199023255553"),
                List.of(
                        "--capacity = 9223372036854775807",
                        "bf",
                        "create",
                        "x",
                        "--capacity",
                        "9223372036854775807",
                        "--error-rate",
                        "0.01",
                        "--layout",
                        "classic"));
        for (List<String> refusal : refusals) {
            String[] args = refusal.subList(1, refusal.size()).stream()
                    .map(a -> a.equals("x") ? file("x") : a)
                    .toArray(String[]::new);
            InProcess.Result result = InProcess.run(args);
            assertEquals(2, result.status(), refusal + ": " + result.err());
            assertEquals(1, result.err().lines().count(), refusal + ": " + result.err());
            assertTrue(
                    result.err().startsWith("mapsketch: " + refusal.get(0))
                            && result.err().contains("must be"),
                    refusal + ": " + result.err());
            assertFalse(Files.exists(dir.resolve("x")), refusal.toString());
        }
    }

    /** A delta below 1 / Double.MAX_VALUE (5.56e-309) once asked for 2^31 - 1 rows (137 GB); no depth honours it. */
    @Test
    void aDeltaTheHashCannotHonourIsAUsageError() throws IOException {
        String sketch = file("tiny-delta.cms");
        InProcess.Result created = InProcess.run("cms", "create", sketch, "--epsilon", "0.01", "--delta", "1e-310");
        assertEquals(2, created.status(), created.err());
        assertEquals(1, created.err().lines().count(), created.err());
        assertTrue(
                created.err().contains("mapsketch: --delta = 1.0E-310, must be in [" + 0x1p-64 / 0.01 + ", 1)"),
                created.err());
        assertFalse(Files.exists(Path.of(sketch)));
    }

    /** A source near 2^63 once wrapped the destination's count negative, and the next open refused the file. */
    @Test
    void mergesNearTheTopSaturateTheItemsCounter() throws IOException {
        String into = file("into.hll");
        String near = file("near.hll");
        for (String hll : List.of(into, near)) {
            assertEquals(
                    0, InProcess.run("hll", "create", hll, "--precision", "10").status());
            assertEquals(0, InProcess.run("hll", "add", hll, "a", "b").status());
        }
        try (SketchRegion region = SketchRegions.open(Path.of(near), RegionMode.EXCLUSIVE)) {
            region.addItems(Long.MAX_VALUE / 3 * 2);
        }
        for (int merge = 0; merge < 3; merge++) {
            InProcess.Result merged = InProcess.run("merge", into, near);
            assertEquals(0, merged.status(), merged.err());
        }
        InProcess.Result info = InProcess.run("info", into, "--json");
        assertEquals(0, info.status(), info.err());
        assertTrue(info.out().contains("\"items_added\": " + Long.MAX_VALUE), info.out());
        assertEquals(List.of("2"), InProcess.run("hll", "count", into).lines());
    }
}
