package io.mapsketch.similarity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.MinHashWorker;
import io.mapsketch.enginetesting.Payloads;
import io.mapsketch.enginetesting.SeededKeys;
import io.mapsketch.testing.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two JVMs add to the same rows of one mapped MinHash file at once; the rows equal the sequential build. */
class MinHashCrossProcessTest {

    private static final int KEYS_PER_SEED = 100_000;

    @TempDir
    Path dir;

    @Test
    void twoProcessesAddingAtOnceEqualTheSequentialBuild() throws Exception {
        Path file = dir.resolve("shared.minhash");
        MinHash.Builder builder = MinHash.builder().rows(8).signatureLength(200).seed(1234);
        builder.create(file, OpenMode.SHARED).close();
        String keys = Integer.toString(KEYS_PER_SEED);
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (String[] args : List.of(
                    new String[] {file.toString(), keys, "1", "3"}, new String[] {file.toString(), keys, "2", "3"})) {
                ChildJvm child = ChildJvm.start(dir, MinHashWorker.class, args);
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
        try (MinHash shared = MinHash.open(file, OpenMode.READ_ONLY);
                MinHash sequential = builder.createAnonymous(OpenMode.EXCLUSIVE)) {
            for (long seed = 1; seed <= 3; seed++) {
                MinHashWorker.addStream(sequential, SeededKeys.of(seed, KEYS_PER_SEED));
            }
            assertArrayEquals(Payloads.bytes(sequential), Payloads.bytes(shared));
            assertEquals(4L * KEYS_PER_SEED, shared.itemsAdded());
            assertTrue(shared.wasCleanlyClosed());
        }
    }
}
