package io.mapsketch.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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

/** Two JVMs add to one mapped HyperLogLog at once; the registers equal the sequential build. */
class HyperLogLogCrossProcessTest {

    private static final int KEYS_PER_SEED = 200_000;
    private static final int ROUNDS = 1_000;

    @TempDir
    Path dir;

    /** A long stream into a p = 12 sketch, half of the keys common to both processes, added at about the same time. */
    @Test
    void twoProcessesAddingAtOnceEqualTheSequentialBuild() throws Exception {
        Path file = dir.resolve("shared.hll");
        HyperLogLog.Builder builder = HyperLogLog.builder().precision(12).seed(1234);
        builder.create(file, AccessMode.SHARED).close();
        String keys = Integer.toString(KEYS_PER_SEED);
        List<String> answers = run(List.of(new String[] {"stream", file.toString(), keys, "1", "3"},
                new String[] {"stream", file.toString(), keys, "2", "3"}));
        assertEquals(List.of("done", "done"), answers);
        try (HyperLogLog shared = HyperLogLog.open(file, AccessMode.READ_ONLY);
             HyperLogLog sequential = builder.createAnonymous(AccessMode.EXCLUSIVE)) {
            for (long seed = 1; seed <= 3; seed++) {
                sequential.addAll(FilterWorker.keys(seed, KEYS_PER_SEED));
            }
            assertArrayEquals(MembershipFilterContract.bytes(sequential), MembershipFilterContract.bytes(shared));
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
        HyperLogLog.Builder builder = HyperLogLog.builder().precision(HyperLogLogWorker.RACE_PRECISION)
                .seed(HyperLogLogWorker.RACE_SEED);
        for (int r = 0; r < ROUNDS; r++) {
            builder.create(HyperLogLogWorker.roundFile(dir, r), AccessMode.SHARED).close();
        }
        String rounds = Integer.toString(ROUNDS);
        List<String> answers = run(List.of(new String[] {"rounds", dir.toString(), rounds, "0"},
                new String[] {"rounds", dir.toString(), rounds, "1"}));
        assertEquals(List.of("done 0", "done 0"), answers, "raises lost by each process");
        for (int r = 0; r < ROUNDS; r++) {
            try (HyperLogLog shared = HyperLogLog.open(HyperLogLogWorker.roundFile(dir, r), AccessMode.READ_ONLY)) {
                byte[] registers = MembershipFilterContract.bytes(shared);
                for (int j = 0; j < Integer.BYTES; j++) {
                    assertEquals(HyperLogLogWorker.RACE_RANKS, registers[j], "round " + r + ", register " + j);
                }
            }
        }
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
                BlockedBloomCrossProcessTest.go(child);
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
