package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.HllUnion;
import org.apache.datasketches.hll.TgtHllType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mapsketch import} and {@code export datasketches-hll} through real processes, against
 * datasketches-java: an image imports with DataSketches' estimate, {@code hll add} goes on hashing and
 * accumulating as DataSketches does (the export is DataSketches' own HLL_8 image after the same updates),
 * {@code hll merge} answers DataSketches' composite estimate, {@code info} names the estimator, and bad
 * bytes are a one-line refusal that writes nothing.
 */
class DataSketchesVerbsTest {

    @TempDir
    Path dir;

    private String at(String name) {
        return dir.resolve(name).toString();
    }

    private static String lines(int from, int to) {
        return IntStream.range(from, to)
                .mapToObj(i -> "user-" + i + "@example.com")
                .collect(Collectors.joining("\n"));
    }

    private static HllSketch sketch(int lgK, TgtHllType type, int from, int to) {
        HllSketch sketch = new HllSketch(lgK, type);
        IntStream.range(from, to).forEach(i -> sketch.update("user-" + i + "@example.com"));
        return sketch;
    }

    private long count(String file) throws Exception {
        ChildCommand.Result count = ChildCommand.run(dir, "", "hll", "count", at(file));
        assertEquals(0, count.status(), count.err());
        return Long.parseLong(count.out().strip());
    }

    @Test
    void anImportedImageCountsAddsAndExportsAsDataSketches() throws Exception {
        HllSketch theirs = sketch(12, TgtHllType.HLL_4, 0, 5_000);
        Files.write(dir.resolve("visitors.ds"), theirs.toCompactByteArray());
        ChildCommand.Result imported =
                ChildCommand.run(dir, "", "import", "datasketches-hll", at("visitors.ds"), at("visitors.hll"));
        assertEquals(0, imported.status(), imported.err());
        assertEquals(Math.round(theirs.getEstimate()), count("visitors.hll"));

        ChildCommand.Result added = ChildCommand.run(dir, lines(5_000, 6_000), "hll", "add", at("visitors.hll"));
        assertEquals(0, added.status(), added.err());
        IntStream.range(5_000, 6_000).forEach(i -> theirs.update("user-" + i + "@example.com"));
        assertEquals(Math.round(theirs.getEstimate()), count("visitors.hll"));

        ChildCommand.Result exported =
                ChildCommand.run(dir, "", "export", "datasketches-hll", at("visitors.hll"), at("back.ds"));
        assertEquals(0, exported.status(), exported.err());
        assertArrayEquals(
                theirs.copyAs(TgtHllType.HLL_8).toUpdatableByteArray(), Files.readAllBytes(dir.resolve("back.ds")));

        ChildCommand.Result info = ChildCommand.run(dir, "", "info", at("visitors.hll"));
        assertTrue(
                info.out().contains("DATASKETCHES_MURMUR3_128") && info.out().contains("DATASKETCHES_HIP"), info.out());
    }

    @Test
    void aMergeAnswersTheCompositeEstimateAndBadBytesWriteNothing() throws Exception {
        HllSketch monday = sketch(14, TgtHllType.HLL_8, 0, 30_000);
        HllSketch tuesday = sketch(14, TgtHllType.HLL_6, 20_000, 50_000);
        Files.write(dir.resolve("monday.ds"), monday.toUpdatableByteArray());
        Files.write(dir.resolve("tuesday.ds"), tuesday.toCompactByteArray());
        for (String day : new String[] {"monday", "tuesday"}) {
            assertEquals(
                    0,
                    ChildCommand.run(dir, "", "import", "datasketches-hll", at(day + ".ds"), at(day + ".hll"))
                            .status());
        }
        ChildCommand.Result merged =
                ChildCommand.run(dir, "", "hll", "merge", at("week.hll"), at("monday.hll"), at("tuesday.hll"));
        assertEquals(0, merged.status(), merged.err());
        HllUnion union = new HllUnion(14);
        union.update(monday);
        union.update(tuesday);
        assertEquals(Math.round(union.getResult(TgtHllType.HLL_8).getCompositeEstimate()), count("week.hll"));
        ChildCommand.Result info = ChildCommand.run(dir, "", "info", at("week.hll"));
        assertTrue(info.out().contains("DATASKETCHES_COMPOSITE"), info.out());

        byte[] bad = monday.toUpdatableByteArray();
        bad[2] = 8;
        Path source = Files.write(dir.resolve("bad.ds"), bad);
        InProcess.Result refused = InProcess.run("import", "datasketches-hll", source.toString(), at("bad.hll"));
        assertEquals(1, refused.status());
        assertEquals(1, refused.err().lines().count(), refused.err());
        assertTrue(refused.err().contains(source + ": not a datasketches-hll sketch: at byte 2"), refused.err());
        assertTrue(Files.notExists(dir.resolve("bad.hll")));

        Path nativeFile = dir.resolve("native.hll");
        assertEquals(
                0,
                InProcess.run("hll", "create", nativeFile.toString(), "--precision", "14")
                        .status());
        InProcess.Result other = InProcess.run("export", "datasketches-hll", nativeFile.toString(), at("out.ds"));
        assertEquals(1, other.status());
        assertTrue(other.err().contains(nativeFile + ": "), other.err());
        assertTrue(Files.notExists(dir.resolve("out.ds")));
    }
}
