package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.frequency.CountMinTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mapsketch table create --kind cms, incrby, query, add, merge, info}: plays of clips per user, per day and per month. */
class CountMinTableVerbsTest {

    @TempDir
    Path dir;

    private static InProcess.Result ok(InProcess.Result result) {
        assertEquals(0, result.status(), result.err());
        return result;
    }

    /** A refusal of the table's state (status 1) or of the arguments (status 2), naming the phrases. */
    private static InProcess.Result refused(InProcess.Result result, String... phrases) {
        assertTrue(result.status() == 1 || result.status() == 2, result.status() + " " + result.out());
        for (String phrase : phrases) {
            assertTrue(result.err().contains(phrase), result.err());
        }
        return result;
    }

    private String create(String name, String... shape) {
        String table = dir.resolve(name).toString();
        String[] args = new String[6 + shape.length];
        System.arraycopy(new String[] {"table", "create", table, "--kind", "cms", "--capacity"}, 0, args, 0, 6);
        System.arraycopy(shape, 0, args, 6, shape.length);
        ok(InProcess.run(args));
        return table;
    }

    private String create(String name) {
        return create(name, "100", "--epsilon", "0.01", "--delta", "0.01");
    }

    private static List<String> query(String table, String key, String... items) {
        String[] args = new String[4 + items.length];
        System.arraycopy(new String[] {"table", "query", table, key}, 0, args, 0, 4);
        System.arraycopy(items, 0, args, 4, items.length);
        return ok(InProcess.run(args)).lines();
    }

    @Test
    void daysOfPlaysRollUpIntoTheMonthKeyByKey() throws Exception {
        String first = create("plays-1.cmt");
        String second = create("plays-2.cmt");
        String month = dir.resolve("plays-month.cmt").toString();
        String lines =
                IntStream.range(0, 30).mapToObj(i -> "user1\tclip" + (i % 3)).collect(Collectors.joining("\n"));
        assertEquals(
                "1", ok(InProcess.withInput(lines, "table", "add", first)).out().strip());
        assertEquals(
                List.of("5", "2", "7"),
                ok(InProcess.run("table", "incrby", second, "user1", "clip0", "5", "clip9", "2", "clip0", "2"))
                        .lines(),
                "CMS.INCRBY: each item's new estimate");
        assertEquals(List.of("10", "10", "0"), query(first, "user1", "clip0", "clip2", "clip9"));
        assertEquals(List.of("0"), query(first, "nobody", "clip0"));
        byte[] before = Files.readAllBytes(Path.of(first));
        ok(InProcess.run("table", "merge", month, first, second));
        assertArrayEquals(before, Files.readAllBytes(Path.of(first)), "a source is unchanged");
        assertEquals(List.of("17", "10", "2"), query(month, "user1", "clip0", "clip1", "clip9"));
        refused(InProcess.run("table", "merge", month, month, second), "count its items twice");
        assertEquals(List.of("17"), query(month, "user1", "clip0"), "a refused merge changes nothing");
        String info = ok(InProcess.run("info", month)).out();
        assertTrue(
                info.contains("COUNT_MIN_TABLE") && info.matches("(?s).*total weight: +39\n.*width: +272\n.*"), info);
        assertTrue(ok(InProcess.run("table", "info", month, "--json")).out().contains("\"keys\": 1"));
    }

    @Test
    void aSaturatedEstimateIsMarkedAndNamedOnce() {
        String table = create("sat.cmt", "4", "--width", "20", "--depth", "2");
        InProcess.Result result = ok(InProcess.run("table", "incrby", table, "k", "x", "4294967295", "y", "1"));
        assertEquals(List.of("4294967295 (saturated: 32-bit counters)", "1"), result.lines());
        assertTrue(
                result.err().contains("the count of 'x' is saturated")
                        && result.err().contains("table create --counter-bits 64"),
                result.err());
        InProcess.Result piped = ok(InProcess.withInput("j\tx\t4294967295\nj\ty\t1\n", "table", "incrby", table));
        assertEquals(List.of("4294967295 (saturated: 32-bit counters)", "1"), piped.lines());
        assertTrue(piped.err().contains("the count of 'x' of key 'j' is saturated"), piped.err());
        String wide = create("wide.cmt", "4", "--width", "20", "--depth", "2", "--counter-bits", "64");
        assertEquals(
                List.of("4294967296"),
                ok(InProcess.run("table", "incrby", wide, "k", "x", "4294967296"))
                        .lines());
    }

    @Test
    void badPairsShapesAndOtherKindsAreRefused() throws Exception {
        String table = create("t.cmt");
        refused(InProcess.run("table", "incrby", table, "k", "x", "3", "y"), "item 'y' has no count");
        refused(InProcess.run("table", "incrby", table, "k", "x", "0"), "must be at least 1");
        assertEquals(List.of("0"), query(table, "k", "x"), "nothing was added");
        refused(
                InProcess.run("table", "create", dir.resolve("a.cmt").toString(), "--kind", "cms", "--width", "20"),
                "--width and --depth go together");
        refused(
                InProcess.run("table", "create", dir.resolve("b.cmt").toString(), "--kind", "cms"),
                "give --epsilon E and --delta D");
        refused(
                InProcess.run(
                        "table",
                        "create",
                        dir.resolve("c.hllt").toString(),
                        "--kind",
                        "hll",
                        "--precision",
                        "10",
                        "--width",
                        "20"),
                "--kind cms only");
        String other = create("o.cmt", "100", "--width", "300", "--depth", "5");
        refused(InProcess.run("table", "merge", table, other), "width");
        String hll = dir.resolve("h.hllt").toString();
        ok(InProcess.run("table", "create", hll, "--kind", "hll", "--precision", "10", "--capacity", "10"));
        refused(InProcess.run("table", "query", hll, "k", "x"), "HYPERLOGLOG_TABLE", hll);
        refused(InProcess.run("table", "incrby", hll, "k", "x", "1"), "HYPERLOGLOG_TABLE", hll);
        String full = create("full.cmt", "1", "--width", "20", "--depth", "2");
        ok(InProcess.run("table", "incrby", full, "a", "x", "1"));
        refused(InProcess.run("table", "incrby", full, "b", "x", "1"), "capacity of 1 key");
        InProcess.Result fullLines = refused(
                InProcess.withInput("a\tx\t2\nb\tx\t1\na\tx\t1\n", "table", "incrby", full),
                "standard input line 2: ",
                "capacity of 1 key",
                "the 1 line before it was applied, none after it");
        assertEquals(List.of("3"), fullLines.lines(), "the estimates of the lines added");
        assertEquals(List.of("3"), query(full, "a", "x"));
    }

    /** Line {@code i} of a pipe of plays: 50 users, 97 clips, counts 1 to 5; about 20 bytes a line. */
    private static String play(int i) {
        return "user" + (i % 50) + "\tclip" + (i % 97) + "\t" + (1 + i % 5);
    }

    /** CMS.INCRBY from a pipe of 30,000 lines, some seven chunks of standard input: each line's estimate as the library's adds. */
    @Test
    void incrbyLinesOfStandardInputPrintTheEstimatesTheLibraryGives() throws Exception {
        String table = create("piped.cmt", "100", "--width", "64", "--depth", "3");
        String reference = create("reference.cmt", "100", "--width", "64", "--depth", "3");
        int lines = 30_000;
        String input =
                IntStream.range(0, lines).mapToObj(CountMinTableVerbsTest::play).collect(Collectors.joining("\n"));
        assertTrue(input.length() > 4 * 64 * 1024, "several chunks of standard input");
        List<String> printed =
                ok(InProcess.withInput(input, "table", "incrby", table)).lines();
        List<String> expected = new ArrayList<>(lines);
        try (CountMinTable library = CountMinTable.open(Path.of(reference), OpenMode.EXCLUSIVE)) {
            for (int i = 0; i < lines; i++) {
                String[] fields = play(i).split("\t");
                expected.add(Long.toString(library.add(fields[0], fields[1], Long.parseLong(fields[2]))));
            }
        }
        assertEquals(expected, printed);
        try (CountMinTable piped = CountMinTable.open(Path.of(table), OpenMode.READ_ONLY);
                CountMinTable library = CountMinTable.open(Path.of(reference), OpenMode.READ_ONLY)) {
            for (int u = 0; u < 50; u++) {
                assertArrayEquals(library.counterTable("user" + u), piped.counterTable("user" + u), "user" + u);
            }
            assertEquals(library.totalWeight(), piped.totalWeight());
            assertEquals(library.itemsAdded(), piped.itemsAdded());
            assertEquals(50, piped.keyCount());
        }
    }

    /** A bad line of a pipe, after more than a chunk of good ones: its number, its fault, and the lines before it added. */
    @Test
    void aBadLineOfStandardInputIsRefusedWithItsNumberAndWhatWasAdded() throws Exception {
        String good = IntStream.range(0, 10_000)
                .mapToObj(i -> "user1\tclip" + (i % 3) + "\t1\n")
                .collect(Collectors.joining());
        String[][] cases = {
            {"user1\tclip0", "no tab between ITEM and COUNT"},
            {"user1", "no tab after KEY"},
            {"user1\tclip0\t0", "COUNT 0 must be at least 1"},
            {"user1\tclip0\tmany", "COUNT 'many' is not a whole number"},
            {
                "user1\tclip0\t9223372036854775807",
                "COUNT 9223372036854775807 would take the total N = 10000 past 9187343239835811839"
            },
        };
        for (String[] bad : cases) {
            String table = create("bad-" + bad[1].hashCode() + ".cmt");
            InProcess.Result result = refused(
                    InProcess.withInput(good + bad[0] + "\nuser1\tclip0\t1\n", "table", "incrby", table),
                    table,
                    "standard input line 10001: " + bad[1],
                    "the 10000 lines before it were applied, none after it");
            assertEquals(10_000, result.lines().size(), "one estimate per line added");
            assertEquals(List.of("3334", "3333"), query(table, "user1", "clip0", "clip1"), bad[1]);
        }
        String table = create("key.cmt");
        refused(InProcess.run("table", "incrby", table, "k"), "needs at least one ITEM COUNT pair");
        refused(
                InProcess.withInput("a\tx\nno tab\n", "table", "add", table),
                "standard input line 2: no tab between KEY",
                "the 1 line before it");
    }

    /** CMS.MERGE WEIGHTS of tables: each source's counters W times, key by key, into a new DEST or onto one. */
    @Test
    void aWeightedMergeAddsEachSourceItsWeightTimesKeyByKey() throws Exception {
        String monday = create("mon.cmt");
        String tuesday = create("tue.cmt");
        ok(InProcess.run("table", "incrby", monday, "user1", "clip0", "2", "clip1", "1"));
        ok(InProcess.run("table", "incrby", tuesday, "user1", "clip0", "5"));
        ok(InProcess.run("table", "incrby", tuesday, "user2", "clip0", "1"));
        String week = dir.resolve("week.cmt").toString();
        ok(InProcess.run("table", "merge", week, monday, tuesday, "--weights", "3", "2"));
        assertEquals(List.of("16", "3"), query(week, "user1", "clip0", "clip1"));
        assertEquals(List.of("2"), query(week, "user2", "clip0"));
        assertTrue(ok(InProcess.run("info", week)).out().matches("(?s).*total weight: +21\n.*"));
        ok(InProcess.run("table", "merge", week, tuesday, "--weights", "4"));
        assertEquals(List.of("36", "3"), query(week, "user1", "clip0", "clip1"), "an existing DEST keeps its counts");
        assertEquals(List.of("6"), query(week, "user2", "clip0"));
    }

    @Test
    void weightsOutOfRangeOrCountOtherKindsAndWeightedTotalsPastTheLimitAreRefused() throws Exception {
        String day = create("day.cmt");
        ok(InProcess.run("table", "incrby", day, "k", "x", "1"));
        String month = dir.resolve("month.cmt").toString();
        refused(InProcess.run("table", "merge", month, day, "--weights", "0"), "the weight of " + day + " is 0");
        refused(InProcess.run("table", "merge", month, day, day, "--weights", "1"), "give one per SRC");
        String hll = dir.resolve("h.hllt").toString();
        ok(InProcess.run("table", "create", hll, "--kind", "hll", "--precision", "10", "--capacity", "10"));
        String bloom = dir.resolve("b.bft").toString();
        ok(InProcess.run("table", "create", bloom, "--kind", "bloom", "--error-rate", "0.01", "--capacity", "10"));
        String hllMonth = dir.resolve("h-month.hllt").toString();
        refused(
                InProcess.run("table", "merge", hllMonth, hll, "--weights", "2"),
                hll,
                "HYPERLOGLOG_TABLE",
                "--weights weighs Count-Min tables only");
        assertTrue(Files.notExists(Path.of(hllMonth)), "no DEST is created for a refused merge");
        refused(InProcess.run("table", "merge", bloom, day, "--weights", "2"), bloom, "BLOOM_TABLE", "--weights");
        String wide = create("wide.cmt", "4", "--width", "20", "--depth", "2", "--counter-bits", "64");
        ok(InProcess.run("table", "incrby", wide, "k", "x", Long.toString(4_593_671_619_917_905_920L)));
        String wideMonth = dir.resolve("wide-month.cmt").toString();
        refused(
                InProcess.run("table", "merge", wideMonth, wide, "--weights", "2"),
                wideMonth,
                "total weight, weighted = 9187343239835811840",
                "past 9187343239835811839");
        assertEquals(List.of("0"), query(wideMonth, "k", "x"), "nothing was merged");
        ok(InProcess.run("table", "merge", wideMonth, wide, "--weights", "1"));
        assertEquals(List.of("4593671619917905920"), query(wideMonth, "k", "x"));
    }
}
