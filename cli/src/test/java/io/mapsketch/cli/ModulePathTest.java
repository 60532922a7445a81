package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command as the launcher runs it: a child JVM with the CLI and its dependencies on the module path
 * (so the module descriptor's {@code requires} and {@code opens} are what make it work), the Vector API
 * module added, and the terminal property off.
 */
class ModulePathTest {

    @TempDir
    Path dir;

    @Test
    void addsStandardInputAndReportsAFaultInOneLine() throws Exception {
        String file = dir.resolve("smoke.bf").toString();
        assertEquals(
                0,
                InProcess.run("bf", "create", file, "--capacity", "1000", "--error-rate", "0.01")
                        .status());
        ChildCommand.Result added = ChildCommand.run(dir, "alice\nbob\n", "bf", "add", file);
        assertEquals(0, added.status(), added.err());
        assertEquals(
                List.of("1", "1", "0"),
                InProcess.run("bf", "exists", file, "alice", "bob", "carol").lines());
        ChildCommand.Result missing =
                ChildCommand.run(dir, "", "bf", "exists", dir.resolve("missing").toString(), "x");
        assertEquals(1, missing.status());
        List<String> errors = missing.err()
                .lines()
                .filter(line -> !line.startsWith("WARNING: Using incubator"))
                .toList();
        assertEquals(List.of("mapsketch: " + dir.resolve("missing") + ": no such file"), errors);
    }

    @Test
    void demoMeasuresTheSeedFiguresAndASecondJvmFindsTheKeys() throws Exception {
        ChildCommand.Result demo = ChildCommand.run(dir, "", "demo");
        assertEquals(0, demo.status(), demo.err());
        String text = demo.out();
        assertTrue(text.contains("95,851 bits (11.7 KB), k = 7, 9.6 bits per item"), text);
        assertTrue(text.contains("added   10,000 items; false negatives: 0"), text);
        Matcher measured =
                Pattern.compile("FPR at capacity\\s+measured ([0-9.]+)%").matcher(text);
        assertTrue(measured.find(), text);
        assertEquals(1.0, Double.parseDouble(measured.group(1)), 0.1, "classic filter at capacity, in percent");
        assertTrue(text.contains("formula 15.75%"), text);
        assertTrue(text.contains("10.1 bits per item"), text);
        assertTrue(text.contains("kept items found 5,000 of 5,000"), text);
        assertTrue(text.contains("user-17 visitor-17  ->  1 0"), text);
        assertTrue(text.contains("Count-Min, eps 0.001, delta 0.01: 2,719 x 5 counters (54,400 bytes;"), text);
        assertTrue(text.contains("bound eps x N = 50;"), text);
        assertTrue(text.contains("keys beyond the bound 0"), text);
        assertTrue(text.contains("top 5 by sketch (Top-K, k = 100):  item-1 "), text);
        Matcher distinct = Pattern.compile("p = 14 \\(16,384 bytes, 0.81% standard error\\): 200,000 distinct in"
                        + " 300,000 adds, estimate ([0-9,]+)")
                .matcher(text);
        assertTrue(distinct.find(), text);
        assertEquals(200_000, Double.parseDouble(distinct.group(1).replace(",", "")), 3 * 0.0081 * 200_000);
        Matcher union =
                Pattern.compile("union estimate ([0-9,]+) \\(truth 100,000\\)").matcher(text);
        assertTrue(union.find(), text);
        assertEquals(100_000, Double.parseDouble(union.group(1).replace(",", "")), 3 * 0.0081 * 100_000);
        assertTrue(
                text.matches("(?s).*\nmapsketch info \\S+events\\.topk:\n.*\nkind: +TOP_K\n.*\nk: +100\n.*"
                        + "\nwidth: +2719\n.*"),
                text);
        assertTrue(text.contains("Cuckoo filter, 10,000 items at 1%"), text);
        assertTrue(text.contains("Scalable Bloom filter, first link for 1,000 items"), text);
        assertTrue(
                text.contains("30 day tables pages-days/pages-DD.hllt: a HyperLogLog (p = 14) per page, 10 pages of"
                        + " 300 visitors a day"),
                text);
        Matcher month = Pattern.compile("mapsketch table merge pages-month.hllt pages-days/pages-\\*.hllt\n"
                        + " +/page-0 month visitors ([0-9,]+) \\(truth 3,200\\); all 10 pages ([0-9,]+) \\(truth"
                        + " 32,000\\); 10 keys, 10 sparse, 0 dense\n")
                .matcher(text);
        assertTrue(month.find(), text);
        assertEquals(3_200, Double.parseDouble(month.group(1).replace(",", "")), 3 * 0.0081 * 3_200);
        assertEquals(32_000, Double.parseDouble(month.group(2).replace(",", "")), 3 * 0.0081 * 32_000);
        Matcher seen = Pattern.compile("user-7 seen clip-49 1, clip-4242 0; unseen clips reported ([0-9.]+)%")
                .matcher(text);
        assertTrue(seen.find(), text);
        assertEquals(1.0, Double.parseDouble(seen.group(1)), 0.3, "unseen clips reported, in percent");
        assertTrue(
                text.contains(
                        "Count-Min table plays.cmt, a sketch per user (1,000 users, 200 x 4 counters):\n"
                                + "    mapsketch table incrby plays.cmt < plays.tsv   (100,000 lines USER<TAB>CLIP<TAB>COUNT)\n"),
                text);
        Matcher plays = Pattern.compile("user-7 played clip-49 3 times \\(truth 3\\), clip-4242 0; estimates exact"
                        + " ([0-9.]+)%, below the truth 0, beyond e / 200 x a user's 300 plays = 5: ([0-9]+) \\(delta"
                        + " 1.83%\\)\n")
                .matcher(text);
        assertTrue(plays.find(), text);
        assertTrue(Double.parseDouble(plays.group(1)) > 90, "most estimates are exact at 100 clips a user");
        assertTrue(Integer.parseInt(plays.group(2)) < 1_830, "beyond the bound: fewer than delta x 100,000");
        assertTrue(text.contains("MinHash, 2,500 slots per signature"), text);
        assertTrue(text.contains("SimHash, 64-bit fingerprints of 4 documents"), text);
        assertTrue(text.contains("within 20 bits of document 0: [0, 2]"), text);
        Matcher removed =
                Pattern.compile("\nremoved (\\S+) \\(--keep keeps it\\)\n$").matcher(text);
        assertTrue(removed.find(), text);
        assertFalse(Files.exists(Path.of(removed.group(1))), "the demo's directory is removed");
    }

    @Test
    void demoKeepsItsFilesWhenAsked() throws Exception {
        InProcess.Result demo = InProcess.run("demo", "--keep");
        assertEquals(0, demo.status(), demo.err());
        Matcher kept = Pattern.compile("\nkept (\\S+)\n$").matcher(demo.out());
        assertTrue(kept.find(), demo.out());
        Path folder = Path.of(kept.group(1));
        assertTrue(Files.isRegularFile(folder.resolve("members.cf")), folder.toString());
        assertTrue(Files.isDirectory(folder.resolve("members.sbf")), folder.toString());
        assertTrue(Files.isRegularFile(folder.resolve("pages-days/pages-30.hllt")), folder.toString());
        assertTrue(Files.isRegularFile(folder.resolve("pages-month.hllt")), folder.toString());
        assertTrue(Files.isRegularFile(folder.resolve("seen.bft")), folder.toString());
        assertTrue(Files.isRegularFile(folder.resolve("plays.cmt")), folder.toString());
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
