package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.membership.CuckooFilter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mapsketch cf create, add, del, exists}, info and the refused merge of cuckoo filters, in this JVM. */
class CuckooVerbsTest {

    @TempDir
    Path dir;

    @Test
    void addExistsDeleteAndInfo() throws IOException {
        String file = dir.resolve("s.cf").toString();
        assertEquals(
                0,
                InProcess.run("cf", "create", file, "--capacity", "10000", "--error-rate", "0.001")
                        .status());
        assertEquals(0, InProcess.run("cf", "add", file, "a", "b", "b").status());
        assertEquals(0, InProcess.withInput("c\nd\n", "cf", "add", file).status());
        assertEquals(
                List.of("1", "1", "1", "1", "0"),
                InProcess.run("cf", "exists", file, "a", "b", "c", "d", "e").lines());
        assertEquals(
                List.of("1", "1", "0"),
                InProcess.run("cf", "del", file, "a", "b", "e").lines());
        assertEquals(
                List.of("0", "1"),
                InProcess.run("cf", "exists", file, "a", "b").lines(),
                "b was added twice and removed once");
        try (CuckooFilter filter = CuckooFilter.open(Path.of(file), OpenMode.READ_ONLY)) {
            assertEquals(16, filter.fingerprintBits(), "2 x 4 / 2^12 is above 0.001");
            assertEquals(3, filter.itemsAdded());
        }
        String json = InProcess.run("info", file, "--json").out();
        assertTrue(json.contains("\"kind\": \"CUCKOO\"") && json.contains("\"fingerprint_bits\": 16"), json);
    }

    @Test
    void cuckooFiltersDoNotMergeAndOtherKindsAreRefused() {
        String left = dir.resolve("l.cf").toString();
        String right = dir.resolve("r.cf").toString();
        InProcess.run("cf", "create", left, "--capacity", "100");
        InProcess.run("cf", "create", right, "--capacity", "100");
        InProcess.Result merge = InProcess.run("merge", left, right);
        assertEquals(1, merge.status());
        assertTrue(merge.err().contains("cuckoo filters do not merge"), merge.err());
        String bloom = dir.resolve("b.bf").toString();
        InProcess.run("bf", "create", bloom, "--capacity", "100", "--error-rate", "0.01");
        InProcess.Result wrongKind = InProcess.run("cf", "del", bloom, "x");
        assertEquals(1, wrongKind.status());
        assertTrue(wrongKind.err().startsWith("mapsketch: ") && wrongKind.err().contains(bloom), wrongKind.err());
        assertEquals(
                2,
                InProcess.run(
                                "cf",
                                "create",
                                dir.resolve("p.cf").toString(),
                                "--capacity",
                                "100",
                                "--error-rate",
                                "1e-6")
                        .status());
    }
}
