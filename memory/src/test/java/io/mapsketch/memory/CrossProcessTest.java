package io.mapsketch.memory;

import static io.mapsketch.memory.Faults.assertFault;
import static io.mapsketch.memory.FileFault.Reason.LOCKED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.testing.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Promises about files shared by several processes, checked with real child JVMs. */
class CrossProcessTest {

    private static final int CHILDREN = 3;
    private static final int ITERATIONS = 1_000_000;
    private static final Duration TIMEOUT = Duration.ofMinutes(3);

    @TempDir
    Path dir;

    private Path newFile() throws Exception {
        Path file = dir.resolve("shared.sketch");
        SketchHeader header = SketchHeader.forNewSketch(TestKinds.COUNT_MIN, HashScheme.XXH3_64, 7, new long[0], 4096);
        SketchRegions.create(file, header, RegionMode.SHARED).close();
        return file;
    }

    @Test
    void atomicUpdatesFromSeveralProcessesAreExact() throws Exception {
        Path file = newFile();
        List<ChildJvm> children = new ArrayList<>();
        try (SketchRegion parent = SketchRegions.open(file, RegionMode.SHARED)) {
            for (int child = 0; child < CHILDREN; child++) {
                children.add(ChildJvm.start(
                        dir,
                        RegionWorker.class,
                        "hammer",
                        file.toString(),
                        Integer.toString(child),
                        Integer.toString(ITERATIONS)));
            }
            for (ChildJvm child : children) {
                assertEquals("ready", child.readLine());
            }
            parent.payload().putLongRelease(RegionWorker.GO, 1);
            for (ChildJvm child : children) {
                assertEquals("done", child.readLine());
                assertEquals(0, child.waitFor(TIMEOUT));
            }
            AtomicSegment words = parent.payload();
            long total = (long) CHILDREN * ITERATIONS;
            assertEquals(total, words.getLongAcquire(RegionWorker.ADD_LONG), "64-bit atomic adds");
            assertEquals((int) total, words.getIntAcquire(RegionWorker.ADD_INT), "32-bit atomic adds");
            assertEquals(total, words.getLongAcquire(RegionWorker.CAS_LONG), "compare-and-set increments");
            long childBits = (1L << CHILDREN) - 1;
            for (int w = 0; w < RegionWorker.OR_WORD_COUNT; w++) {
                long expected = childBits << (w & 1) * 32;
                assertEquals(expected, words.getLongAcquire(RegionWorker.OR_WORDS + 8L * w), "OR word " + w);
            }
            assertEquals(total, parent.itemsAdded(), "items counter in the header's live line");
        } finally {
            for (ChildJvm child : children) {
                child.close();
            }
        }
    }

    @Test
    void exclusiveWriterExcludesWritersOfOtherProcesses() throws Exception {
        Path file = newFile();
        try (SketchRegion exclusive = SketchRegions.open(file, RegionMode.EXCLUSIVE)) {
            assertTrue(exclusive.mode() == RegionMode.EXCLUSIVE);
            assertTrue(tryOpenInChild(file, RegionMode.EXCLUSIVE).startsWith("locked"));
            assertTrue(tryOpenInChild(file, RegionMode.SHARED).startsWith("locked"));
            assertEquals("opened READ_ONLY", tryOpenInChild(file, RegionMode.READ_ONLY));
        }
        assertEquals("opened EXCLUSIVE", tryOpenInChild(file, RegionMode.EXCLUSIVE));
    }

    @Test
    void sharedWritersOfAnotherProcessExcludeAnExclusiveOpen() throws Exception {
        Path file = newFile();
        try (ChildJvm holder = ChildJvm.start(dir, RegionWorker.class, "hold", file.toString(), "SHARED")) {
            assertEquals("held SHARED", holder.readLine());
            assertFault(LOCKED, () -> SketchRegions.open(file, RegionMode.EXCLUSIVE));
            try (SketchRegion shared = SketchRegions.open(file, RegionMode.SHARED)) {
                assertEquals(RegionMode.SHARED, shared.mode());
            }
        }
    }

    /** Each first SHARED writer briefly probes with the exclusive lock; simultaneous openers must wait it out. */
    @Test
    void severalProcessesOpeningSharedAtOnceAllSucceed() throws Exception {
        Path file = newFile();
        List<ChildJvm> holders = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                holders.add(ChildJvm.start(dir, RegionWorker.class, "hold", file.toString(), "SHARED"));
            }
            for (ChildJvm holder : holders) {
                assertEquals("held SHARED", holder.readLine());
            }
            assertFault(LOCKED, () -> SketchRegions.open(file, RegionMode.EXCLUSIVE));
        } finally {
            holders.forEach(ChildJvm::close);
        }
    }

    /**
     * Writers register in the live line one at a time (the gate), so a writer that finds itself
     * alone and resets the count cannot overwrite another's registration.
     */
    @Test
    void writersOpeningAndClosingAtOnceKeepTheWriterCountExact() throws Exception {
        Path file = newFile();
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                children.add(ChildJvm.start(dir, RegionWorker.class, "churn", file.toString(), "300"));
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
        try (SketchRegion reader = SketchRegions.open(file, RegionMode.READ_ONLY)) {
            assertTrue(reader.wasCleanlyClosed(), "every writer closed, so the last close set the flag");
            assertEquals(0, reader.attachedWriters(), "attached writers after all closed");
        }
    }

    /** POSIX locks vanish when any descriptor of the file closes; the lock must survive that. */
    @Test
    void closingOneOfTwoRegionsOfTheSameFileKeepsTheLock() throws Exception {
        Path file = newFile();
        try (SketchRegion first = SketchRegions.open(file, RegionMode.SHARED)) {
            SketchRegions.open(file, RegionMode.READ_ONLY).close();
            SketchRegions.open(file, RegionMode.SHARED).close();
            assertTrue(tryOpenInChild(file, RegionMode.EXCLUSIVE).startsWith("locked"));
            assertFalse(first.isClosed());
        }
        assertEquals("opened EXCLUSIVE", tryOpenInChild(file, RegionMode.EXCLUSIVE));
    }

    /**
     * The writer's JVM opens and closes a descriptor of its own on the file (Files.readAllBytes, as a
     * backup or checksum would): with POSIX record locks that close released the writer's lock and
     * another process got EXCLUSIVE beside it. The locks are on the library's own descriptor.
     */
    @Test
    void aWritersLockSurvivesItsJvmReadingTheFile() throws Exception {
        Path file = newFile();
        for (RegionMode mode : new RegionMode[] {RegionMode.SHARED, RegionMode.EXCLUSIVE}) {
            try (ChildJvm holder =
                    ChildJvm.start(dir, RegionWorker.class, "hold-and-read", file.toString(), mode.name())) {
                assertTrue(holder.readLine().startsWith("held "));
                assertTrue(tryOpenInChild(file, RegionMode.EXCLUSIVE).startsWith("locked"), mode + " holder");
                assertFault(LOCKED, () -> SketchRegions.open(file, RegionMode.EXCLUSIVE));
                if (mode == RegionMode.EXCLUSIVE) {
                    assertFault(LOCKED, () -> SketchRegions.open(file, RegionMode.SHARED));
                }
            }
        }
    }

    /**
     * Without the flag that grants native access, JDK 25 warns once and the downcalls still run: the
     * lock is still the library's own and survives the JVM reading the file.
     */
    @Test
    void withoutTheNativeAccessFlagTheJdkWarnsOnceAndTheLocksStillHold() throws Exception {
        Path file = newFile();
        try (ChildJvm holder =
                ChildJvm.start(dir, List.of(), RegionWorker.class, "hold-and-read", file.toString(), "SHARED")) {
            assertTrue(holder.readLine().startsWith("held "));
            assertFault(LOCKED, () -> SketchRegions.open(file, RegionMode.EXCLUSIVE));
            String warning = holder.errors();
            assertEquals(
                    1,
                    warning.split("WARNING: A restricted method in java.lang.foreign.Linker has been called", -1).length
                            - 1,
                    warning);
            assertFalse(warning.contains("sketch files use Java's file locks"), warning);
        }
    }

    /**
     * Where native access is denied, the library says so once and falls back to Java's file locks,
     * which still exclude writers of other processes (and are excluded by theirs).
     */
    @Test
    void withoutNativeAccessJavasLocksStillExcludeOtherProcesses() throws Exception {
        Path file = newFile();
        try (ChildJvm holder = ChildJvm.start(
                dir, List.of("--illegal-native-access=deny"), RegionWorker.class, "hold", file.toString(), "SHARED")) {
            assertEquals("held SHARED", holder.readLine());
            assertFault(LOCKED, () -> SketchRegions.open(file, RegionMode.EXCLUSIVE));
            String notice = holder.errors();
            assertEquals(1, notice.split("sketch files use Java's file locks", -1).length - 1, notice);
            assertTrue(
                    notice.contains("native access is denied")
                            && notice.contains("--enable-native-access=" + "ALL-UNNAMED"),
                    notice);
        }
        try (SketchRegion exclusive = SketchRegions.open(file, RegionMode.EXCLUSIVE)) {
            assertEquals(RegionMode.EXCLUSIVE, exclusive.mode());
            assertTrue(tryOpenInChild(file, RegionMode.SHARED).startsWith("locked"));
        }
    }

    @Test
    void aWriterKilledWithoutClosingIsDetectedByTheNextWriter() throws Exception {
        Path file = newFile();
        try (ChildJvm holder = ChildJvm.start(dir, RegionWorker.class, "hold", file.toString(), "SHARED")) {
            assertEquals("held SHARED", holder.readLine());
            holder.kill();
        }
        try (SketchRegion reader = SketchRegions.open(file, RegionMode.READ_ONLY)) {
            assertFalse(reader.wasCleanlyClosed(), "the clean-close flag stays clear after a killed writer");
        }
        try (SketchRegion next = SketchRegions.open(file, RegionMode.SHARED)) {
            assertFalse(next.wasCleanlyClosed(), "the next sole writer finds the dead writer's registration");
        }
        try (SketchRegion after = SketchRegions.open(file, RegionMode.SHARED)) {
            assertTrue(after.wasCleanlyClosed(), "a clean close by the recovering writer clears the record");
        }
    }

    private String tryOpenInChild(Path file, RegionMode mode) throws Exception {
        try (ChildJvm child = ChildJvm.start(dir, RegionWorker.class, "try-open", file.toString(), mode.name())) {
            String answer = child.readLine();
            assertEquals(0, child.waitFor(TIMEOUT));
            return answer;
        }
    }
}
