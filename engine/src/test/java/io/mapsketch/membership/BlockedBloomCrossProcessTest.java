package io.mapsketch.membership;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.FilterWorker;
import io.mapsketch.enginetesting.Payloads;
import io.mapsketch.enginetesting.SeededKeys;
import io.mapsketch.testing.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two JVMs add disjoint keys to one mapped blocked filter at once; nothing is lost. */
class BlockedBloomCrossProcessTest {

    private static final int KEYS_PER_CHILD = 400_000;

    @TempDir
    Path dir;

    @Test
    void twoProcessesAddingAtOnceEqualTheSequentialBuild() throws Exception {
        Path file = dir.resolve("shared.bbf");
        BlockedBloomFilter.Builder builder = BlockedBloomFilter.builder()
                .expectedItems(2 * KEYS_PER_CHILD)
                .falsePositiveRate(0.01)
                .seed(1234);
        builder.create(file, OpenMode.SHARED).close();
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (long seed : new long[] {1, 2}) {
                children.add(ChildJvm.start(
                        dir,
                        FilterWorker.class,
                        "blocked",
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
                assertEquals(0, child.waitFor(Duration.ofMinutes(2)));
            }
        } finally {
            children.forEach(ChildJvm::close);
        }
        try (BlockedBloomFilter shared = BlockedBloomFilter.open(file, OpenMode.READ_ONLY);
                BlockedBloomFilter sequential = builder.createAnonymous(OpenMode.EXCLUSIVE)) {
            for (long seed : new long[] {1, 2}) {
                long[] keys = SeededKeys.of(seed, KEYS_PER_CHILD);
                sequential.addAll(keys);
                for (long key : keys) {
                    assertTrue(shared.mightContain(key));
                }
            }
            assertArrayEquals(Payloads.bytes(sequential), Payloads.bytes(shared));
            assertEquals(2L * KEYS_PER_CHILD, shared.itemsAdded());
            assertTrue(shared.wasCleanlyClosed());
        }
    }
}
