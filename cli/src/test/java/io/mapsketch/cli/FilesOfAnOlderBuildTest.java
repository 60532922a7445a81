package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files written by the command at commit f31aedc, before the engine took its package layout, open
 * and answer as that build answered. The files (seed 7) were made with:
 *
 * <pre>
 * bf create {blocked,classic,counting}.bf --capacity 2000 --error-rate 0.01 [--layout ...]
 * cf create cuckoo.cf --capacity 2000 --error-rate 0.01
 * each filter: add item-0 .. item-1499 (stdin); cf del cuckoo.cf item-3 item-5
 * cms create events.cms --epsilon 0.01 --delta 0.01; incrby with item-i repeated 1 + (i + 1) mod 7 times
 * topk create pages.topk --k 10; add item-i repeated 1 + (i + 1) mod 37 times
 * hll create visitors.hll --precision 12; add item-0 .. item-1499
 * minhash create baskets.mh --rows 8 --standard-error 0.1; row r: item-(100 r) .. item-(100 r + 599), r &lt; 4
 * simhash create docs.sh --capacity 64; add four short documents
 * </pre>
 *
 * Their format versions predate payload checksums, which {@code verify} says. {@code answers.txt} holds, under a line {@code == ARGS [< STDIN]}, what that build printed for each
 * query; {@code probe.txt} is item-1500 .. item-2999, half of them never added.
 */
class FilesOfAnOlderBuildTest {

    private static final String RESOURCES = "f31aedc/";
    private static final List<String> FILES = List.of(
            "blocked.bf",
            "classic.bf",
            "counting.bf",
            "cuckoo.cf",
            "events.cms",
            "pages.topk",
            "visitors.hll",
            "baskets.mh",
            "docs.sh");

    @TempDir
    static Path dir;

    /** One query of {@code answers.txt}: the command's words, its standard input's file, and the lines printed. */
    private record Query(List<String> words, String stdinFile, List<String> expected) {}

    @TestFactory
    Stream<DynamicTest> queriesAnswerAsTheOlderBuildDid() throws IOException {
        for (String name : FILES) {
            Files.write(dir.resolve(name), resource(name));
        }
        String probe = new String(resource("probe.txt"), StandardCharsets.UTF_8);
        return queries().stream()
                .map(query -> DynamicTest.dynamicTest(String.join(" ", query.words()), () -> {
                    String stdin = query.stdinFile() == null ? "" : probe;
                    InProcess.Result result = InProcess.withInput(stdin, arguments(query.words()));
                    assertEquals(0, result.status(), result.err());
                    assertEquals(query.expected(), result.lines());
                }));
    }

    @TestFactory
    Stream<DynamicTest> verifySaysTheFileHasNoChecksum() throws IOException {
        for (String name : FILES) {
            Files.write(dir.resolve(name), resource(name));
        }
        return FILES.stream()
                .map(name -> DynamicTest.dynamicTest(name, () -> {
                    InProcess.Result result =
                            InProcess.run("verify", dir.resolve(name).toString());
                    assertEquals(3, result.status(), result.out() + result.err());
                    assertTrue(result.out().matches(".*: no checksum: format version [1-3]\\R"), result.out());
                }));
    }

    /** The query's words with each file name resolved in the temporary folder. */
    private static String[] arguments(List<String> words) {
        return words.stream()
                .map(word -> FILES.contains(word) ? dir.resolve(word).toString() : word)
                .toArray(String[]::new);
    }

    /**
     * The queries of {@code answers.txt}. A simhash query's document is the rest of its line after the
     * distance, one argument.
     */
    private static List<Query> queries() throws IOException {
        List<Query> queries = new ArrayList<>();
        List<String> words = null;
        String stdinFile = null;
        List<String> expected = new ArrayList<>();
        for (String line : new String(resource("answers.txt"), StandardCharsets.UTF_8)
                .lines()
                .toList()) {
            if (line.startsWith("== ")) {
                if (words != null) {
                    queries.add(new Query(words, stdinFile, expected));
                }
                String command = line.substring(3);
                int redirect = command.indexOf(" < ");
                stdinFile = redirect < 0 ? null : command.substring(redirect + 3);
                words = split(redirect < 0 ? command : command.substring(0, redirect));
                expected = new ArrayList<>();
            } else {
                expected.add(line);
            }
        }
        queries.add(new Query(Objects.requireNonNull(words), stdinFile, expected));
        return queries;
    }

    private static List<String> split(String command) {
        List<String> words = new ArrayList<>(List.of(command.split(" ")));
        if (words.get(0).equals("simhash")) {
            List<String> head = new ArrayList<>(words.subList(0, 5));
            head.add(String.join(" ", words.subList(5, words.size())));
            return head;
        }
        return words;
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = FilesOfAnOlderBuildTest.class.getResourceAsStream(RESOURCES + name)) {
            return Objects.requireNonNull(in, name).readAllBytes();
        }
    }
}
