package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mapsketch minhash} and {@code mapsketch simhash} verbs, info and merge, in this JVM. */
class SimilarityVerbsTest {

    @TempDir
    Path dir;

    private static String words(int from, int to) {
        StringBuilder text = new StringBuilder();
        for (int i = from; i < to; i++) {
            text.append(text.isEmpty() ? "" : "\n").append("word-").append(i);
        }
        return text.toString();
    }

    @Test
    void minhashRowsRankBySimilarityAndMerge() {
        String file = dir.resolve("sets.mh").toString();
        assertEquals(
                0,
                InProcess.run("minhash", "create", file, "--rows", "3", "--standard-error", "0.03")
                        .status());
        assertEquals(
                0,
                InProcess.withInput(words(0, 1000), "minhash", "add", file, "0").status());
        assertEquals(
                0,
                InProcess.withInput(words(100, 1100), "minhash", "add", file, "1")
                        .status());
        assertEquals(
                0,
                InProcess.withInput(words(5000, 6000), "minhash", "add", file, "2")
                        .status());
        List<String> similar =
                InProcess.run("minhash", "similar", file, "0", "--top", "2").lines();
        assertEquals(2, similar.size(), similar.toString());
        assertTrue(similar.get(0).startsWith("1\t"), similar.toString());
        double jaccard = Double.parseDouble(similar.get(0).split("\t")[1]);
        assertEquals(900.0 / 1100, jaccard, 3 * 0.03, "rows 0 and 1 share 900 of 1,100 words");
        assertTrue(similar.get(1).startsWith("2\t0.0"), similar.toString());
        assertEquals(2, InProcess.run("minhash", "add", file, "3", "x").status(), "row out of range");
        String other = dir.resolve("other.mh").toString();
        InProcess.run("minhash", "create", other, "--rows", "3", "--standard-error", "0.03");
        InProcess.withInput(words(5000, 6000), "minhash", "add", other, "0");
        assertEquals(0, InProcess.run("merge", file, other).status());
        assertTrue(
                InProcess.run("minhash", "similar", file, "0", "--top", "1")
                        .lines()
                        .getFirst()
                        .startsWith("2\t"),
                "row 0 now holds words 0..999 and 5000..5999, row 2 the latter half");
        String info = InProcess.run("info", file, "--json").out();
        assertTrue(info.contains("\"kind\": \"MINHASH\"") && info.contains("\"signature_length\": 1112"), info);
    }

    @Test
    void simhashFindsNearDuplicateDocuments() {
        String file = dir.resolve("docs.sh").toString();
        assertEquals(
                0, InProcess.run("simhash", "create", file, "--capacity", "100").status());
        String doc = String.join(" ", words(0, 200).split("\n"));
        String edited = doc.replace("word-17 ", "changed ");
        String unrelated = String.join(" ", words(1000, 1200).split("\n"));
        assertEquals(
                List.of("0", "1"),
                InProcess.withInput(doc + "\n" + unrelated + "\n", "simhash", "add", file)
                        .lines());
        assertEquals(
                List.of("0", "0", "1"),
                InProcess.run("simhash", "near", file, "--distance", "12", doc, edited, unrelated)
                        .lines());
        assertEquals(1, InProcess.run("merge", file, file).status());
        String info = InProcess.run("info", file).out();
        assertTrue(info.contains("SIMHASH") && info.contains("fingerprints"), info);
    }
}
