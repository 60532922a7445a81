package io.mapsketch.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.testing.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lock in a mapped word: mutual exclusion across threads and processes, recovery from a dead holder. */
class RegionLockTest {

    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    @TempDir
    Path dir;

    private static SketchHeader header() {
        return SketchHeader.forNewSketch(TestKinds.TOP_K, HashScheme.XXH3_64, 1, new long[0], 4096);
    }

    private Path newFile() throws Exception {
        Path file = dir.resolve("locked.sketch");
        SketchRegions.create(file, header(), RegionMode.SHARED).close();
        return file;
    }

    @Test
    void threadsIncrementingUnderTheLockLoseNothing() throws Exception {
        int threads = 4;
        int iterations = 100_000;
        try (SketchRegion region = SketchRegions.anonymous(header(), RegionMode.SHARED)) {
            AtomicSegment words = region.payload();
            RegionLock lock = new RegionLock(words, RegionWorker.LOCK);
            try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    done.add(pool.submit(() -> {
                        for (int i = 0; i < iterations; i++) {
                            assertFalse(lock.lock(), "no holder died");
                            words.putLong(RegionWorker.LOCKED_COUNT, words.getLong(RegionWorker.LOCKED_COUNT) + 1);
                            lock.unlock();
                        }
                    }));
                }
                for (Future<?> future : done) {
                    future.get();
                }
            }
            assertEquals((long) threads * iterations, words.getLongAcquire(RegionWorker.LOCKED_COUNT));
            assertEquals(Optional.empty(), lock.holderPid());
        }
    }

    @Test
    void processesIncrementingUnderTheLockLoseNothing() throws Exception {
        Path file = newFile();
        int children = 2;
        int iterations = 50_000;
        List<ChildJvm> workers = new ArrayList<>();
        try (SketchRegion parent = SketchRegions.open(file, RegionMode.SHARED)) {
            for (int c = 0; c < children; c++) {
                workers.add(ChildJvm.start(
                        dir, RegionWorker.class, "lock-count", file.toString(), Integer.toString(iterations)));
            }
            for (ChildJvm worker : workers) {
                assertEquals("ready", worker.readLine());
            }
            AtomicSegment words = parent.payload();
            RegionLock lock = new RegionLock(words, RegionWorker.LOCK);
            words.putLongRelease(RegionWorker.GO, 1);
            for (int i = 0; i < iterations; i++) {
                lock.lock();
                words.putLong(RegionWorker.LOCKED_COUNT, words.getLong(RegionWorker.LOCKED_COUNT) + 1);
                lock.unlock();
            }
            for (ChildJvm worker : workers) {
                assertEquals("done", worker.readLine());
                assertEquals(0, worker.waitFor(TIMEOUT));
            }
            assertEquals((long) (children + 1) * iterations, words.getLongAcquire(RegionWorker.LOCKED_COUNT));
        } finally {
            workers.forEach(ChildJvm::close);
        }
    }

    @Test
    void aLockHeldByAKilledProcessIsTakenOverAndReported() throws Exception {
        Path file = newFile();
        try (SketchRegion parent = SketchRegions.open(file, RegionMode.SHARED);
                ChildJvm holder = ChildJvm.start(dir, RegionWorker.class, "lock-hold", file.toString())) {
            String answer = holder.readLine();
            long pid = Long.parseLong(answer.substring("locked ".length()));
            RegionLock lock = new RegionLock(parent.payload(), RegionWorker.LOCK);
            assertEquals(Optional.of(pid), lock.holderPid());
            holder.kill();
            assertTrue(lock.lock(), "the dead holder is detected and the caller told to repair");
            assertEquals(Optional.of(ProcessHandle.current().pid()), lock.holderPid());
            lock.unlock();
            assertFalse(lock.lock(), "a lock released normally needs no repair");
            lock.unlock();
        }
    }

    @Test
    void aLiveHolderIsWaitedForUntilTheTimeout() throws Exception {
        Path file = newFile();
        try (SketchRegion parent = SketchRegions.open(file, RegionMode.SHARED);
                ChildJvm holder = ChildJvm.start(dir, RegionWorker.class, "lock-hold", file.toString())) {
            String pid = holder.readLine().substring("locked ".length());
            RegionLock lock = new RegionLock(parent.payload(), RegionWorker.LOCK, Duration.ofMillis(300));
            LockTimeoutFault timeout = assertThrows(LockTimeoutFault.class, lock::lock);
            assertTrue(timeout.getMessage().contains("process " + pid), timeout.getMessage());
            assertEquals(Optional.of(Long.parseLong(pid)), lock.holderPid(), "the live holder keeps its lock");
        }
    }

    @Test
    void theTokenNamesThisProcessAndItsStartTime() {
        long token = RegionLock.currentProcessToken();
        assertEquals(ProcessHandle.current().pid(), token >>> 32);
        assertTrue(RegionLock.isAlive(token));
        long sameProcessOtherStart = token ^ 1;
        assertFalse(
                RegionLock.isAlive(sameProcessOtherStart), "a reused pid with another start time is not the holder");
    }

    @Test
    void misplacedLockWordsAreRefused() throws Exception {
        try (SketchRegion region = SketchRegions.anonymous(header(), RegionMode.SHARED)) {
            AtomicSegment words = region.payload();
            IllegalArgumentException unaligned =
                    assertThrows(IllegalArgumentException.class, () -> new RegionLock(words, 12));
            assertTrue(unaligned.getMessage().contains("offset = 12"), unaligned.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> new RegionLock(words, 4096));
            assertThrows(IllegalArgumentException.class, () -> new RegionLock(words, 0, Duration.ZERO));
        }
    }
}
