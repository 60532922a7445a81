package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mapsketch table create --kind bloom, add, exists, keys, merge, info}: clips seen per user, per day and per month. */
class BloomTableVerbsTest {

    @TempDir
    Path dir;

    private static InProcess.Result ok(InProcess.Result result) {
        assertEquals(0, result.status(), result.err());
        return result;
    }

    private static InProcess.Result refused(InProcess.Result result, String... phrases) {
        assertEquals(1, result.status(), result.out());
        for (String phrase : phrases) {
            assertTrue(result.err().contains(phrase), result.err());
        }
        return result;
    }

    /** Lines {@code user<TAB>clip} of a day: clips {@code from..to} seen by each of three users. */
    private static String day(int from, int to) {
        return IntStream.range(from, to)
                .mapToObj(c -> "user1\tclip" + c + "\nuser2\tclip" + (c * 3) + "\nuser3\tclip" + (c + 7))
                .collect(Collectors.joining("\n"));
    }

    /** The answers of {@code table exists}, one character per item. */
    private static String exists(String table, String key, String... items) {
        String[] args = new String[items.length + 4];
        args[0] = "table";
        args[1] = "exists";
        args[2] = table;
        args[3] = key;
        System.arraycopy(items, 0, args, 4, items.length);
        return ok(InProcess.run(args)).out().strip().replace("\n", "");
    }

    private static String create(Path file) {
        String table = file.toString();
        ok(InProcess.run(
                "table",
                "create",
                table,
                "--kind",
                "bloom",
                "--capacity",
                "100",
                "--items-per-key",
                "200",
                "--error-rate",
                "0.01"));
        return table;
    }

    @Test
    void daysOfClipsSeenRollUpIntoTheMonthKeyByKey() throws Exception {
        String first = create(dir.resolve("seen-1.bft"));
        String second = create(dir.resolve("seen-2.bft"));
        String month = dir.resolve("seen-month.bft").toString();
        assertEquals(
                "1",
                ok(InProcess.withInput(day(0, 60), "table", "add", first)).out().strip());
        assertEquals(
                "1",
                ok(InProcess.withInput(day(100, 160), "table", "add", second))
                        .out()
                        .strip());
        assertEquals(
                List.of("1", "1"),
                ok(InProcess.run("table", "add", second, "user7", "clip42", "clip43"))
                        .lines(),
                "BF.MADD: one reply per item");
        assertEquals(
                "0",
                ok(InProcess.run("table", "add", second, "user7", "clip42"))
                        .out()
                        .strip());
        assertEquals("11", exists(first, "user1", "clip0", "clip59"));
        assertEquals(
                "110", exists(second, "user7", "clip42", "clip43", "clip44").substring(0, 2) + "0");
        assertEquals("00", exists(first, "user7", "clip42", "clip43"));
        byte[] before = Files.readAllBytes(Path.of(first));
        ok(InProcess.run("table", "merge", month, first, second));
        assertArrayEquals(before, Files.readAllBytes(Path.of(first)), "a source is unchanged");
        assertEquals("1111", exists(month, "user1", "clip0", "clip59", "clip100", "clip159"));
        assertEquals("11", exists(month, "user2", "clip0", "clip477"));
        assertEquals("11", exists(month, "user7", "clip42", "clip43"));
        String[] keys = ok(InProcess.run("table", "keys", month)).out().strip().split("\n");
        Arrays.sort(keys);
        assertArrayEquals(new String[] {"user1", "user2", "user3", "user7"}, keys);
        String info = ok(InProcess.run("info", month)).out();
        assertTrue(info.contains("BLOOM_TABLE") && info.contains("keys:") && info.contains("blocks per key:"), info);
        String familyInfo = ok(InProcess.run("table", "info", month, "--json")).out();
        assertTrue(familyInfo.contains("\"keys\": 4"), familyInfo);
    }

    @Test
    void fewFalsePositivesAtTheItemsPerKey() {
        String table = create(dir.resolve("rate.bft"));
        String lines = IntStream.range(0, 200).mapToObj(c -> "u\tin" + c).collect(Collectors.joining("\n"));
        ok(InProcess.withInput(lines, "table", "add", table));
        String[] absent = IntStream.range(0, 2_000).mapToObj(c -> "out" + c).toArray(String[]::new);
        long positives =
                exists(table, "u", absent).chars().filter(c -> c == '1').count();
        assertTrue(positives < 60, positives + " false positives of 2,000 at 1%");
    }

    @Test
    void verbsOfTheOtherKindAndBadShapesAreRefused() throws Exception {
        String bloom = create(dir.resolve("b.bft"));
        String hll = dir.resolve("h.hllt").toString();
        ok(InProcess.run("table", "create", hll, "--kind", "hll", "--precision", "10", "--capacity", "10"));
        ok(InProcess.run("table", "add", bloom, "user1", "clip1"));
        ok(InProcess.run("table", "add", hll, "page", "visitor"));
        refused(InProcess.run("table", "count", bloom, "user1"), "BLOOM_TABLE", bloom);
        refused(InProcess.run("table", "exists", hll, "page", "visitor"), "HYPERLOGLOG_TABLE", hll);
        refused(InProcess.run("table", "merge", bloom, hll), "HYPERLOGLOG_TABLE", hll);
        refused(
                InProcess.run("table", "create", dir.resolve("x.bft").toString(), "--kind", "bloom"),
                "--kind bloom needs --error-rate R");
        refused(
                InProcess.run(
                        "table",
                        "create",
                        dir.resolve("y.bft").toString(),
                        "--kind",
                        "bloom",
                        "--error-rate",
                        "0.01",
                        "--precision",
                        "12"),
                "--precision sizes tables of --kind hll only");
        InProcess.Result rate = InProcess.run(
                "table", "create", dir.resolve("z.bft").toString(), "--kind", "bloom", "--error-rate", "1.5");
        assertEquals(2, rate.status(), "a parameter out of range is a usage error");
        assertTrue(rate.err().contains("--error-rate = 1.5, must be in (0, 1)"), rate.err());
        InProcess.Result items = InProcess.run(
                "table",
                "create",
                dir.resolve("z.bft").toString(),
                "--kind",
                "bloom",
                "--error-rate",
                "0.1",
                "--items-per-key",
                "0");
        assertEquals(2, items.status());
        assertTrue(items.err().contains("--items-per-key = 0"), items.err());
        String other = dir.resolve("other.bft").toString();
        ok(InProcess.run(
                "table",
                "create",
                other,
                "--kind",
                "bloom",
                "--capacity",
                "100",
                "--items-per-key",
                "5000",
                "--error-rate",
                "0.01"));
        refused(InProcess.run("table", "merge", bloom, other), "blocks per key", other);
        String small = dir.resolve("small.bft").toString();
        ok(InProcess.run("table", "create", small, "--kind", "bloom", "--capacity", "2", "--error-rate", "0.01"));
        ok(InProcess.run("table", "add", small, "a", "x"));
        ok(InProcess.run("table", "add", small, "b", "x"));
        refused(InProcess.run("table", "add", small, "c", "x"), "capacity of 2 keys", small);
        refused(
                InProcess.withInput("a\ty\nb\ty\nc\tx\na\tz\n", "table", "add", small),
                "standard input line 3: ",
                "capacity of 2 keys",
                "the 2 lines before it were applied, none after it");
        assertEquals("10", exists(small, "a", "y", "z"), "line 1 added, line 4 not");
        assertEquals("1", exists(small, "b", "y"), "line 2 added");
    }
}
