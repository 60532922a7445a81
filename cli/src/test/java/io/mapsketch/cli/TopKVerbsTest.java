package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.engine.TopK;
import io.mapsketch.memory.AccessMode;
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
        assertEquals(0, InProcess.run("topk", "create", file, "--k", "2", "--seed", "4").status());
        assertEquals(0, InProcess.run("topk", "add", file, "/home", "/about", "/home").status());
        assertEquals(0, InProcess.withInput("/cart\n/cart\n/cart\n/home\n", "topk", "add", file).status());
        assertEquals(List.of("/cart", "/home"), InProcess.run("topk", "list", file).lines());
        assertEquals(List.of("/cart\t3", "/home\t3"), InProcess.run("topk", "list", file, "--with-count").lines(),
                "equal counts are listed by item");
        assertEquals(List.of("[{\"item\": \"/cart\", \"count\": 3}, {\"item\": \"/home\", \"count\": 3}]"),
                InProcess.run("topk", "list", file, "--json").lines());
        try (TopK sketch = TopK.open(Path.of(file), AccessMode.READ_ONLY)) {
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
        assertEquals(List.of("b\t3", "c\t3"), InProcess.run("topk", "list", left, "--with-count").lines());
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
        assertEquals(2, InProcess.run("topk", "create", dir.resolve("k0.topk").toString(), "--k", "0").status());
    }
}
