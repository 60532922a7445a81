package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.frequency.TopK;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mapsketch topk create, add, list}, info and merge of Top-K files, in this JVM. */
class TopKVerbsTest {

    @TempDir
    Path dir;

    @Test
    void addFromArgumentsAndLinesThenList() throws IOException {
        String file = dir.resolve("pages.topk").toString();
        assertEquals(
                0,
                InProcess.run("topk", "create", file, "--k", "2", "--seed", "4").status());
        assertEquals(
                0,
                InProcess.run("topk", "add", file, "/home", "/about", "/home").status());
        assertEquals(
                0,
                InProcess.withInput("/cart\n/cart\n/cart\n/home\n", "topk", "add", file)
                        .status());
        assertEquals(
                List.of("/cart", "/home"), InProcess.run("topk", "list", file).lines());
        assertEquals(
                List.of("/cart\t3", "/home\t3"),
                InProcess.run("topk", "list", file, "--with-count").lines(),
                "equal counts are listed by item");
        assertEquals(
                List.of("[{\"item\": \"/cart\", \"count\": 3, \"saturated\": false}, {\"item\": \"/home\","
                        + " \"count\": 3, \"saturated\": false}]"),
                InProcess.run("topk", "list", file, "--json").lines());
        try (TopK sketch = TopK.open(Path.of(file), OpenMode.READ_ONLY)) {
            assertEquals(2, sketch.k());
            assertEquals(2_719, sketch.width());
            assertEquals(7, sketch.totalWeight());
            assertEquals(4, sketch.hashSeed());
        }
        String info = String.join("\n", InProcess.run("info", file).lines());
        assertTrue(info.contains("TOP_K") && info.contains("k") && info.contains("candidates"), info);
    }

    @Test
    void mergeReRanksTheCandidatesOfBothFiles() {
        String left = dir.resolve("left.topk").toString();
        String right = dir.resolve("right.topk").toString();
        InProcess.run("topk", "create", left, "--k", "2");
        InProcess.run("topk", "create", right, "--k", "2");
        InProcess.run("topk", "add", left, "a", "a", "b");
        InProcess.run("topk", "add", right, "c", "c", "c", "b", "b");
        assertEquals(0, InProcess.run("merge", left, right).status());
        assertEquals(
                List.of("b\t3", "c\t3"),
                InProcess.run("topk", "list", left, "--with-count").lines());
        assertEquals(List.of("c", "b"), InProcess.run("topk", "list", right).lines(), "the source is unchanged");
    }

    @Test
    void anItemLongerThanTheFileStoresIsRefused() {
        String file = dir.resolve("short.topk").toString();
        InProcess.run("topk", "create", file, "--k", "3", "--max-item-bytes", "8");
        InProcess.Result refused = InProcess.run("topk", "add", file, "123456789");
        assertEquals(2, refused.status());
        assertTrue(refused.err().contains("key length = 9 bytes, must be in [0, 8]"), refused.err());
        assertEquals(List.of(), InProcess.run("topk", "list", file).lines());
        assertEquals(
                2,
                InProcess.run("topk", "create", dir.resolve("k0.topk").toString(), "--k", "0")
                        .status());
    }

    /** A count at the largest value of 32-bit counters is marked in the list, and the add that got there says so. */
    @Test
    void aSaturatedCountIsMarkedAndTheAddThatSaturatesSaysHowToCountFurther() throws IOException {
        String file = dir.resolve("s.topk").toString();
        assertEquals(0, InProcess.run("topk", "create", file, "--k", "2").status());
        try (TopK sketch = TopK.open(Path.of(file), OpenMode.SHARED)) {
            sketch.add("a", 0xFFFF_FFFEL);
        }
        assertEquals(
                List.of("a\t4294967294"),
                InProcess.run("topk", "list", file, "--with-count").lines());
        InProcess.Result add = InProcess.run("topk", "add", file, "b", "a");
        assertEquals(0, add.status());
        assertTrue(
                add.err()
                        .contains("mapsketch: " + file + ": the count of 'a' is saturated at 4294967295, the"
                                + " largest of 32-bit counters: its estimate may be below the truth; to count past it, create the"
                                + " sketch with 'topk create --counter-bits 64'"),
                add.err());
        assertEquals(
                List.of("a\t4294967295 (saturated: 32-bit counters)", "b\t1"),
                InProcess.run("topk", "list", file, "--with-count").lines());
        assertEquals(
                List.of("[{\"item\": \"a\", \"count\": 4294967295, \"saturated\": true}, {\"item\": \"b\","
                        + " \"count\": 1, \"saturated\": false}]"),
                InProcess.run("topk", "list", file, "--json").lines());

        String wide = dir.resolve("w.topk").toString();
        assertEquals(
                0,
                InProcess.run("topk", "create", wide, "--k", "2", "--counter-bits", "64")
                        .status());
        try (TopK sketch = TopK.open(Path.of(wide), OpenMode.SHARED)) {
            assertEquals(64, sketch.counterBits());
            sketch.add("a", 0xFFFF_FFFEL);
        }
        InProcess.Result wider = InProcess.run("topk", "add", wide, "a", "a");
        assertFalse(wider.err().contains("saturated"), wider.err());
        assertEquals(
                List.of("a\t4294967296"),
                InProcess.run("topk", "list", wide, "--with-count").lines());
    }
}
