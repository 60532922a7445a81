package io.mapsketch.cardinality;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.SeededKeys;
import io.mapsketch.internal.KeyHasher;
import io.mapsketch.internal.SketchInternals;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;

/**
 * Main class of the child JVMs of {@link HyperLogLogCrossProcessTest}. Each opens its sketch files
 * SHARED, says {@code ready}, waits for a line on standard input, adds, and says {@code done}:
 * <ul>
 *   <li>{@code stream PATH COUNT SEED...} adds COUNT keys drawn from each SEED in turn to one file
 *       (every other key singly, the rest in one batch per seed);</li>
 *   <li>{@code forever PATH MODE THREADS SEED} opens one file in MODE and, without waiting, adds fresh
 *       keys from THREADS threads (one for {@code EXCLUSIVE}; thread t draws from seed SEED + t) until it
 *       is killed, having said {@code adding} once every thread has added its first {@value #ANNOUNCED}
 *       keys;</li>
 *   <li>{@code rounds DIR ROUNDS PARITY} races, on the p = 4 file {@link #roundFile round r} of
 *       DIR for r = 0, 1, ..., with {@link #race} over the registers of that PARITY (0 or 1) of the
 *       first 32-bit word; it starts round r only when round r - 1 has counted the keys of both
 *       children, so that the two processes raise neighbouring bytes of one word at the same moment,
 *       and says {@code done} followed by the number of its raises it found lost.</li>
 * </ul>
 */
public final class HyperLogLogWorker {

    private HyperLogLogWorker() {}

    public static void main(String[] args) throws Exception {
        if (args[0].equals("stream")) {
            stream(Path.of(args[1]), Integer.parseInt(args[2]), args);
        } else if (args[0].equals("forever")) {
            forever(Path.of(args[1]), OpenMode.valueOf(args[2]), Integer.parseInt(args[3]), Long.parseLong(args[4]));
        } else {
            rounds(Path.of(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
        }
    }

    static Path roundFile(Path dir, int round) {
        return dir.resolve("round-" + round + ".hll");
    }

    private static void stream(Path file, int count, String[] args) throws Exception {
        try (HyperLogLog hll = HyperLogLog.open(file, OpenMode.SHARED)) {
            if (!awaitGo()) {
                return;
            }
            for (int s = 3; s < args.length; s++) {
                long[] keys = SeededKeys.of(Long.parseLong(args[s]), count);
                long[] batch = new long[keys.length / 2];
                for (int i = 0; i < keys.length; i++) {
                    if (i % 2 == 0) {
                        hll.add(keys[i]);
                    } else {
                        batch[i / 2] = keys[i];
                    }
                }
                hll.addAll(batch);
            }
            System.out.println("done");
        }
    }

    private static void forever(Path file, OpenMode mode, int threads, long seed) throws Exception {
        HyperLogLog hll = HyperLogLog.open(file, mode);
        CountDownLatch started = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            SplittableRandom keys = new SplittableRandom(seed + t);
            Thread adder = new Thread(() -> {
                for (long added = 0; ; added++) {
                    hll.add(keys.nextLong());
                    if (added == ANNOUNCED) {
                        started.countDown();
                    }
                }
            });
            adder.setDaemon(true);
            adder.start();
        }
        started.await();
        System.out.println("adding");
        Thread.sleep(Long.MAX_VALUE);
    }

    /**
     * Keys each {@code forever} thread adds before it counts as started: twice the 1,000 the test expects
     * to see, so that the estimate of a writer killed at once (0.8% standard error at p = 14) exceeds them.
     */
    static final int ANNOUNCED = 2_000;

    /** Precision of the racing sketches: registers 0 to 3 share the first 32-bit word. */
    static final int RACE_PRECISION = 4;
    /** Seed of the racing sketches. */
    static final long RACE_SEED = 99;
    /** The largest rank a race raises a register to. */
    static final int RACE_RANKS = 14;

    /**
     * Keys that hash, with the racing seed at p = 4, to register j with rank r: {@code keys[j][r]}
     * for j in 0..3 and r in 1..{@value #RACE_RANKS}, the first such key of a seeded stream.
     */
    static long[][] racingKeys() {
        KeyHasher hasher = KeyHasher.xxh3(RACE_SEED);
        long[][] keys = new long[Integer.BYTES][RACE_RANKS + 1];
        boolean[][] found = new boolean[Integer.BYTES][RACE_RANKS + 1];
        int missing = Integer.BYTES * RACE_RANKS;
        SplittableRandom random = new SplittableRandom(2024);
        while (missing > 0) {
            long key = random.nextLong();
            long hash = hasher.hash(key);
            int register = (int) HyperLogLogLayout.registerIndex(hash, RACE_PRECISION);
            int rank = HyperLogLogLayout.rank(hash, RACE_PRECISION);
            if (register < Integer.BYTES && rank <= RACE_RANKS && !found[register][rank]) {
                found[register][rank] = true;
                keys[register][rank] = key;
                missing--;
            }
        }
        return keys;
    }

    /**
     * Raises registers {@code parity} and {@code parity + 2} through every rank in turn, and after
     * each add checks that both still hold what this caller raised them to (no one else raises them).
     * Returns how many times one did not: raises lost to another writer of the same word.
     */
    static int race(HyperLogLog hll, long[][] keys, int parity) {
        int lost = 0;
        MemorySegment registers = SketchInternals.payload(hll).segment();
        for (int rank = 1; rank <= RACE_RANKS; rank++) {
            for (int register = parity; register < Integer.BYTES; register += 2) {
                hll.add(keys[register][rank]);
                for (int own = parity; own < Integer.BYTES; own += 2) {
                    int expected = own <= register ? rank : rank - 1;
                    if (registers.get(ValueLayout.JAVA_BYTE, own) != expected) {
                        lost++;
                    }
                }
            }
        }
        return lost;
    }

    private static void rounds(Path dir, int rounds, int parity) throws Exception {
        long[][] keys = racingKeys();
        int perChild = RACE_RANKS * 2;
        int lost = 0;
        List<HyperLogLog> sketches = new ArrayList<>();
        try {
            for (int r = 0; r < rounds; r++) {
                sketches.add(HyperLogLog.open(roundFile(dir, r), OpenMode.SHARED));
            }
            if (!awaitGo()) {
                return;
            }
            for (int r = 0; r < rounds; r++) {
                if (r > 0) {
                    HyperLogLog previous = sketches.get(r - 1);
                    while (previous.itemsAdded() < 2L * perChild) {
                        Thread.onSpinWait();
                    }
                }
                lost += race(sketches.get(r), keys, parity);
            }
            System.out.println("done " + lost);
        } finally {
            for (HyperLogLog sketch : sketches) {
                sketch.close();
            }
        }
    }

    private static boolean awaitGo() throws Exception {
        System.out.println("ready");
        return System.in.read() >= 0;
    }
}
