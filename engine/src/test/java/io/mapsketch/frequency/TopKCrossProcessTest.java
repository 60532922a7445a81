package io.mapsketch.frequency;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.TopKChecks;
import io.mapsketch.enginetesting.Zipf;
import io.mapsketch.testing.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Top-K files shared by processes: adds from two JVMs, and a writer killed while holding the candidate lock. */
class TopKCrossProcessTest {

    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    @TempDir
    Path dir;

    @Test
    void twoProcessesAddingAtOnceLoseNothing() throws Exception {
        Path file = dir.resolve("shared-top.sketch");
        TopKTest.builder(20).create(file, OpenMode.SHARED).close();
        int events = 40_000;
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (long seed : new long[] {1, 2}) {
                children.add(ChildJvm.start(
                        dir, TopKWorker.class, "add", file.toString(), Long.toString(seed), Integer.toString(events)));
            }
            for (ChildJvm child : children) {
                assertEquals("ready", child.readLine());
            }
            for (ChildJvm child : children) {
                child.go();
            }
            for (ChildJvm child : children) {
                assertEquals("done", child.readLine());
                assertEquals(0, child.waitFor(TIMEOUT));
            }
        } finally {
            children.forEach(ChildJvm::close);
        }
        long[] first = Zipf.zipfStream(1, events);
        long[] second = Zipf.zipfStream(2, events);
        Map<Long, Long> exact = TopKChecks.exactCounts(first, second);
        try (TopK shared = TopK.open(file, OpenMode.READ_ONLY);
                TopK sequential = TopKTest.builder(20).createAnonymous(OpenMode.EXCLUSIVE)) {
            sequential.addAll(first);
            sequential.addAll(second);
            assertEquals(2L * events, shared.totalWeight(), "N is exact");
            assertEquals(2L * events, shared.itemsAdded());
            for (long key : exact.keySet()) {
                assertEquals(sequential.estimate(key), shared.estimate(key), "counters of key " + key);
            }
            assertEquals(TopKChecks.exactTop(exact, 5), TopKChecks.keys(shared.top(5)));
            TopKChecks.assertSound(shared, exact);
        }
    }

    @Test
    void aWriterKilledHoldingTheCandidateLockIsRecoveredFrom() throws Exception {
        Path file = dir.resolve("recovered-top.sketch");
        try (TopK sketch = TopKTest.builder(4).create(file, OpenMode.SHARED)) {
            for (int i = 0; i < 4; i++) {
                sketch.add("key-" + i, 10 + i);
            }
            try (ChildJvm dying = ChildJvm.start(dir, TopKWorker.class, "die-holding", file.toString())) {
                assertEquals("torn", dying.readLine());
                List<HeavyHitter> duringTear = sketch.top();
                assertEquals(3, duringTear.size(), "the torn slot is left out, never returned: " + duringTear);
                dying.kill();
            }
            sketch.add("heavy newcomer", 100);
            assertEquals(1, sketch.candidateRecoveries(), "the dead holder was detected once");
            List<String> keys =
                    sketch.top().stream().map(HeavyHitter::keyAsString).toList();
            assertEquals(
                    List.of("heavy newcomer", "key-3", "key-2", "key-1"),
                    keys,
                    "the torn slot (key-0's) was dropped, the table rebuilt and the newcomer admitted");
            sketch.add("key-0", 2);
            assertEquals(
                    List.of("heavy newcomer", "key-3", "key-0", "key-2"),
                    sketch.top().stream().map(HeavyHitter::keyAsString).toList(),
                    "key-0's counters survived: at 12 it evicts key-1 (11) and ties key-2, before it by key bytes");
            assertEquals("heavy newcomer", new String(sketch.top(1).getFirst().key(), StandardCharsets.UTF_8));
        }
    }
}
