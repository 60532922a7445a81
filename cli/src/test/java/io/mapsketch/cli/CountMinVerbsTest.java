package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.frequency.CountMinSketch;
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
        assertEquals(
                0,
                InProcess.run("cms", "create", file, "--epsilon", "0.001", "--delta", "0.01", "--seed", "5")
                        .status());
        assertEquals(
                0,
                InProcess.run("cms", "incrby", file, "login", "3", "logout", "1")
                        .status());
        assertEquals(
                0,
                InProcess.withInput("login\nlogin\nsignup\n", "cms", "incrby", file)
                        .status());
        assertEquals(
                List.of("5", "1", "1", "0"),
                InProcess.run("cms", "query", file, "login", "logout", "signup", "never")
                        .lines());
        assertEquals(
                List.of("1", "5"),
                InProcess.withInput("signup\nlogin", "cms", "query", file).lines());
        try (CountMinSketch sketch = CountMinSketch.open(Path.of(file), OpenMode.READ_ONLY)) {
            assertEquals(2_719, sketch.width());
            assertEquals(5, sketch.depth());
            assertEquals(7, sketch.totalWeight());
            assertEquals(5, sketch.hashSeed());
        }
    }

    @Test
    void createTakesCounterWidthAndConservativeUpdate() throws IOException {
        String file = dir.resolve("w.cms").toString();
        assertEquals(
                0,
                InProcess.run(
                                "cms",
                                "create",
                                file,
                                "--epsilon",
                                "0.01",
                                "--delta",
                                "0.1",
                                "--counter-bits",
                                "64",
                                "--conservative")
                        .status());
        try (CountMinSketch sketch = CountMinSketch.open(Path.of(file), OpenMode.READ_ONLY)) {
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
        assertTrue(odd.err().startsWith("mapsketch: expected ITEM COUNT pairs, but item 'b' has no count"), odd.err());
        assertEquals(
                2, InProcess.run("cms", "incrby", file, "a", "1", "b", "two").status());
        assertEquals(2, InProcess.run("cms", "incrby", file, "a", "1", "b", "0").status());
        assertEquals(List.of("0"), InProcess.run("cms", "query", file, "a").lines());
        assertEquals(
                2,
                InProcess.run("cms", "create", dir.resolve("d.cms").toString(), "--epsilon", "0.01", "--delta", "1")
                        .status());
    }

    /** 32-bit counters stop at 2^32 - 1: the answer says so, and so does the add that got there. */
    @Test
    void aSaturatedEstimateIsMarkedAndTheAddThatSaturatesSaysHowToCountFurther() {
        String file = dir.resolve("s.cms").toString();
        InProcess.run("cms", "create", file, "--epsilon", "0.01", "--delta", "0.01");
        InProcess.Result first = InProcess.run("cms", "incrby", file, "a", "4000000000");
        assertEquals(0, first.status());
        assertFalse(first.err().contains("saturated"), first.err());
        assertEquals(
                List.of("4000000000", "0"),
                InProcess.run("cms", "query", file, "a", "b").lines());
        InProcess.Result second = InProcess.run("cms", "incrby", file, "b", "1", "a", "4000000000");
        assertEquals(0, second.status(), "the counts were added");
        assertTrue(
                second.err()
                        .contains("mapsketch: " + file + ": the count of 'a' is saturated at 4294967295, the"
                                + " largest of 32-bit counters: its estimate may be below the truth; to count past it, create the"
                                + " sketch with 'cms create --counter-bits 64'"),
                second.err());
        assertEquals(
                List.of("4294967295 (saturated: 32-bit counters)", "1"),
                InProcess.run("cms", "query", file, "a", "b").lines());
        assertEquals(
                List.of("1", "4294967295 (saturated: 32-bit counters)"),
                InProcess.withInput("b\na\n", "cms", "query", file).lines());
        InProcess.Result lines = InProcess.withInput("b\na\n", "cms", "incrby", file);
        assertEquals(0, lines.status());
        assertTrue(lines.err().contains(": the count of 'a' is saturated at 4294967295"), lines.err());
        InProcess.Result unsaturated = InProcess.withInput("b\n", "cms", "incrby", file);
        assertFalse(unsaturated.err().contains("saturated"), unsaturated.err());

        String wide = dir.resolve("w.cms").toString();
        InProcess.run("cms", "create", wide, "--epsilon", "0.01", "--delta", "0.01", "--counter-bits", "64");
        InProcess.run("cms", "incrby", wide, "a", "4000000000");
        InProcess.Result more = InProcess.run("cms", "incrby", wide, "a", "4000000000");
        assertFalse(more.err().contains("saturated"), more.err());
        assertEquals(
                List.of("8000000000"), InProcess.run("cms", "query", wide, "a").lines());
    }

    /** The pair: under the rows of files before format version 4 it shared every counter. */
    @Test
    void anAbsentItemDoesNotReadAHeavyItemsCountAtAnyDepth() {
        for (String delta : new String[] {"0.01", "0.0001", "1e-9"}) {
            String file = dir.resolve("pages-" + delta + ".cms").toString();
            InProcess.run("cms", "create", file, "--epsilon", "0.01", "--delta", delta);
            InProcess.run("cms", "incrby", file, "/page/20", "1000");
            assertEquals(
                    List.of("1000", "0"),
                    InProcess.run("cms", "query", file, "/page/20", "/page/22460")
                            .lines(),
                    "delta " + delta);
        }
    }
}
