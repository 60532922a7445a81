package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mapsketch table create, add, count, keys, merge, info}: visitors per page per day, rolled into the month. */
class TableVerbsTest {

    @TempDir
    Path dir;

    private static InProcess.Result ok(InProcess.Result result) {
        assertEquals(0, result.status(), result.err());
        return result;
    }

    /** Lines {@code page<TAB>visitor} of a day: visitors {@code from..to} on each of three pages. */
    private static String day(int from, int to) {
        return IntStream.range(from, to)
                .mapToObj(v -> "/home\tv" + v + "\n/about\tv" + v + "\n/shop\tv" + (v * 7))
                .collect(Collectors.joining("\n"));
    }

    private static long count(String table, String... keys) {
        String[] args = new String[keys.length + 3];
        args[0] = "table";
        args[1] = "count";
        args[2] = table;
        System.arraycopy(keys, 0, args, 3, keys.length);
        return Long.parseLong(ok(InProcess.run(args)).out().strip());
    }

    @Test
    void daysRollUpIntoTheMonthKeyByKey() throws Exception {
        String first = dir.resolve("day-1.hllt").toString();
        String second = dir.resolve("day-2.hllt").toString();
        String month = dir.resolve("month.hllt").toString();
        for (String day : new String[] {first, second}) {
            ok(InProcess.run("table", "create", day, "--kind", "hll", "--precision", "14", "--capacity", "1000"));
        }
        assertEquals(
                "1",
                ok(InProcess.withInput(day(0, 3_000), "table", "add", first))
                        .out()
                        .strip());
        assertEquals(
                "1",
                ok(InProcess.withInput(day(2_000, 5_000), "table", "add", second))
                        .out()
                        .strip());
        assertEquals(
                "1",
                ok(InProcess.run("table", "add", second, "/contact", "alice", "bob"))
                        .out()
                        .strip());
        assertEquals(
                "0",
                ok(InProcess.run("table", "add", second, "/contact", "alice"))
                        .out()
                        .strip());
        assertEquals(3_000, count(first, "/home"), 3 * 0.0081 * 3_000);
        assertEquals(2, count(second, "/contact"));
        byte[] before = Files.readAllBytes(Path.of(first));
        ok(InProcess.run("table", "merge", month, first, second));
        assertArrayEquals(before, Files.readAllBytes(Path.of(first)), "a source is unchanged");
        assertEquals(5_000, count(month, "/home"), 3 * 0.0081 * 5_000);
        assertEquals(5_000, count(month, "/home", "/about"), 3 * 0.0081 * 5_000);
        String[] keys = ok(InProcess.run("table", "keys", month)).out().strip().split("\n");
        Arrays.sort(keys);
        assertArrayEquals(new String[] {"/about", "/contact", "/home", "/shop"}, keys);
        String info = ok(InProcess.run("info", month)).out();
        assertTrue(info.contains("HYPERLOGLOG_TABLE") && info.contains("keys:") && info.contains("dense keys:"), info);
        String familyInfo = ok(InProcess.run("table", "info", month, "--json")).out();
        assertTrue(familyInfo.contains("\"keys\": 4"), familyInfo);
    }

    @Test
    void aLineWithoutATabAndAnotherKindAreRefused() throws Exception {
        String table = dir.resolve("t.hllt").toString();
        InProcess.Result kind = InProcess.run("table", "create", table, "--kind", "cuckoo", "--precision", "14");
        assertEquals(1, kind.status());
        assertTrue(kind.err().contains("a table's kind is hll, bloom or cms"), kind.err());
        InProcess.Result noPrecision = InProcess.run("table", "create", table, "--kind", "hll");
        assertEquals(1, noPrecision.status());
        assertTrue(noPrecision.err().contains("--kind hll needs --precision P"), noPrecision.err());
        ok(InProcess.run("table", "create", table, "--kind", "hll", "--precision", "10", "--capacity", "2"));
        InProcess.Result noTab = InProcess.withInput("/home\tv1\nno tab here\n", "table", "add", table);
        assertEquals(1, noTab.status());
        assertTrue(noTab.err().contains("no tab"), noTab.err());
        ok(InProcess.run("table", "add", table, "b", "x"));
        InProcess.Result full = InProcess.run("table", "add", table, "c", "x");
        assertEquals(1, full.status());
        assertTrue(full.err().contains("capacity of 2 keys") && full.err().contains(table), full.err());
    }

    /** Sources merged together into a table too small for their keys: one line naming the files, and what stays merged. */
    @Test
    void aMergeIntoAFullTableNamesTheFilesAndWhatWasMerged() throws Exception {
        String small = dir.resolve("small.hllt").toString();
        ok(InProcess.run("table", "create", small, "--kind", "hll", "--precision", "10", "--capacity", "2"));
        String[] days = new String[3];
        for (int d = 0; d < days.length; d++) {
            days[d] = dir.resolve("day-" + d + ".hllt").toString();
            ok(InProcess.run("table", "create", days[d], "--kind", "hll", "--precision", "10", "--capacity", "10"));
            ok(InProcess.run("table", "add", days[d], "page-" + d, "v"));
        }
        InProcess.Result full = InProcess.run("table", "merge", small, days[0], days[1], days[2]);
        assertEquals(1, full.status());
        assertTrue(
                full.err().contains(small + ": cannot merge " + days[0] + " and 2 more")
                        && full.err().contains("capacity of 2 keys")
                        && full.err().contains("the keys before it were merged"),
                full.err());
        assertEquals(
                "2", ok(InProcess.run("table", "keys", small)).out().lines().count() + "");
    }
}
