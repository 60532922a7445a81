package io.mapsketch.cardinality;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.Payloads;
import io.mapsketch.enginetesting.SeededKeys;
import io.mapsketch.internal.SketchInternals;
import io.mapsketch.testing.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two JVMs add to one mapped HyperLogLog at once; the registers and the summary line equal the
 * sequential build, and a reader in a third JVM never trusts a line that disagrees with the registers
 * meanwhile. A writer killed while it adds leaves a file whose estimate is right, and the next writer
 * that opens it alone repairs the line.
 */
class HyperLogLogCrossProcessTest {

    private static final int KEYS_PER_SEED = 200_000;
    private static final int ROUNDS = 1_000;
    private static final int KILLS = 12;

    @TempDir
    Path dir;

    /** A long stream into a p = 12 sketch, half of the keys common to both processes, added at about the same time. */
    @Test
    void twoProcessesAddingAtOnceEqualTheSequentialBuild() throws Exception {
        Path file = dir.resolve("shared.hll");
        HyperLogLogBuilder builder = HyperLogLog.builder().precision(12).seed(1234);
        builder.create(file, OpenMode.SHARED).close();
        String keys = Integer.toString(KEYS_PER_SEED);
        List<String> answers;
        long checks = 0;
        try (HyperLogLog reader = HyperLogLog.open(file, OpenMode.READ_ONLY);
                ExecutorService pool = Executors.newSingleThreadExecutor()) {
            AtomicBoolean writing = new AtomicBoolean(true);
            HyperLogLogSummaryLine line = SummaryLineChecks.line(reader);
            Future<Long> checker = pool.submit(() -> {
                long checked = 0;
                while (writing.get()) {
                    line.checkOnOpen(SketchInternals.payload(reader).segment(), false, false, file);
                    checked++;
                }
                return checked;
            });
            try {
                answers = run(List.of(
                        new String[] {"stream", file.toString(), keys, "1", "3"},
                        new String[] {"stream", file.toString(), keys, "2", "3"}));
            } finally {
                writing.set(false);
            }
            checks = checker.get();
        }
        assertEquals(List.of("done", "done"), answers);
        System.out.println("a reader checked the line against the registers " + checks + " times while two JVMs added");
        try (HyperLogLog shared = HyperLogLog.open(file, OpenMode.READ_ONLY);
                HyperLogLog sequential = builder.createAnonymous(OpenMode.EXCLUSIVE)) {
            for (long seed = 1; seed <= 3; seed++) {
                sequential.addAll(SeededKeys.of(seed, KEYS_PER_SEED));
            }
            assertArrayEquals(Payloads.bytes(sequential), Payloads.bytes(shared));
            SummaryLineChecks.assertLineIsRight(shared, "after two processes");
            assertArrayEquals(SummaryLineChecks.trustedLine(sequential), SummaryLineChecks.trustedLine(shared));
            assertEquals(4L * KEYS_PER_SEED, shared.itemsAdded());
            assertTrue(shared.wasCleanlyClosed());
        }
    }

    /**
     * Many rounds, each on a fresh p = 4 sketch, which both processes start together; one raises
     * registers 0 and 2 through every rank, the other registers 1 and 3, so that both keep writing
     * the same 32-bit word. Each checks after every add that its own registers kept their values: a
     * register update that is not a compare-and-set of the whole word loses the other's raises.
     */
    @Test
    void twoProcessesRacingOnOneWordLoseNoRaise() throws Exception {
        HyperLogLogBuilder builder = HyperLogLog.builder()
                .precision(HyperLogLogWorker.RACE_PRECISION)
                .seed(HyperLogLogWorker.RACE_SEED);
        for (int r = 0; r < ROUNDS; r++) {
            builder.create(HyperLogLogWorker.roundFile(dir, r), OpenMode.SHARED).close();
        }
        String rounds = Integer.toString(ROUNDS);
        List<String> answers = run(List.of(
                new String[] {"rounds", dir.toString(), rounds, "0"},
                new String[] {"rounds", dir.toString(), rounds, "1"}));
        assertEquals(List.of("done 0", "done 0"), answers, "raises lost by each process");
        for (int r = 0; r < ROUNDS; r++) {
            try (HyperLogLog shared = HyperLogLog.open(HyperLogLogWorker.roundFile(dir, r), OpenMode.READ_ONLY)) {
                byte[] registers = Payloads.bytes(shared);
                for (int j = 0; j < Integer.BYTES; j++) {
                    assertEquals(HyperLogLogWorker.RACE_RANKS, registers[j], "round " + r + ", register " + j);
                }
            }
        }
    }

    /**
     * A child JVM adds fresh keys to a fresh p = 14 file (most adds raise a register at first) and is
     * killed after a random delay, from one to three threads in {@code SHARED} mode or one in
     * {@code EXCLUSIVE} mode: the estimate a reader then gets is the pass's, bit for bit, whether the
     * kill left a change in flight or not, and the next writer that opens the file alone recomputes
     * the line. Kills that leave a change in flight are counted (they depend on timing).
     */
    @Test
    void aWriterKilledWhileAddingLeavesARightEstimateAndTheNextSoleWriterRepairsTheLine() throws Exception {
        SplittableRandom random = new SplittableRandom(77);
        int inFlight = 0;
        for (int round = 0; round < KILLS; round++) {
            Path file = dir.resolve("killed-" + round + ".hll");
            HyperLogLog.builder()
                    .precision(14)
                    .seed(5)
                    .create(file, OpenMode.SHARED)
                    .close();
            OpenMode mode = round % 3 == 2 ? OpenMode.EXCLUSIVE : OpenMode.SHARED;
            int threads = mode == OpenMode.EXCLUSIVE ? 1 : 1 + round % 3;
            try (ChildJvm writer = ChildJvm.start(
                    dir,
                    HyperLogLogWorker.class,
                    "forever",
                    file.toString(),
                    mode.name(),
                    Integer.toString(threads),
                    Integer.toString(round * 10))) {
                assertEquals("adding", writer.readLine());
                Thread.sleep(random.nextInt(30));
                writer.kill();
                writer.remainingLines();
            }
            try (HyperLogLog reader = HyperLogLog.open(file, OpenMode.READ_ONLY)) {
                assertFalse(reader.wasCleanlyClosed());
                inFlight += SummaryLineChecks.trustedLine(reader) == null ? 1 : 0;
                assertEquals(
                        Double.doubleToLongBits(SummaryLineChecks.passEstimate(reader)),
                        Double.doubleToLongBits(reader.estimate()),
                        "round " + round);
                assertTrue(reader.estimate() > 1_000, "round " + round + ": " + reader.estimate());
            }
            try (HyperLogLog sole = HyperLogLog.open(file, round % 2 == 0 ? OpenMode.SHARED : OpenMode.EXCLUSIVE)) {
                SummaryLineChecks.assertLineIsRight(sole, "round " + round + ", repaired");
            }
        }
        System.out.println(KILLS + " writers killed while adding; " + inFlight + " left a change in flight");
    }

    /**
     * Runs the children to the end and returns the line each said last ({@code done ...}). A child is
     * started only once the previous one has opened its files, so that no two processes attach as
     * writers at the same moment: the adds race, the opens do not.
     */
    private List<String> run(List<String[]> arguments) throws Exception {
        List<ChildJvm> children = new ArrayList<>();
        List<String> answers = new ArrayList<>();
        try {
            for (String[] args : arguments) {
                ChildJvm child = ChildJvm.start(dir, HyperLogLogWorker.class, args);
                children.add(child);
                assertEquals("ready", child.readLine());
            }
            for (ChildJvm child : children) {
                child.go();
            }
            for (ChildJvm child : children) {
                answers.add(child.readLine());
                assertEquals(0, child.waitFor(Duration.ofMinutes(2)));
            }
        } finally {
            children.forEach(ChildJvm::close);
        }
        return answers;
    }
}
