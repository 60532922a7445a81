package io.mapsketch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mapsketch.enginetesting.ReliabilityScenarios;
import io.mapsketch.enginetesting.SharedSketchFiles;
import io.mapsketch.enginetesting.SharedSketchWorker;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four child JVMs with two threads each add overlapping ranges of batches to five SHARED sketch
 * files at once (classic, blocked and counting Bloom, Count-Min, HyperLogLog). Meanwhile this JVM
 * reads the files: every key of a batch a writer has acknowledged is found. Afterwards each payload
 * is byte-identical to the same batches added in one thread, and the header counters are exact.
 */
class ManyProcessesTest {

    @TempDir
    Path dir;

    @Test
    void concurrentWritersInFourProcessesLeaveWhatOneThreadWould() throws Exception {
        long keys = ReliabilityScenarios.manyWritersRound(dir);
        assertEquals(
                5L
                        * ReliabilityScenarios.CHILDREN
                        * ReliabilityScenarios.THREADS
                        * 2
                        * SharedSketchWorker.STRIDE
                        * SharedSketchFiles.BATCH,
                keys);
    }
}
