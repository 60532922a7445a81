package io.mapsketch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.enginetesting.ReliabilityScenarios;
import io.mapsketch.enginetesting.SharedSketchFiles;
import io.mapsketch.enginetesting.SharedSketchWorker;
import io.mapsketch.frequency.CountMinSketch;
import io.mapsketch.testing.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers killed with SIGKILL at random moments lose nothing they acknowledged. A child JVM adds
 * batches of keys to five sketch files (classic, blocked and counting Bloom, Count-Min, HyperLogLog)
 * and reports each batch once it is in all five; the parent kills it after a random number of
 * acknowledgements plus a random delay, so that most kills land in the middle of a batch, then opens
 * every file and checks it against what was acknowledged; the next child goes on from there, in the
 * other mode. A creation killed half-way leaves no file under the sketch's name, and its
 * temporary file is deleted by the next creation of that name.
 */
class KilledWriterTest {

    private static final int KILLS = 30;
    private static final int CREATION_KILLS = 10;

    @TempDir
    Path dir;

    @Test
    void everyAcknowledgedBatchSurvivesThirtyKillsOfEveryKind() throws Exception {
        SharedSketchFiles.create(dir, OpenMode.EXCLUSIVE).close();
        SplittableRandom random = new SplittableRandom(30);
        long acknowledged = -1;
        for (int kill = 0; kill < KILLS; kill++) {
            OpenMode mode = kill % 2 == 0 ? OpenMode.SHARED : OpenMode.EXCLUSIVE;
            acknowledged = ReliabilityScenarios.killRound(dir, acknowledged, mode, random, "after kill " + kill);
        }
        assertTrue(acknowledged >= KILLS, "every round acknowledged at least one batch: " + acknowledged);
    }

    @Test
    void aCreationKilledHalfWayLeavesNoFileUnderTheSketchName() throws Exception {
        SplittableRandom random = new SplittableRandom(31);
        int opened = 0;
        Set<String> interrupted = new TreeSet<>();
        for (int kill = 0; kill < CREATION_KILLS; kill++) {
            try (ChildJvm creator = ChildJvm.start(dir, SharedSketchWorker.class, "create", dir.toString())) {
                assertEquals("created 0", creator.readLine());
                Thread.sleep(random.nextInt(40));
                creator.kill();
                creator.remainingLines();
            }
            for (Path leftover : temporaries()) {
                interrupted.add(
                        leftover.getFileName().toString().replaceFirst("^\\.(.*)\\.\\d+\\.\\d+\\.creating$", "$1"));
            }
            List<Path> named;
            try (Stream<Path> files = Files.list(dir)) {
                named = files.filter(f -> f.getFileName().toString().startsWith("created-"))
                        .toList();
            }
            for (Path file : named) {
                try (CountMinSketch sketch = CountMinSketch.open(file, OpenMode.READ_ONLY)) {
                    assertEquals(0, sketch.totalWeight(), file + " opens as the empty sketch it was created as");
                    opened++;
                }
            }
        }
        assertTrue(opened >= CREATION_KILLS, "each creator finished at least one file: " + opened);
        assertFalse(interrupted.isEmpty(), "no kill landed during a creation");
        for (String name : interrupted) {
            CountMinSketch.builder()
                    .epsilon(0.1)
                    .delta(0.1)
                    .create(dir.resolve(name), OpenMode.EXCLUSIVE, CreateOption.OVERWRITE_EXISTING)
                    .close();
        }
        assertEquals(List.of(), temporaries(), "creating a name again deletes the dead creators' temporary files");
        System.out.println(
                "killed creations interrupted " + interrupted + "; nothing under a sketch name was incomplete");
    }

    private List<Path> temporaries() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".creating"))
                    .toList();
        }
    }
}
