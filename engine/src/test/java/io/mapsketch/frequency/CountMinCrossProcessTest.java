package io.mapsketch.frequency;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.CountMinWorker;
import io.mapsketch.enginetesting.Payloads;
import io.mapsketch.testing.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two JVMs add to one mapped Count-Min sketch at once: the plain sketch's counters, N and items
 * equal the sequential build exactly; the conservative one never undercounts.
 */
class CountMinCrossProcessTest {

    private static final int EVENTS = 300_000;

    @TempDir
    Path dir;

    @Test
    void twoProcessesAddingAtOnceEqualTheSequentialBuild() throws Exception {
        Path plainFile = dir.resolve("plain.cms");
        Path conservativeFile = dir.resolve("conservative.cms");
        CountMinSketch.Builder plain =
                CountMinSketch.builder().epsilon(0.01).delta(0.01).seed(4321);
        CountMinSketch.Builder conservative = CountMinSketch.builder()
                .epsilon(0.01)
                .delta(0.01)
                .seed(4321)
                .counterBits(64)
                .conservativeUpdate(true);
        plain.create(plainFile, OpenMode.SHARED).close();
        conservative.create(conservativeFile, OpenMode.SHARED).close();
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (String seed : new String[] {"1", "2"}) {
                ChildJvm child = ChildJvm.start(
                        dir,
                        CountMinWorker.class,
                        plainFile.toString(),
                        conservativeFile.toString(),
                        seed,
                        Integer.toString(EVENTS));
                children.add(child);
                assertEquals("ready", child.readLine());
            }
            for (ChildJvm child : children) {
                child.go();
            }
            for (ChildJvm child : children) {
                assertEquals("done", child.readLine());
                assertEquals(0, child.waitFor(Duration.ofMinutes(2)));
            }
        } finally {
            children.forEach(ChildJvm::close);
        }
        long[] exact = new long[CountMinWorker.KEYS];
        long total = 0;
        try (CountMinSketch sequential = plain.createAnonymous(OpenMode.EXCLUSIVE)) {
            for (long seed = 1; seed <= 2; seed++) {
                long[][] events = CountMinWorker.stream(seed, EVENTS);
                CountMinWorker.addAll(sequential, events);
                CountMinWorker.countInto(exact, events);
            }
            for (long count : exact) {
                total += count;
            }
            try (CountMinSketch shared = CountMinSketch.open(plainFile, OpenMode.READ_ONLY)) {
                assertArrayEquals(Payloads.bytes(sequential), Payloads.bytes(shared));
                assertEquals(total, shared.totalWeight());
                assertEquals(sequential.totalWeight(), shared.totalWeight());
                assertEquals(2L * EVENTS, shared.itemsAdded(), "each single add and each batch key");
                assertTrue(shared.wasCleanlyClosed());
            }
        }
        try (CountMinSketch shared = CountMinSketch.open(conservativeFile, OpenMode.READ_ONLY)) {
            assertEquals(total, shared.totalWeight());
            for (int key = 0; key < exact.length; key++) {
                assertTrue(
                        shared.estimate(key) >= exact[key],
                        "key " + key + ": " + shared.estimate(key) + " below the truth " + exact[key]);
            }
        }
    }
}
