package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.membership.ScalableBloomFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The verbs over any kind of file ({@code info}, {@code merge}), help, and the exit statuses, in this JVM. */
class CommandTest {

    /** Every command line that names a verb or a family, read from the command itself: new verbs are covered. */
    private static final List<List<String>> VERBS = verbs(MapsketchCommand.commandLine(null), List.of());

    /** Every command line that names a verb or a family (the command alone included). */
    static List<List<String>> verbs() {
        return VERBS;
    }

    private static List<List<String>> verbs(CommandLine command, List<String> path) {
        List<List<String>> all = new ArrayList<>(List.of(path));
        command.getSubcommands().forEach((name, sub) -> {
            List<String> longer = new ArrayList<>(path);
            longer.add(name);
            all.addAll(verbs(sub, longer));
        });
        return all;
    }

    @TempDir
    Path dir;

    private String file(String name) {
        return dir.resolve(name).toString();
    }

    private static void assertOneLineFault(InProcess.Result result, String expected) {
        assertEquals(1, result.status(), result.err());
        assertEquals(1, result.err().lines().count(), result.err());
        assertTrue(result.err().startsWith("mapsketch: " + expected), result.err());
    }

    @Test
    void everyVerbHasHelpWithAnExample() {
        assertTrue(VERBS.size() >= 30, "all families' verbs: " + VERBS);
        for (List<String> verb : VERBS) {
            String[] args = Stream.concat(verb.stream(), Stream.of("--help")).toArray(String[]::new);
            InProcess.Result help = InProcess.run(args);
            assertEquals(0, help.status(), verb.toString());
            assertTrue(help.out().startsWith("Usage: mapsketch"), verb + ": " + help.out());
            if (verb.size() != 1
                    || verb.equals(List.of("info"))
                    || verb.equals(List.of("merge"))
                    || verb.equals(List.of("verify"))
                    || verb.equals(List.of("demo"))) {
                assertTrue(help.out().contains("Example"), verb + ": " + help.out());
            }
        }
        assertTrue(InProcess.run("bf", "create", "--help").out().contains("(default: 0)"), "the default seed is shown");
    }

    @Test
    void usageErrorsExitWithTwo() {
        InProcess.Result unknown = InProcess.run("frobnicate");
        assertEquals(2, unknown.status());
        assertTrue(unknown.err().contains("Unmatched argument at index 0: 'frobnicate'"), unknown.err());
        assertEquals(2, InProcess.run().status());
        assertEquals(2, InProcess.run("bf").status());
        assertEquals(2, InProcess.run("bf", "exists").status());
        assertEquals(2, InProcess.run("info", file("x"), "--yaml").status());
        assertEquals(2, InProcess.run("merge", file("x")).status());
        assertEquals(2, InProcess.run("cf", "create", file("x")).status(), "no cuckoo verbs yet");
    }

    @Test
    void missingCorruptAndMismatchedFilesExitWithOneAndOneLine() throws IOException {
        String missing = file("missing");
        for (String[] args : new String[][] {
            {"bf", "add", missing, "x"},
            {"bf", "exists", missing, "x"},
            {"cms", "incrby", missing, "x", "1"},
            {"cms", "query", missing, "x"},
            {"hll", "add", missing, "x"},
            {"hll", "count", missing},
            {"info", missing},
            {"merge", missing + "2", missing}
        }) {
            assertOneLineFault(InProcess.run(args), missing + ": no such file");
        }
        String junk = Files.write(dir.resolve("junk"), new byte[5000]).toString();
        assertOneLineFault(InProcess.run("bf", "exists", junk, "x"), "sketch file " + junk + ": header field 'magic'");
        assertOneLineFault(InProcess.run("info", junk), "sketch file " + junk + ": header field 'magic'");
        String hll = file("h.hll");
        InProcess.run("hll", "create", hll, "--precision", "8");
        assertOneLineFault(InProcess.run("bf", "add", hll, "x"), "sketch file " + hll + ": header field 'sketch kind'");
        assertOneLineFault(InProcess.run("cms", "query", hll, "x"), "sketch file " + hll + ":");
        String bloom = file("b.bf");
        InProcess.run("bf", "create", bloom, "--capacity", "10", "--error-rate", "0.1");
        assertOneLineFault(InProcess.run("hll", "count", hll, bloom), "sketch file " + bloom + ":");
    }

    @Test
    void infoDescribesEachFamily() throws IOException {
        String bloom = file("f.bloom");
        InProcess.run(
                "bf",
                "create",
                bloom,
                "--capacity",
                "10000",
                "--error-rate",
                "0.01",
                "--layout",
                "classic",
                "--seed",
                "9");
        InProcess.run("bf", "add", bloom, "a");
        String text = InProcess.run("info", bloom).out();
        assertTrue(text.matches("(?s).*\nkind: +BLOOM\nformat version: +5\n.*"), text);
        assertTrue(text.matches("(?s).*\nhash seed: +9\n.*"), text);
        assertTrue(text.matches("(?s).*\nbits: +95851\n.*"), text);
        assertTrue(text.matches("(?s).*\nitems added: +1\n.*"), text);
        assertTrue(text.matches("(?s).*\ncleanly closed: +true\n.*"), text);
        String hll = file("h.hll");
        InProcess.run("hll", "create", hll, "--precision", "12");
        InProcess.run("hll", "add", hll, "1", "2", "3");
        String json = InProcess.run("info", hll, "--json").out().strip();
        assertTrue(json.startsWith("{\"file\": ") && json.endsWith("}"), json);
        assertTrue(
                json.contains("\"kind\": \"HYPERLOGLOG\", \"format_version\": 5, ")
                        && json.contains("\"estimate\": 3, "),
                json);
        assertTrue(json.contains("\"precision\": 12"), json);
        String cms = file("c.cms");
        InProcess.run("cms", "create", cms, "--epsilon", "0.001", "--delta", "0.01");
        InProcess.run("cms", "incrby", cms, "a", "50");
        String counts = InProcess.run("info", cms, "--json").out();
        assertTrue(counts.contains("\"width\": 2719, \"depth\": 5, \"counter_bits\": 32"), counts);
        assertTrue(counts.contains("\"total_weight\": 50") && counts.contains("\"error_bound\": 1"), counts);
        Path scalable = dir.resolve("grows");
        try (ScalableBloomFilter filter = ScalableBloomFilter.builder()
                .expectedItems(100)
                .falsePositiveRate(0.01)
                .create(scalable, OpenMode.EXCLUSIVE)) {
            filter.add("x");
        }
        String links = InProcess.run("info", scalable.toString()).out();
        assertTrue(links.matches("(?s).*\nkind: +SCALABLE_BLOOM\n.*\nlinks: +1\n.*"), links);
    }

    @Test
    void mergeCombinesEveryMergeableKind() {
        for (String layout : new String[] {"classic", "blocked", "counting"}) {
            String all = file(layout + "-all");
            String shard = file(layout + "-shard");
            for (String f : new String[] {all, shard}) {
                InProcess.run("bf", "create", f, "--capacity", "1000", "--error-rate", "0.01", "--layout", layout);
            }
            InProcess.run("bf", "add", all, "a");
            InProcess.run("bf", "add", shard, "b");
            assertEquals(0, InProcess.run("merge", all, shard).status(), layout);
            assertEquals(
                    List.of("1", "1", "0"),
                    InProcess.run("bf", "exists", all, "a", "b", "c").lines(),
                    layout);
            assertEquals(
                    List.of("0", "1"),
                    InProcess.run("bf", "exists", shard, "a", "b").lines(),
                    layout);
        }
        String total = file("total.cms");
        String part = file("part.cms");
        for (String f : new String[] {total, part}) {
            InProcess.run("cms", "create", f, "--epsilon", "0.01", "--delta", "0.01");
        }
        InProcess.run("cms", "incrby", total, "a", "2");
        InProcess.run("cms", "incrby", part, "a", "3", "b", "1");
        assertEquals(0, InProcess.run("merge", total, part).status());
        assertEquals(
                List.of("5", "1"),
                InProcess.run("cms", "query", total, "a", "b").lines());
        String hll = file("u.hll");
        String other = file("v.hll");
        InProcess.run("hll", "create", hll, "--precision", "10");
        InProcess.run("hll", "create", other, "--precision", "10");
        InProcess.run("hll", "add", other, "x", "y");
        assertEquals(0, InProcess.run("merge", hll, other).status());
        assertEquals("2", InProcess.run("hll", "count", hll).out().strip());
    }

    @Test
    void mergeRefusesOtherKindsSeedsShapesAndItself() {
        String blocked = file("a.bf");
        String classic = file("b.bloom");
        String seeded = file("s.bf");
        String bigger = file("big.bf");
        InProcess.run("bf", "create", blocked, "--capacity", "1000", "--error-rate", "0.01");
        InProcess.run("bf", "create", classic, "--capacity", "1000", "--error-rate", "0.01", "--layout", "classic");
        InProcess.run("bf", "create", seeded, "--capacity", "1000", "--error-rate", "0.01", "--seed", "1");
        InProcess.run("bf", "create", bigger, "--capacity", "100000", "--error-rate", "0.01");
        assertOneLineFault(
                InProcess.run("merge", blocked, classic),
                classic + ": a BLOOM sketch cannot be merged" + " into " + blocked + ", a BLOCKED_BLOOM sketch");
        assertOneLineFault(InProcess.run("merge", blocked, seeded), seeded + ": hash seed 1 differs from " + blocked);
        assertOneLineFault(
                InProcess.run("merge", blocked, bigger),
                bigger + ": cannot be merged into " + blocked + ": sketches differ in blocks");
        String counting = file("c.bf");
        InProcess.run("bf", "create", counting, "--capacity", "1000", "--error-rate", "0.01", "--layout", "counting");
        assertOneLineFault(InProcess.run("merge", counting, counting), counting + ": is the destination itself");
        String hll = file("h.hll");
        InProcess.run("hll", "create", hll, "--precision", "8");
        assertOneLineFault(InProcess.run("merge", blocked, hll), "sketch file " + hll + ": header field 'sketch kind'");
        assertOneLineFault(InProcess.run("hll", "merge", blocked, hll), "sketch file " + blocked + ":");
    }
}
