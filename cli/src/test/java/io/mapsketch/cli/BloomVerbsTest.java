package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.CountingBloomFilter;
import io.mapsketch.membership.MembershipFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mapsketch bf create, add, exists}, in this JVM. */
class BloomVerbsTest {

    @TempDir
    Path dir;

    private String file(String name) {
        return dir.resolve(name).toString();
    }

    @Test
    void createAddAndExistsFromArgumentsAndStandardInput() {
        String filter = file("v.bf");
        assertEquals(
                0,
                InProcess.run("bf", "create", filter, "--capacity", "1000", "--error-rate", "0.001")
                        .status());
        assertEquals(0, InProcess.run("bf", "add", filter, "alice", "bob").status());
        assertEquals(
                0,
                InProcess.withInput("carol\r\ndave\n\nerin", "bf", "add", filter)
                        .status());
        InProcess.Result answers =
                InProcess.run("bf", "exists", filter, "alice", "bob", "carol", "dave", "", "erin", "mallory");
        assertEquals(0, answers.status(), answers.err());
        assertEquals(List.of("1", "1", "1", "1", "1", "1", "0"), answers.lines());
        assertEquals(
                List.of("1", "0", "1"),
                InProcess.withInput("erin\ntrent\nalice\n", "bf", "exists", filter)
                        .lines());
    }

    @Test
    void createsTheLayoutAskedForWithTheSeed() throws IOException {
        String classic = file("c.bloom");
        assertEquals(
                0,
                InProcess.run(
                                "bf",
                                "create",
                                classic,
                                "--capacity",
                                "10000",
                                "--error-rate",
                                "0.01",
                                "--layout",
                                "classic",
                                "--seed",
                                "42")
                        .status());
        try (MembershipFilter filter = MembershipFilter.open(Path.of(classic), OpenMode.READ_ONLY)) {
            BloomFilter bloom = (BloomFilter) filter;
            assertEquals(95_851, bloom.bitCount());
            assertEquals(7, bloom.hashCount());
            assertEquals(42, bloom.hashSeed());
        }
        String counting = file("c.cbf");
        assertEquals(
                0,
                InProcess.run(
                                "bf",
                                "create",
                                counting,
                                "--capacity",
                                "100",
                                "--error-rate",
                                "0.01",
                                "--layout",
                                "COUNTING")
                        .status());
        try (MembershipFilter filter = MembershipFilter.open(Path.of(counting), OpenMode.READ_ONLY)) {
            assertTrue(filter instanceof CountingBloomFilter, filter.toString());
            assertEquals(0, filter.hashSeed(), "the documented default seed");
        }
    }

    @Test
    void createRefusesAnExistingFileUnlessForced() {
        String filter = file("f.bf");
        assertEquals(
                0,
                InProcess.run("bf", "create", filter, "--capacity", "100", "--error-rate", "0.01")
                        .status());
        InProcess.run("bf", "add", filter, "kept");
        InProcess.Result refused = InProcess.run("bf", "create", filter, "--capacity", "100", "--error-rate", "0.01");
        assertEquals(1, refused.status());
        assertEquals(
                "mapsketch: " + filter + ": already exists (--force replaces it)",
                refused.err().strip());
        assertEquals(List.of("1"), InProcess.run("bf", "exists", filter, "kept").lines());
        assertEquals(
                0,
                InProcess.run("bf", "create", filter, "--capacity", "100", "--error-rate", "0.01", "--force")
                        .status());
        assertEquals(List.of("0"), InProcess.run("bf", "exists", filter, "kept").lines());
    }

    @Test
    void ownerOnlyFilesAreNotReadableByOthers() throws IOException {
        String open = file("open.bf");
        String personal = file("personal.bf");
        InProcess.run("bf", "create", open, "--capacity", "100", "--error-rate", "0.01");
        assertEquals(
                0,
                InProcess.run("bf", "create", personal, "--capacity", "100", "--error-rate", "0.01", "--owner-only")
                        .status());
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(Path.of(open))));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(Path.of(personal))));
    }

    @Test
    void refusedParametersAreUsageErrors() {
        InProcess.Result rate = InProcess.run("bf", "create", file("r.bf"), "--capacity", "100", "--error-rate", "1.5");
        assertEquals(2, rate.status());
        assertTrue(rate.err().startsWith("mapsketch: --error-rate = 1.5, must be in (0, 1)"), rate.err());
        assertEquals(
                List.of("mapsketch: --error-rate = 1.5, must be in (0, 1); see 'mapsketch bf create --help'"),
                rate.err().lines().toList(),
                "one line, no usage text");
        assertEquals(
                2,
                InProcess.run("bf", "create", file("m.bf"), "--capacity", "100").status());
        assertEquals(
                2,
                InProcess.run(
                                "bf",
                                "create",
                                file("l.bf"),
                                "--capacity",
                                "100",
                                "--error-rate",
                                "0.1",
                                "--layout",
                                "cuckoo")
                        .status());
        assertEquals(
                2,
                InProcess.run("bf", "create", file("n.bf"), "--capacity", "many", "--error-rate", "0.1")
                        .status());
    }
}
