package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.engine.CountMinSketch;
import io.mapsketch.memory.AccessMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mapsketch cms create, incrby, query}, in this JVM. */
class CountMinVerbsTest {

    @TempDir
    Path dir;

    @Test
    void incrbyFromPairsAndLinesThenQuery() throws IOException {
        String file = dir.resolve("e.cms").toString();
        assertEquals(0, InProcess.run("cms", "create", file, "--epsilon", "0.001", "--delta", "0.01", "--seed", "5")
                .status());
        assertEquals(0, InProcess.run("cms", "incrby", file, "login", "3", "logout", "1").status());
        assertEquals(0, InProcess.withInput("login\nlogin\nsignup\n", "cms", "incrby", file).status());
        assertEquals(List.of("5", "1", "1", "0"), InProcess.run("cms", "query", file, "login", "logout", "signup",
                "never").lines());
        assertEquals(List.of("1", "5"), InProcess.withInput("signup\nlogin", "cms", "query", file).lines());
        try (CountMinSketch sketch = CountMinSketch.open(Path.of(file), AccessMode.READ_ONLY)) {
            assertEquals(2_719, sketch.width());
            assertEquals(5, sketch.depth());
            assertEquals(7, sketch.totalWeight());
            assertEquals(5, sketch.hashSeed());
        }
    }

    @Test
    void createTakesCounterWidthAndConservativeUpdate() throws IOException {
        String file = dir.resolve("w.cms").toString();
        assertEquals(0, InProcess.run("cms", "create", file, "--epsilon", "0.01", "--delta", "0.1", "--counter-bits",
                "64", "--conservative").status());
        try (CountMinSketch sketch = CountMinSketch.open(Path.of(file), AccessMode.READ_ONLY)) {
            assertEquals(64, sketch.counterBits());
            assertTrue(sketch.isConservative());
        }
    }

    @Test
    void badPairsAreUsageErrorsAndAddNothing() {
        String file = dir.resolve("b.cms").toString();
        InProcess.run("cms", "create", file, "--epsilon", "0.01", "--delta", "0.01");
        InProcess.Result odd = InProcess.run("cms", "incrby", file, "a", "1", "b");
        assertEquals(2, odd.status());
        assertTrue(odd.err().startsWith("expected ITEM COUNT pairs, but item 'b' has no count"), odd.err());
        assertEquals(2, InProcess.run("cms", "incrby", file, "a", "1", "b", "two").status());
        assertEquals(2, InProcess.run("cms", "incrby", file, "a", "1", "b", "0").status());
        assertEquals(List.of("0"), InProcess.run("cms", "query", file, "a").lines());
        assertEquals(2, InProcess.run("cms", "create", dir.resolve("d.cms").toString(), "--epsilon", "0.01",
                "--delta", "1").status());
    }
}
