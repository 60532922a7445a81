package io.mapsketch.membership;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.SeededKeys;
import io.mapsketch.internal.SketchInternals;
import io.mapsketch.memory.RegionLock;
import io.mapsketch.testing.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Cuckoo filter files shared by processes: adds and removes from two JVMs, and a writer killed holding the lock. */
class CuckooCrossProcessTest {

    private static final int KEYS_PER_CHILD = 100_000;
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    @TempDir
    Path dir;

    private static CuckooFilter.Builder builder() {
        return CuckooFilter.builder()
                .expectedItems(2 * KEYS_PER_CHILD)
                .falsePositiveRate(0.01)
                .seed(1234);
    }

    @Test
    void twoProcessesAddingAndRemovingAtOnceLeaveWhatOneWouldLeave() throws Exception {
        Path file = dir.resolve("shared.cuckoo");
        builder().create(file, OpenMode.SHARED).close();
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (long seed : new long[] {1, 2}) {
                children.add(ChildJvm.start(
                        dir,
                        CuckooWorker.class,
                        "churn",
                        file.toString(),
                        Long.toString(seed),
                        Integer.toString(KEYS_PER_CHILD)));
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
        try (CuckooFilter shared = CuckooFilter.open(file, OpenMode.READ_ONLY);
                CuckooFilter sequential = builder().createAnonymous(OpenMode.EXCLUSIVE)) {
            long kept = 0;
            for (long seed : new long[] {1, 2}) {
                long[] keys = SeededKeys.of(seed, KEYS_PER_CHILD);
                sequential.addAll(keys);
                for (long key : CuckooWorker.removed(keys)) {
                    sequential.remove(key);
                }
                for (long key : CuckooWorker.kept(keys)) {
                    assertTrue(shared.mightContain(key), "kept key " + key);
                    kept++;
                }
            }
            assertEquals(kept, shared.itemsAdded(), "adds minus removes of both processes");
            assertEquals(kept, shared.fillRatio() * shared.slotCount(), 0.5, "one fingerprint per kept key");
            assertArrayEquals(
                    CuckooFilterTest.contents(sequential),
                    CuckooFilterTest.contents(shared),
                    "the same fingerprints in the same bucket pairs as one process's adds and removes");
            assertTrue(shared.table().moves() > 0, "the adds moved fingerprints, under the lock");
            assertEquals(0, shared.lockRecoveries());
            assertTrue(shared.wasCleanlyClosed());
        }
    }

    @Test
    void aWriterKilledHoldingTheLockIsRecoveredFrom() throws Exception {
        Path file = dir.resolve("recovered.cuckoo");
        long[] keys = SeededKeys.of(3, 1_000);
        try (CuckooFilter filter = CuckooFilter.builder()
                .expectedItems(1_000)
                .falsePositiveRate(0.01)
                .create(file, OpenMode.SHARED)) {
            filter.addAll(keys);
            long torn = keys[7];
            try (ChildJvm dying =
                    ChildJvm.start(dir, CuckooWorker.class, "die-holding", file.toString(), Long.toString(torn))) {
                assertEquals("torn", dying.readLine());
                assertTrue(new RegionLock(SketchInternals.payload(filter), CuckooTable.LOCK)
                        .holderPid()
                        .isPresent());
                for (long key : keys) {
                    assertTrue(filter.mightContain(key), "lookups take no lock and miss nothing: " + key);
                }
                dying.kill();
            }
            filter.add("after the takeover");
            assertEquals(1, filter.lockRecoveries(), "the dead holder was detected once");
            assertEquals(1_001, filter.itemsAdded(), "the dead writer's own add was never counted");
            for (long key : keys) {
                assertTrue(filter.mightContain(key), "key " + key);
            }
            assertEquals(
                    1_002,
                    Math.round(filter.fillRatio() * filter.slotCount()),
                    "the cut move left one fingerprint stored twice, nothing lost");
            filter.remove(torn);
            assertTrue(filter.mightContain(torn), "the second copy remains: a false positive, never a false negative");
            filter.remove(torn);
            assertEquals(1_000, Math.round(filter.fillRatio() * filter.slotCount()));
        }
    }
}
