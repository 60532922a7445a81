package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The happy path of every verb, each run as its own process on the module path as the launcher runs
 * it (one JVM per command line, as a user's shell would), plus the exit statuses of a usage error and
 * a kind mismatch.
 */
class EveryVerbEndToEndTest {

    @TempDir
    Path dir;

    private ChildCommand.Result ok(String stdin, String... args) throws IOException, InterruptedException {
        ChildCommand.Result result = ChildCommand.run(dir, stdin, args);
        assertEquals(0, result.status(), String.join(" ", args) + ": " + result.err());
        return result;
    }

    private String file(String name) {
        return dir.resolve(name).toString();
    }

    @Test
    void membershipVerbs() throws Exception {
        ok("", "bf", "create", file("v.bf"), "--capacity", "1000", "--error-rate", "0.01", "--layout", "classic");
        ok("", "bf", "add", file("v.bf"), "alice", "bob");
        ok("carol\n", "bf", "add", file("v.bf"));
        assertEquals(
                List.of("1", "1", "0"),
                ok("", "bf", "exists", file("v.bf"), "alice", "carol", "dave").lines());
        ok("", "bf", "create", file("w.bf"), "--capacity", "1000", "--error-rate", "0.01", "--layout", "classic");
        ok("", "bf", "add", file("w.bf"), "dave");
        ok("", "merge", file("v.bf"), file("w.bf"));
        assertEquals(List.of("1"), ok("", "bf", "exists", file("v.bf"), "dave").lines());
        ok("", "cf", "create", file("s.cf"), "--capacity", "1000");
        ok("", "cf", "add", file("s.cf"), "x", "y");
        assertEquals(
                List.of("1", "0"), ok("", "cf", "del", file("s.cf"), "x", "z").lines());
        assertEquals(
                List.of("0", "1"),
                ok("", "cf", "exists", file("s.cf"), "x", "y").lines());
        String info = ok("", "info", file("s.cf"), "--json").out();
        assertTrue(info.contains("\"kind\": \"CUCKOO\", \"format_version\": 4, "), info);
        assertTrue(info.contains("\"fingerprint_bits\": 12, \"bits_per_slot\": 12.0, "), info);
    }

    @Test
    void frequencyVerbs() throws Exception {
        ok("", "cms", "create", file("e.cms"), "--epsilon", "0.01", "--delta", "0.01");
        ok("", "cms", "incrby", file("e.cms"), "login", "3");
        ok("login\nlogout\n", "cms", "incrby", file("e.cms"));
        assertEquals(
                List.of("4", "1"),
                ok("", "cms", "query", file("e.cms"), "login", "logout").lines());
        ok("", "topk", "create", file("p.topk"), "--k", "2");
        ok("/a\n/b\n/a\n", "topk", "add", file("p.topk"));
        ok("", "topk", "add", file("p.topk"), "/c");
        assertEquals(
                List.of("/a\t2", "/b\t1"),
                ok("", "topk", "list", file("p.topk"), "--with-count").lines());
        assertTrue(ok("", "info", file("e.cms")).out().contains("COUNT_MIN"));
    }

    @Test
    void distinctCountAndSimilarityVerbs() throws Exception {
        ok("", "hll", "create", file("a.hll"), "--precision", "12");
        ok("", "hll", "create", file("b.hll"), "--precision", "12");
        ok("a\nb\nc\n", "hll", "add", file("a.hll"));
        ok("", "hll", "add", file("b.hll"), "c", "d");
        assertEquals(
                List.of("4"),
                ok("", "hll", "count", file("a.hll"), file("b.hll")).lines());
        ok("", "hll", "merge", file("a.hll"), file("b.hll"));
        assertEquals(List.of("4"), ok("", "hll", "count", file("a.hll")).lines());
        ok("", "minhash", "create", file("m.mh"), "--rows", "2");
        ok("a\nb\nc\n", "minhash", "add", file("m.mh"), "0");
        ok("", "minhash", "add", file("m.mh"), "1", "a", "b", "c");
        assertEquals(
                List.of("1\t1.0000"),
                ok("", "minhash", "similar", file("m.mh"), "0", "--top", "1").lines());
        ok("", "simhash", "create", file("d.sh"), "--capacity", "10");
        assertEquals(
                List.of("0"),
                ok("", "simhash", "add", file("d.sh"), "one two three four five six")
                        .lines());
        assertEquals(
                List.of("0"),
                ok("", "simhash", "near", file("d.sh"), "one two three four five six")
                        .lines());
    }

    @Test
    void hyperLogLogTableVerbs() throws Exception {
        ok("", "table", "create", file("d1.hllt"), "--kind", "hll", "--precision", "12", "--capacity", "10");
        ok("", "table", "create", file("d2.hllt"), "--kind", "hll", "--precision", "12", "--capacity", "10");
        assertEquals(
                List.of("1"),
                ok("", "table", "add", file("d1.hllt"), "/home", "a", "b").lines());
        assertEquals(
                List.of("1"),
                ok("/home\tc\n/about\ta\n", "table", "add", file("d1.hllt")).lines());
        ok("/home\td\n/shop\tz\n", "table", "add", file("d2.hllt"));
        assertEquals(
                List.of("3"), ok("", "table", "count", file("d1.hllt"), "/home").lines());
        assertEquals(
                List.of("3"),
                ok("", "table", "count", file("d1.hllt"), "/home", "/about").lines());
        ok("", "table", "merge", file("month.hllt"), file("d1.hllt"), file("d2.hllt"));
        assertEquals(
                List.of("4"),
                ok("", "table", "count", file("month.hllt"), "/home").lines());
        assertEquals(
                List.of("/about", "/home", "/shop"),
                ok("", "table", "keys", file("month.hllt")).lines().stream()
                        .sorted()
                        .toList());
        String info = ok("", "table", "info", file("month.hllt"), "--json").out();
        assertTrue(info.contains("\"kind\": \"HYPERLOGLOG_TABLE\"") && info.contains("\"keys\": 3"), info);
        assertTrue(ok("", "info", file("month.hllt")).out().contains("sparse keys:"));
    }

    @Test
    void countMinTableVerbs() throws Exception {
        ok(
                "",
                "table",
                "create",
                file("d1.cmt"),
                "--kind",
                "cms",
                "--capacity",
                "10",
                "--width",
                "200",
                "--depth",
                "4");
        ok(
                "",
                "table",
                "create",
                file("d2.cmt"),
                "--kind",
                "cms",
                "--capacity",
                "10",
                "--width",
                "200",
                "--depth",
                "4");
        assertEquals(
                List.of("3", "1"),
                ok("", "table", "incrby", file("d1.cmt"), "user7", "clip42", "3", "clip43", "1")
                        .lines());
        ok("user7\tclip42\nuser2\tclip1\n", "table", "add", file("d1.cmt"));
        ok("", "table", "incrby", file("d2.cmt"), "user7", "clip42", "10");
        assertEquals(
                List.of("4", "1", "0"),
                ok("", "table", "query", file("d1.cmt"), "user7", "clip42", "clip43", "clip44")
                        .lines());
        ok("", "table", "merge", file("month.cmt"), file("d1.cmt"), file("d2.cmt"));
        assertEquals(
                List.of("14", "1"),
                ok("", "table", "query", file("month.cmt"), "user7", "clip42", "clip43")
                        .lines());
        assertEquals(
                List.of("user2", "user7"),
                ok("", "table", "keys", file("month.cmt")).lines().stream()
                        .sorted()
                        .toList());
        String info = ok("", "table", "info", file("month.cmt"), "--json").out();
        assertTrue(info.contains("\"kind\": \"COUNT_MIN_TABLE\"") && info.contains("\"keys\": 2"), info);
        String text = ok("", "info", file("month.cmt")).out();
        assertTrue(text.matches("(?s).*total weight: +16\n.*"), text);
    }

    @Test
    void bloomTableVerbs() throws Exception {
        ok("", "table", "create", file("d1.bft"), "--kind", "bloom", "--capacity", "10", "--error-rate", "0.01");
        ok("", "table", "create", file("d2.bft"), "--kind", "bloom", "--capacity", "10", "--error-rate", "0.01");
        assertEquals(
                List.of("1"),
                ok("", "table", "add", file("d1.bft"), "user7", "clip42").lines());
        ok("user7\tclip43\nuser2\tclip1\n", "table", "add", file("d1.bft"));
        ok("user3\tclip9\n", "table", "add", file("d2.bft"));
        assertEquals(
                List.of("1", "1", "0"),
                ok("", "table", "exists", file("d1.bft"), "user7", "clip42", "clip43", "clip44")
                        .lines());
        ok("", "table", "merge", file("month.bft"), file("d1.bft"), file("d2.bft"));
        assertEquals(
                List.of("1"),
                ok("", "table", "exists", file("month.bft"), "user3", "clip9").lines());
        assertEquals(
                List.of("1"),
                ok("", "table", "exists", file("month.bft"), "user7", "clip43").lines());
        assertEquals(
                List.of("user2", "user3", "user7"),
                ok("", "table", "keys", file("month.bft")).lines().stream()
                        .sorted()
                        .toList());
        String info = ok("", "table", "info", file("month.bft"), "--json").out();
        assertTrue(info.contains("\"kind\": \"BLOOM_TABLE\"") && info.contains("\"keys\": 3"), info);
        assertTrue(ok("", "info", file("month.bft")).out().contains("blocks per key:"));
    }

    @Test
    void usageErrorsAndKindMismatchesExitWithTheirStatus() throws Exception {
        assertEquals(2, ChildCommand.run(dir, "", "bf", "create", file("x.bf")).status(), "missing options");
        ok("", "hll", "create", file("h.hll"), "--precision", "10");
        ChildCommand.Result mismatch = ChildCommand.run(dir, "", "cms", "query", file("h.hll"), "x");
        assertEquals(1, mismatch.status());
        assertTrue(mismatch.err().contains(file("h.hll")), mismatch.err());
    }
}
