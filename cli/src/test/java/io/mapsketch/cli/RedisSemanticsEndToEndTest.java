package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The verbs as a Redis user expects them, each command line its own process on the module path: merges
 * that create their destination and take it among the sources where merging is idempotent, the replies
 * of the add verbs, the RedisBloom verbs, all of a verb's input or none of it, UTF-8 input, and the
 * capacity that {@code info} judges from the fill.
 */
class RedisSemanticsEndToEndTest {

    @TempDir
    Path dir;

    private ChildCommand.Result ok(String stdin, String... args) throws IOException, InterruptedException {
        ChildCommand.Result result = ChildCommand.run(dir, stdin, args);
        assertEquals(0, result.status(), String.join(" ", args) + ": " + result.err());
        return result;
    }

    private ChildCommand.Result refused(int status, String stdin, String... args)
            throws IOException, InterruptedException {
        ChildCommand.Result result = ChildCommand.run(dir, stdin, args);
        assertEquals(status, result.status(), String.join(" ", args) + ": " + result.out() + result.err());
        return result;
    }

    private String file(String name) {
        return dir.resolve(name).toString();
    }

    private static String lines(IntStream numbers) {
        return numbers.mapToObj(i -> "key-" + i + "\n").collect(Collectors.joining());
    }

    @Test
    void mergeCreatesAMissingDestinationAndTakesItAmongTheSourcesUnlessItSums() throws Exception {
        ok("", "hll", "create", file("mon.hll"), "--precision", "12");
        ok("", "hll", "create", file("tue.hll"), "--precision", "12");
        assertEquals(
                List.of("1"), ok("", "hll", "add", file("mon.hll"), "a", "b").lines());
        assertEquals(List.of("0"), ok("", "hll", "add", file("mon.hll"), "a").lines(), "no register changed");
        ok("b\nc\n", "hll", "add", file("tue.hll"));
        ok("", "hll", "merge", file("week.hll"), file("mon.hll"), file("tue.hll"));
        assertEquals(List.of("3"), ok("", "hll", "count", file("week.hll")).lines());
        ok("", "hll", "merge", file("mon.hll"), file("mon.hll"), file("tue.hll"));
        assertEquals(List.of("3"), ok("", "hll", "count", file("mon.hll")).lines());

        ok("", "bf", "create", file("a.bf"), "--capacity", "1000", "--error-rate", "0.01");
        ok("", "bf", "create", file("b.bf"), "--capacity", "1000", "--error-rate", "0.01");
        ok("", "bf", "add", file("a.bf"), "x");
        ok("", "bf", "add", file("b.bf"), "y");
        ok("", "merge", file("all.bf"), file("a.bf"), file("b.bf"));
        assertEquals(
                List.of("1", "1", "0"),
                ok("", "bf", "exists", file("all.bf"), "x", "y", "z").lines());
        ok("", "merge", file("a.bf"), file("a.bf"), file("b.bf"));
        assertEquals(
                List.of("1", "1"),
                ok("", "bf", "exists", file("a.bf"), "x", "y").lines());

        ok("", "cms", "create", file("c.cms"), "--epsilon", "0.01", "--delta", "0.01");
        ok("", "cms", "incrby", file("c.cms"), "k", "2");
        String itself = refused(1, "", "merge", file("c.cms"), file("c.cms")).err();
        assertTrue(
                itself.contains("mapsketch: " + file("c.cms") + ": is the destination itself; merging a COUNT_MIN"
                        + " sketch into itself would count its items twice"),
                itself);
        ok("", "cms", "merge", file("w.cms"), file("c.cms"), file("c.cms"), "--weights", "1", "2");
        assertEquals(List.of("6"), ok("", "cms", "query", file("w.cms"), "k").lines());
    }

    @Test
    void everyMergeableKindCreatesAMissingDestinationAndTakesItAmongTheSourcesOnlyWhereIdempotent() throws Exception {
        ok("", "bf", "create", file("s.bf"), "--capacity", "100", "--error-rate", "0.01", "--expansion", "2");
        ok("", "bf", "add", file("s.bf"), "x");
        ok("", "merge", file("s-week.bf"), file("s.bf"));
        ok("", "merge", file("s.bf"), file("s.bf"), file("s-week.bf"));
        assertEquals(
                List.of("1", "0"),
                ok("", "bf", "exists", file("s-week.bf"), "x", "never-added").lines());

        ok("", "minhash", "create", file("a.mh"), "--rows", "2", "--standard-error", "0.1");
        ok("p\nq\n", "minhash", "add", file("a.mh"), "0");
        ok("", "merge", file("week.mh"), file("a.mh"));
        ok("", "merge", file("a.mh"), file("a.mh"), file("week.mh"));
        assertEquals(
                ok("", "minhash", "similar", file("a.mh"), "0", "--top", "1").lines(),
                ok("", "minhash", "similar", file("week.mh"), "0", "--top", "1").lines());

        ok("", "table", "create", file("day.table"), "--kind", "hll", "--precision", "10");
        ok("", "table", "add", file("day.table"), "page", "a", "b");
        ok("", "table", "merge", file("month.table"), file("day.table"));
        ok("", "table", "merge", file("day.table"), file("day.table"), file("month.table"));
        assertEquals(
                List.of("2"),
                ok("", "table", "count", file("month.table"), "page").lines());
        assertEquals(
                List.of("2"),
                ok("", "table", "count", file("day.table"), "page").lines());

        ok("", "bf", "create", file("c.bf"), "--capacity", "100", "--error-rate", "0.01", "--layout", "counting");
        ok("", "bf", "add", file("c.bf"), "x");
        ok("", "merge", file("c-week.bf"), file("c.bf"));
        assertEquals(
                List.of("1"), ok("", "bf", "exists", file("c-week.bf"), "x").lines());
        assertTrue(refused(1, "", "merge", file("c.bf"), file("c.bf")).err().contains("would count its items twice"));

        ok("", "topk", "create", file("t.topk"), "--k", "2");
        ok("", "topk", "incrby", file("t.topk"), "a", "5");
        ok("", "merge", file("t-week.topk"), file("t.topk"));
        assertEquals(
                List.of("5"), ok("", "topk", "count", file("t-week.topk"), "a").lines());
        assertTrue(refused(1, "", "merge", file("t.topk"), file("t.topk"), file("t-week.topk"))
                .err()
                .contains("would count its items twice"));
        assertEquals(List.of("5"), ok("", "topk", "count", file("t.topk"), "a").lines(), "nothing was merged");
    }

    @Test
    void aSourceOfAnotherShapeIsRefusedBeforeAnythingIsMerged() throws Exception {
        for (String name : List.of("a.bf", "b.bf")) {
            ok("", "bf", "create", file(name), "--capacity", "1000", "--error-rate", "0.01");
        }
        ok("", "bf", "create", file("odd.bf"), "--capacity", "5000", "--error-rate", "0.01");
        ok("", "bf", "add", file("b.bf"), "y");
        String err = refused(1, "", "merge", file("a.bf"), file("b.bf"), file("odd.bf"))
                .err();
        assertTrue(
                err.contains("mapsketch: " + file("odd.bf") + ": cannot be merged into " + file("a.bf") + ": "), err);
        assertTrue(err.contains("; nothing was merged"), err);
        assertEquals(List.of("0"), ok("", "bf", "exists", file("a.bf"), "y").lines(), "b.bf was not merged");

        ok("", "hll", "create", file("p12.hll"), "--precision", "12");
        ok("", "hll", "create", file("p14.hll"), "--precision", "14");
        ok("", "hll", "create", file("p10.hll"), "--precision", "10");
        ok("", "hll", "add", file("p14.hll"), "a", "b");
        String lower = refused(1, "", "hll", "merge", file("p12.hll"), file("p14.hll"), file("p10.hll"))
                .err();
        assertTrue(lower.contains(file("p10.hll") + ": cannot be merged into " + file("p12.hll")), lower);
        assertTrue(lower.contains("cannot fold precision 10 up to 12"), lower);
        assertEquals(List.of("0"), ok("", "hll", "count", file("p12.hll")).lines(), "the p14 source was not folded in");
        ok("", "hll", "merge", file("p12.hll"), file("p14.hll"));
        assertEquals(List.of("2"), ok("", "hll", "count", file("p12.hll")).lines());
    }

    @Test
    void addVerbsReplyAsRedisDoes() throws Exception {
        ok("", "bf", "create", file("cl.bf"), "--capacity", "1000", "--error-rate", "0.01", "--layout", "classic");
        assertEquals(
                List.of("1", "1", "0"),
                ok("", "bf", "add", file("cl.bf"), "a", "b", "a").lines());
        ok("", "bf", "create", file("co.bf"), "--capacity", "1000", "--error-rate", "0.01", "--layout", "counting");
        assertEquals(
                List.of("1", "0"), ok("", "bf", "add", file("co.bf"), "a", "a").lines());
        ok("", "bf", "create", file("bl.bf"), "--capacity", "1000", "--error-rate", "0.01");
        assertEquals(List.of("1", "0"), ok("x\nx\n", "bf", "add", file("bl.bf")).lines());

        ok("", "cms", "create", file("e.cms"), "--epsilon", "0.001", "--delta", "0.01");
        assertEquals(
                List.of("3", "2", "4"),
                ok("", "cms", "incrby", file("e.cms"), "a", "3", "b", "2", "a", "1")
                        .lines());
        assertEquals(
                List.of("5", "3"), ok("a\nb\n", "cms", "incrby", file("e.cms")).lines());

        ok("", "topk", "create", file("p.topk"), "--k", "2");
        assertEquals(
                List.of("", "", "", "", "b", ""),
                ok("", "topk", "add", file("p.topk"), "a", "a", "b", "c", "c", "c")
                        .lines());
        assertEquals(
                List.of("a"),
                ok("", "topk", "incrby", file("p.topk"), "z", "10").lines());
        assertEquals(
                List.of("1", "1", "0"),
                ok("", "topk", "query", file("p.topk"), "c", "z", "a").lines());
        assertEquals(
                List.of("2", "3", "10", "0"),
                ok("", "topk", "count", file("p.topk"), "a", "c", "z", "q").lines());

        ok("", "cf", "create", file("s.cf"), "--capacity", "100");
        assertEquals(
                List.of("1", "1"), ok("", "cf", "add", file("s.cf"), "x", "x").lines());
        assertEquals(
                List.of("0", "1"), ok("", "cf", "addnx", file("s.cf"), "x", "y").lines());
        assertEquals(
                List.of("2", "1", "0"),
                ok("", "cf", "count", file("s.cf"), "x", "y", "z").lines());
    }

    @Test
    void theRedisBloomVerbs() throws Exception {
        assertEquals(
                List.of("1", "1", "0"),
                ok("", "bf", "insert", file("new.bf"), "--capacity", "1000", "--error-rate", "0.001", "a", "b", "a")
                        .lines());
        String inserted = ok("", "bf", "info", file("new.bf"), "--json").out();
        assertTrue(inserted.contains("\"expected_items\": 1000, \"target_false_positive_rate\": 0.001, "), inserted);
        assertTrue(refused(1, "", "bf", "insert", file("none.bf"), "--no-create", "a")
                .err()
                .contains("no such file"));
        assertEquals(List.of("1"), ok("", "bf", "insert", file("new.bf"), "c").lines(), "an existing file");

        ok("", "bf", "create", file("grows"), "--capacity", "100", "--error-rate", "0.01", "--expansion", "3");
        ok(lines(IntStream.range(0, 2_000)), "bf", "add", file("grows"));
        assertEquals(
                Collections.nCopies(3, "1"),
                ok("", "bf", "exists", file("grows"), "key-0", "key-999", "key-1999")
                        .lines());
        String grown = ok("", "bf", "info", file("grows")).out();
        assertTrue(grown.matches("(?s).*\nkind: +SCALABLE_BLOOM\n.*\nlinks: +[3-9]\ngrowth factor: +3.0\n.*"), grown);
        refused(
                2,
                "",
                "bf",
                "create",
                file("c.bf"),
                "--capacity",
                "9",
                "--error-rate",
                "0.1",
                "--expansion",
                "2",
                "--layout",
                "classic");

        ok("", "cms", "create", file("d.cms"), "--width", "2000", "--depth", "5");
        String dims = ok("", "cms", "info", file("d.cms"), "--json").out();
        assertTrue(dims.contains("\"width\": 2000, \"depth\": 5, \"counter_bits\": 32"), dims);
        refused(2, "", "cms", "create", file("w.cms"), "--width", "2000", "--depth", "5", "--epsilon", "0.1");

        ok("", "cf", "create", file("s.cf"), "--capacity", "100");
        assertTrue(ok("", "cf", "info", file("s.cf")).out().contains("CUCKOO"));
        String other = refused(1, "", "cms", "info", file("s.cf")).err();
        assertTrue(other.contains("mapsketch: " + file("s.cf") + ": a CUCKOO sketch, not one of this verb's"), other);
    }

    @Test
    void aVerbAppliesAllOfItsInputOrSaysExactlyWhatItApplied() throws Exception {
        ok("", "cms", "create", file("c.cms"), "--epsilon", "0.01", "--delta", "0.01");
        ok("", "cms", "incrby", file("c.cms"), "k", "1");
        String most = Long.toString(Long.MAX_VALUE - (1L << 55));
        String tooMuch = refused(2, "", "cms", "incrby", file("c.cms"), "k", most, "k", most)
                .err();
        assertTrue(tooMuch.contains("nothing was added"), tooMuch);
        assertEquals(List.of("1"), ok("", "cms", "query", file("c.cms"), "k").lines(), "neither pair was added");

        ok("", "topk", "create", file("short.topk"), "--k", "3", "--max-item-bytes", "8");
        ChildCommand.Result cut = refused(1, "a\nb\n123456789\nc\n", "topk", "add", file("short.topk"));
        assertTrue(
                cut.err()
                        .contains("mapsketch: " + file("short.topk") + ": standard input line 3: key length = 9 bytes,"
                                + " must be in [0, 8]"),
                cut.err());
        assertEquals(List.of("", ""), cut.lines(), "the replies of the two lines applied");
        assertEquals(
                List.of("a", "b"), ok("", "topk", "list", file("short.topk")).lines());
        refused(2, "", "topk", "add", file("short.topk"), "d", "123456789");
        assertEquals(
                List.of("a", "b"), ok("", "topk", "list", file("short.topk")).lines(), "no argument was added");
    }

    @Test
    void standardInputThatIsNotUtf8IsRefusedWithItsLineNumber() throws Exception {
        ok("", "bf", "create", file("u.bf"), "--capacity", "1000", "--error-rate", "0.01");
        ByteArrayOutputStream latin1 = new ByteArrayOutputStream();
        latin1.write("ünï\n".getBytes(StandardCharsets.UTF_8));
        latin1.write(0xFF);
        latin1.write("\nlater\n".getBytes(StandardCharsets.UTF_8));
        ChildCommand.Result result = ChildCommand.run(dir, latin1.toByteArray(), "bf", "add", file("u.bf"));
        assertEquals(1, result.status(), result.err());
        assertTrue(
                result.err()
                        .contains("mapsketch: " + file("u.bf") + ": standard input line 2: not UTF-8 text (byte 0xff at"
                                + " byte 1 of the line); items are UTF-8 strings; the 1 item before it was applied, none"
                                + " after it"),
                result.err());
        assertEquals(List.of("1"), result.lines());
        assertEquals(
                List.of("1", "0"),
                ok("ünï\nlater\n", "bf", "exists", file("u.bf")).lines());
        assertTrue(refused(2, "", "simhash", "create", file("d.sh"), "--capacity", "10", "--shingle", "2")
                .err()
                .contains("--shingle"));
    }

    /** 600 distinct keys added twice to a filter of 1,000 are 600 by its fill: not over capacity. */
    @Test
    void infoJudgesCapacityFromTheFill() throws Exception {
        ok("", "bf", "create", file("cap.bf"), "--capacity", "1000", "--error-rate", "0.01");
        String keys = lines(IntStream.range(0, 600));
        ok(keys + keys, "bf", "add", file("cap.bf"));
        String json = ok("", "info", file("cap.bf"), "--json").out();
        assertTrue(json.contains("\"items_added\": 1200, "), json);
        assertTrue(json.contains("\"probes_per_key\": 8, "), json);
        assertTrue(json.contains("\"bits_per_key\": 10.24, "), json);
        assertTrue(json.contains("\"over_capacity\": false}"), json);
        Matcher estimated = Pattern.compile("\"estimated_items\": (\\d+)").matcher(json);
        assertTrue(estimated.find(), json);
        assertEquals(600, Long.parseLong(estimated.group(1)), 30, json);
        long card = Long.parseLong(ok("", "bf", "card", file("cap.bf")).out().strip());
        assertEquals(600, card, 30);
    }
}
