package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mapsketch pipe} in a process of its own on the module path: Redis command lines of every
 * family interleaved, one reply line each, errors as {@code ERR} lines that do not stop the pipe,
 * redis-cli's quoting in the commands and the replies, and the files kept open across lines.
 */
class PipeVerbTest {

    @TempDir
    Path dir;

    /** A file of the test's folder as a pipe argument, double-quoted with redis-cli's escapes. */
    private String file(String name) {
        return "\"" + dir.resolve(name).toString().replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** Standard error less the JVM's notice of the Vector API module. */
    private static String said(ChildCommand.Result result) {
        return result.err()
                .lines()
                .filter(line -> !line.startsWith("WARNING: Using incubator modules"))
                .collect(Collectors.joining("\n"));
    }

    private ChildCommand.Result pipe(String... lines) throws IOException, InterruptedException {
        return ChildCommand.run(dir, String.join("\n", lines) + "\n", "pipe");
    }

    @Test
    void interleavedFamiliesReplyOneLineEachAndABadLineDoesNotStopThePipe() throws Exception {
        ChildCommand.Result result = pipe(
                "BF.RESERVE " + file("v.bf") + " 0.01 1000",
                "CMS.INITBYPROB " + file("e.cms") + " 0.01 0.01",
                "PFADD " + file("missing.hll") + " a",
                "CF.RESERVE " + file("s.cf") + " 1000",
                "TOPK.RESERVE " + file("p.topk") + " 2",
                "BF.ADD " + file("v.bf") + " alice",
                "CMS.INCRBY " + file("e.cms") + " login 3 logout 1",
                "bf.madd " + file("v.bf") + " alice bob",
                "NOT.A.COMMAND x",
                "",
                "CF.ADD " + file("s.cf") + " k",
                "CMS.QUERY " + file("e.cms") + " login logout never",
                "BF.MEXISTS " + file("v.bf") + " alice bob carol",
                "BF.EXISTS " + file("v.bf"),
                "CF.ADDNX " + file("s.cf") + " k",
                "CF.COUNT " + file("s.cf") + " k",
                "TOPK.INCRBY " + file("p.topk") + " /home 5 \"/about us\" 3 /x 1",
                "TOPK.LIST " + file("p.topk") + " WITHCOUNT",
                "TOPK.QUERY " + file("p.topk") + " /home /x",
                "CMS.INCRBY " + file("e.cms") + " login 2 logout",
                "CMS.QUERY " + file("e.cms") + " login",
                "CF.DEL " + file("s.cf") + " k k",
                "BF.CARD " + file("v.bf"));
        assertEquals(1, result.status(), result.err());
        assertEquals(
                List.of(
                        "OK",
                        "OK",
                        "ERR " + dir.resolve("missing.hll") + ": no such file",
                        "OK",
                        "OK",
                        "1",
                        "3 1",
                        "0 1",
                        "ERR unknown command 'NOT.A.COMMAND'",
                        "1",
                        "3 1 0",
                        "1 1 0",
                        "ERR wrong number of arguments for 'BF.EXISTS' command",
                        "0",
                        "1",
                        "\"\" \"\" \"\"",
                        "/home 5 \"/about us\" 3",
                        "1 0",
                        "ERR expected ITEM COUNT pairs, but item 'logout' has no count",
                        "3",
                        "1 0",
                        "2"),
                result.lines());
        assertEquals("mapsketch: pipe: 4 of 22 commands failed (replied ERR), the first on line 3", said(result));
    }

    @Test
    void argumentsAreQuotedAsRedisCliQuotesThemAndRepliesTheSameWay() throws Exception {
        ChildCommand.Result result = pipe(
                "TOPK.RESERVE " + file("q.topk") + " 3",
                "TOPK.ADD " + file("q.topk") + " \"a b\" 'it\\'s' \"tab\\there\" \"\\x41\"",
                "TOPK.LIST " + file("q.topk"),
                "TOPK.COUNT " + file("q.topk") + " A 'a b'   \"\"",
                "TOPK.ADD " + file("q.topk") + " \"unbalanced",
                "TOPK.ADD " + file("q.topk") + " \"closing\"quote",
                "TOPK.QUERY " + file("q.topk") + "\t\"a b\"\r");
        assertEquals(
                List.of(
                        "OK",
                        "\"\" \"\" \"\" \"\"",
                        "\"a b\" \"it's\" \"tab\\there\"",
                        "1 1 0",
                        "ERR unbalanced quotes",
                        "ERR a closing quote must be followed by a space or end the line",
                        "1"),
                result.lines(),
                result.err());
        assertEquals(1, result.status());
    }

    @Test
    void argumentsThatAreNotUtf8AreRefusedAndTheNextLineRuns() throws Exception {
        ChildCommand.run(dir, "", "hll", "create", dir.resolve("u.hll").toString(), "--precision", "10");
        ByteArrayOutputStream stdin = new ByteArrayOutputStream();
        stdin.writeBytes(("PFADD " + file("u.hll") + " caf").getBytes(StandardCharsets.UTF_8));
        stdin.write(0xE9);
        stdin.writeBytes(("\nPFADD " + file("u.hll") + " \"caf\\xe9\"\nPFADD " + file("u.hll") + " café\n")
                .getBytes(StandardCharsets.UTF_8));
        ChildCommand.Result result = ChildCommand.run(dir, stdin.toByteArray(), "pipe");
        assertEquals(
                List.of(
                        "ERR argument 2 is not UTF-8 text (byte 0xe9 at byte 4 of it); items are UTF-8 strings",
                        "ERR argument 2 is not UTF-8 text (byte 0xe9 at byte 4 of it); items are UTF-8 strings",
                        "1"),
                result.lines());
        assertEquals(1, result.status());
    }

    @Test
    void filesStayOpenAcrossLinesAndMoreThanTheOpenLimitAreReopened() throws Exception {
        int files = PipeFiles.MAX_OPEN + 6;
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < files; i++) {
            lines.add("BF.RESERVE " + file(i + ".bf") + " 0.01 100");
        }
        // Each file is read first (opened read-only), then written (opened again as a writer), then read,
        // in two passes over more files than stay open, so that the first pass's files are closed and reopened.
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < files; i++) {
                lines.add("BF.EXISTS " + file(i + ".bf") + " item-" + pass);
                lines.add("BF.ADD " + file(i + ".bf") + " item-" + pass);
                lines.add("BF.MEXISTS " + file(i + ".bf") + " item-0 item-1");
            }
        }
        ChildCommand.Result result = pipe(lines.toArray(String[]::new));
        assertEquals(0, result.status(), result.err());
        String expected = IntStream.range(0, files).mapToObj(i -> "OK\n").collect(Collectors.joining())
                + IntStream.range(0, files).mapToObj(i -> "0\n1\n1 0\n").collect(Collectors.joining())
                + IntStream.range(0, files).mapToObj(i -> "0\n1\n1 1\n").collect(Collectors.joining());
        assertEquals(expected, result.out());
        assertEquals("", said(result));
        // Every file was closed cleanly: a verb that writes sees no writer attached.
        ChildCommand.Result verify =
                ChildCommand.run(dir, "", "verify", dir.resolve("0.bf").toString());
        assertEquals(0, verify.status(), verify.out() + verify.err());
    }

    @Test
    void mergesAndInsertsRunTheirVerbsAndNameTheirRefusals() throws Exception {
        ChildCommand.Result result = pipe(
                "PFADD " + file("mon.hll") + " a",
                "BF.INSERT " + file("i.bf") + " CAPACITY 1000 ERROR 0.001 ITEMS a b",
                "BF.INSERT " + file("i.bf") + " NOCREATE ITEMS a c",
                "BF.INSERT " + file("j.bf") + " NOCREATE ITEMS a",
                "BF.INSERT " + file("k.bf") + " CAPACITY 0 ITEMS a",
                "CMS.INITBYDIM " + file("a.cms") + " 100 3",
                "CMS.INITBYDIM " + file("b.cms") + " 100 3",
                "CMS.INCRBY " + file("a.cms") + " x 2",
                "CMS.MERGE " + file("w.cms") + " 2 " + file("a.cms") + " " + file("b.cms") + " WEIGHTS 3 1",
                "CMS.QUERY " + file("w.cms") + " x",
                "CMS.MERGE " + file("w.cms") + " 3 " + file("a.cms"),
                "CMS.MERGE " + file("w.cms") + " 1 " + file("w.cms"));
        assertEquals(
                List.of(
                        "ERR " + dir.resolve("mon.hll") + ": no such file",
                        "1 1",
                        "0 1",
                        "ERR " + dir.resolve("j.bf") + ": no such file (--no-create)",
                        "ERR --capacity = 0, must be >= 1",
                        "OK",
                        "OK",
                        "2",
                        "OK",
                        "6",
                        "ERR CMS.MERGE: numKeys is '3', must be the number of sources that follow it, at least 1",
                        "ERR " + dir.resolve("w.cms") + ": is the destination itself; merging a COUNT_MIN sketch into"
                                + " itself would count its items twice"),
                result.lines());
        assertTrue(result.err().contains("5 of 12 commands failed"), result.err());
    }
}
