package io.mapsketch.frequency;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.Payloads;
import io.mapsketch.internal.SketchInternals;
import io.mapsketch.memory.SketchFileLayout;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Count-Min and Top-K files written before format version 4 keep double hashing: they answer, update
 * and merge exactly as the build that wrote them did. Both golden files were created by mapsketch at
 * commit f31aedc with seed 0 and 32-bit counters, then closed cleanly:
 *
 * <ul>
 *   <li>{@code cms-v1-e0.01-d1e-9.sketch}: epsilon 0.01, delta 1e-9 (272 x 21); {@code /page/20} added
 *       with count 1,000, then {@code /page/(7i + 1)} with count {@code 1 + i mod 5} for i in 0..199;</li>
 *   <li>{@code topk-v1-k5-e0.01-d0.01.sketch}: k 5, epsilon 0.01, delta 0.01 (272 x 5);
 *       {@code /page/20} with count 1,000, {@code /page/(7i + 1)} with count {@code 10 + i} for i in
 *       0..49, then {@code /page/22460} twice.</li>
 * </ul>
 *
 * <p>The answers below are what that build printed for them.
 */
class FrequencyVersionOneTest {

    @TempDir
    Path dir;

    private Path golden(String name) throws IOException {
        Path file = dir.resolve(name);
        try (InputStream in = getClass().getResourceAsStream("/" + name)) {
            Files.copy(in, file);
        }
        return file;
    }

    private static void addTheGoldenCountMinStream(CountMinSketch cms) {
        cms.add("/page/20", 1_000);
        for (int i = 0; i < 200; i++) {
            cms.add("/page/" + (i * 7 + 1), 1 + i % 5);
        }
    }

    @Test
    void aVersionOneCountMinFileAnswersAndUpdatesAsItsBuildDid() throws IOException {
        Path file = golden("cms-v1-e0.01-d1e-9.sketch");
        CountMinFormat shape = CountMinFormat.of(0.01, 1e-9, 32, false);
        try (CountMinSketch old = CountMinSketch.open(file, OpenMode.READ_ONLY);
                CountMinSketch remade = OlderFrequencyFiles.countMin(
                        dir.resolve("remade.cms"),
                        SketchFileLayout.FIRST_FORMAT_VERSION,
                        shape,
                        0,
                        OpenMode.EXCLUSIVE)) {
            assertEquals(
                    SketchFileLayout.FIRST_FORMAT_VERSION,
                    SketchInternals.region(old).header().formatVersion());
            assertTrue(old.wasCleanlyClosed());
            assertEquals(272, old.width());
            assertEquals(21, old.depth());
            assertEquals(1_600, old.totalWeight());
            assertEquals(201, old.itemsAdded());
            assertEquals(1_000, old.estimate("/page/20"));
            assertEquals(1_000, old.estimate("/page/22460"), "the pair that shares every row under double hashing");
            assertEquals(1, old.estimate("/page/1"));
            assertEquals(2, old.estimate("/page/8"));
            assertEquals(0, old.estimate("/page/2"));
            assertEquals(0, old.estimate("/page/3"));
            addTheGoldenCountMinStream(remade);
            assertArrayEquals(
                    Payloads.bytes(old),
                    Payloads.bytes(remade),
                    "today's writer of a version 1 file puts every count where that build did");
        }
        for (OpenMode mode : new OpenMode[] {OpenMode.SHARED, OpenMode.EXCLUSIVE}) {
            try (CountMinSketch writer = CountMinSketch.open(file, mode)) {
                writer.add("/page/22460", 5);
            }
        }
        try (CountMinSketch reopened = CountMinSketch.open(file, OpenMode.READ_ONLY);
                CountMinSketch other = OlderFrequencyFiles.countMin(
                        dir.resolve("other.cms"),
                        SketchFileLayout.FIRST_FORMAT_VERSION,
                        shape,
                        0,
                        OpenMode.EXCLUSIVE)) {
            assertEquals(
                    SketchFileLayout.FIRST_FORMAT_VERSION,
                    SketchInternals.region(reopened).header().formatVersion());
            assertEquals(1_010, reopened.estimate("/page/20"), "the pair still shares every counter");
            assertEquals(1_010, reopened.estimate("/page/22460"));
            other.merge(reopened);
            assertEquals(1_010, other.estimate("/page/20"), "files of one scheme merge");
            assertEquals(1_610, other.totalWeight());
        }
    }

    @Test
    void aVersionOneTopKFileListsAndUpdatesAsItsBuildDid() throws IOException {
        Path file = golden("topk-v1-k5-e0.01-d0.01.sketch");
        try (TopK old = TopK.open(file, OpenMode.READ_ONLY)) {
            assertEquals(
                    SketchFileLayout.FIRST_FORMAT_VERSION,
                    SketchInternals.region(old).header().formatVersion());
            assertEquals(5, old.k());
            assertEquals(2_727, old.totalWeight());
            assertEquals(53, old.itemsAdded());
            assertEquals(
                    List.of("/page/20 1002", "/page/22460 1002", "/page/344 59", "/page/337 58", "/page/330 57"),
                    listed(old));
        }
        try (TopK writer = TopK.open(file, OpenMode.SHARED)) {
            writer.add("/page/337", 2);
            writer.add("/page/22460");
        }
        try (TopK reopened = TopK.open(file, OpenMode.READ_ONLY)) {
            assertEquals(
                    List.of("/page/20 1003", "/page/22460 1003", "/page/337 60", "/page/344 59", "/page/330 57"),
                    listed(reopened));
        }
    }

    private static List<String> listed(TopK top) {
        return top.top().stream()
                .map(hitter -> hitter.keyAsString() + " " + hitter.estimate())
                .toList();
    }
}
