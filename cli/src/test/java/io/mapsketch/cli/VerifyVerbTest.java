package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.membership.ScalableBloomFilter;
import io.mapsketch.memory.HashScheme;
import io.mapsketch.memory.RegionMode;
import io.mapsketch.memory.SketchFileLayout;
import io.mapsketch.memory.SketchHeader;
import io.mapsketch.memory.SketchRegion;
import io.mapsketch.memory.SketchRegions;
import io.mapsketch.testing.ScalableLinkFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mapsketch verify FILE...}: one line per file, and the exit status of the worst, in this JVM. */
class VerifyVerbTest {

    @TempDir
    Path dir;

    private String file(String name) {
        return dir.resolve(name).toString();
    }

    /** XORs 0x01 into payload byte {@code offset} with plain file I/O, as damage from outside does. */
    private static void flip(Path file, long offset) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, SketchFileLayout.HEADER_LENGTH + offset);
            one.put(0, (byte) (one.get(0) ^ 1)).rewind();
            channel.write(one, SketchFileLayout.HEADER_LENGTH + offset);
        }
    }

    @Test
    void okCorruptStaleAndNoChecksumEachSayWhatTheyAreWithTheirStatus() throws IOException {
        String filter = file("v.bf");
        String counts = file("e.cms");
        assertEquals(
                0,
                InProcess.run("bf", "create", filter, "--capacity", "100000", "--error-rate", "0.01")
                        .status());
        assertEquals(0, InProcess.run("bf", "add", filter, "alice", "bob").status());
        assertEquals(
                0,
                InProcess.run("cms", "create", counts, "--epsilon", "0.001", "--delta", "0.01")
                        .status());
        assertEquals(0, InProcess.run("cms", "incrby", counts, "login", "3").status());
        InProcess.Result clean = InProcess.run("verify", filter, counts);
        assertEquals(0, clean.status(), clean.err());
        assertEquals(List.of(filter + ": ok", counts + ": ok"), clean.lines());

        flip(Path.of(filter), 70_000);
        long end = Math.min(Files.size(Path.of(filter)) - SketchFileLayout.HEADER_LENGTH, 131_072);
        InProcess.Result damaged = InProcess.run("verify", filter, counts);
        assertEquals(1, damaged.status());
        assertEquals(
                List.of(
                        filter + ": corrupt: payload bytes [65536, " + end + ") do not match their checksum",
                        counts + ": ok"),
                damaged.lines());
        assertEquals("", damaged.err());

        try (CountMinSketch writer = CountMinSketch.open(Path.of(counts), OpenMode.SHARED)) {
            writer.add("logout", 1);
            InProcess.Result stale = InProcess.run("verify", counts);
            assertEquals(Verify.NOT_PROVEN, stale.status());
            assertEquals(1, stale.lines().size());
            assertTrue(
                    stale.lines()
                            .get(0)
                            .startsWith(
                                    counts + ": stale: 1 writer attached, or killed while open;" + " payload bytes ["),
                    stale.out());
        }

        Path old = dir.resolve("old.sketch");
        SketchRegions.create(
                        old,
                        SketchHeader.forNewSketch(SketchKind.BLOOM.id(), HashScheme.XXH3_64, 0, new long[0], 64),
                        RegionMode.SHARED)
                .close();
        InProcess.Result unproven = InProcess.run("verify", counts, old.toString());
        assertEquals(Verify.NOT_PROVEN, unproven.status());
        assertEquals(List.of(counts + ": ok", old + ": no checksum: format version 1"), unproven.lines());
    }

    @Test
    void aFileThatCannotBeOpenedIsOneLineOnStandardErrorAndTheOthersAreStillVerified() {
        String counts = file("e.cms");
        InProcess.run("cms", "create", counts, "--epsilon", "0.01", "--delta", "0.01");
        String missing = file("missing.cms");
        InProcess.Result result = InProcess.run("verify", missing, counts);
        assertEquals(1, result.status());
        assertEquals(List.of(counts + ": ok"), result.lines());
        assertEquals("mapsketch: " + missing + ": no such file", result.err().strip());
        assertEquals(2, InProcess.run("verify").status(), "no FILE is a usage error");
    }

    @Test
    void aScalableFilterIsVerifiedLinkByLinkAndTheLineNamesTheLink() throws IOException {
        Path directory = dir.resolve("scalable");
        try (ScalableBloomFilter filter = ScalableBloomFilter.builder()
                .expectedItems(1_000)
                .falsePositiveRate(0.01)
                .create(directory, OpenMode.SHARED)) {
            filter.addAll(new SplittableRandom(3).longs(5_000).toArray());
        }
        assertEquals(
                List.of(directory + ": ok"),
                InProcess.run("verify", directory.toString()).lines());
        Path link = ScalableLinkFiles.link(directory, 1);
        flip(link, 3);
        InProcess.Result result = InProcess.run("verify", directory.toString());
        assertEquals(1, result.status());
        assertEquals(
                List.of(directory + ": " + link.getFileName() + ": corrupt: payload bytes [0, " + linkPayload(link)
                        + ") do not match their checksum"),
                result.lines());
    }

    private static long linkPayload(Path file) throws IOException {
        try (SketchRegion link = SketchRegions.open(file, RegionMode.READ_ONLY)) {
            return Math.min(link.header().payloadLength(), SketchFileLayout.MIN_CHUNK_BYTES);
        }
    }
}
