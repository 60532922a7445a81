package io.mapsketch.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.memory.AccessMode;
import io.mapsketch.testing.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four child JVMs with two threads each add overlapping ranges of batches to five SHARED sketch
 * files at once (classic, blocked and counting Bloom, Count-Min, HyperLogLog). Meanwhile this JVM
 * reads the files: every key of a batch a writer has acknowledged is found. Afterwards each payload
 * is byte-identical to the same batches added in one thread, and the header counters are exact.
 */
class ManyProcessesTest {

    private static final int CHILDREN = 4;
    private static final int THREADS = 2;
    private static final Duration TIMEOUT = Duration.ofMinutes(3);

    @TempDir
    Path dir;

    @Test
    void concurrentWritersInFourProcessesLeaveWhatOneThreadWould() throws Exception {
        SharedSketchFiles.create(dir, AccessMode.SHARED).close();
        List<ChildJvm> children = new ArrayList<>();
        long checkedBatches = 0;
        try (SharedSketchFiles reader = SharedSketchFiles.open(dir, AccessMode.READ_ONLY)) {
            for (int child = 0; child < CHILDREN; child++) {
                children.add(ChildJvm.start(dir, SharedSketchWorker.class, "hammer", dir.toString(),
                        Integer.toString(child), Integer.toString(THREADS)));
            }
            for (ChildJvm child : children) {
                assertEquals("ready", child.readLine());
            }
            for (ChildJvm child : children) {
                child.input().write('\n');
                child.input().flush();
            }
            boolean[] found = new boolean[SharedSketchFiles.BATCH];
            for (ChildJvm child : children) {
                for (String line = child.readLine(); !line.equals("done"); line = child.readLine()) {
                    long batch = Long.parseLong(line.substring("ack ".length()));
                    long[] keys = SharedSketchFiles.keys(batch);
                    for (MembershipFilter filter : reader.filters()) {
                        filter.mightContainAll(keys, found);
                        for (int i = 0; i < keys.length; i++) {
                            assertTrue(found[i], filter + " does not show key " + i + " of acknowledged batch " + batch);
                        }
                    }
                    for (int i = 0; i < keys.length; i++) {
                        assertTrue(reader.countMin().estimate(keys[i]) >= SharedSketchFiles.count(i));
                    }
                    checkedBatches++;
                }
                assertEquals(0, child.waitFor(TIMEOUT));
            }
        } finally {
            children.forEach(ChildJvm::close);
        }
        int writers = CHILDREN * THREADS;
        long batchesPerWriter = 2L * SharedSketchWorker.STRIDE;
        assertEquals(writers * batchesPerWriter, checkedBatches);
        try (SharedSketchFiles shared = SharedSketchFiles.open(dir, AccessMode.READ_ONLY);
             SharedSketchFiles sequential = SharedSketchFiles.create(null, AccessMode.EXCLUSIVE)) {
            long weight = 0;
            for (int writer = 0; writer < writers; writer++) {
                long first = (long) writer * SharedSketchWorker.STRIDE;
                for (long batch = first; batch < first + batchesPerWriter; batch++) {
                    sequential.add(batch);
                    for (int i = 0; i < SharedSketchFiles.BATCH; i++) {
                        weight += SharedSketchFiles.count(i);
                    }
                }
            }
            long items = writers * batchesPerWriter * SharedSketchFiles.BATCH;
            for (int s = 0; s < shared.all().size(); s++) {
                RegionSketch mine = shared.all().get(s);
                RegionSketch reference = sequential.all().get(s);
                assertEquals(-1, mine.payload.segment().mismatch(reference.payload.segment()),
                        mine + ": payload differs from one thread's");
                assertEquals(items, mine.itemsAdded(), mine + ": items counter");
            }
            assertEquals(weight, shared.countMin().totalWeight(), "Count-Min total weight N");
        }
    }
}
