package io.mapsketch.memory;

import java.nio.file.Path;

/**
 * Main class of the child JVMs in {@link LiveCountersTest}: {@code items FILE ROUNDS} or
 * {@code weight FILE ROUNDS} opens the file SHARED, says {@code ready}, waits for the parent's go word
 * (payload word 0), then adds {@link #delta(int)} for each round to the items counter, or to the total
 * weight, and says {@code accepted S}: the sum of the weights that were not refused (for items, of all).
 * {@code batches FILE} opens the file SHARED and adds batches of {@link #BATCH} single items and their
 * weight until killed, saying {@code ack B} once batch B is counted.
 */
public final class CounterWorker {

    static final long GO = 0;
    static final int BATCH = 1000;

    private CounterWorker() {}

    /** Round i's delta: every third one above the plain-add limit of 2^32, the others 1 to 7. */
    static long delta(int round) {
        return round % 3 == 0 ? (1L << 33) + round : 1 + round % 7;
    }

    /** The sum of the deltas of {@code rounds} rounds. */
    static long total(int rounds) {
        long sum = 0;
        for (int i = 0; i < rounds; i++) {
            sum += delta(i);
        }
        return sum;
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("batches")) {
            addBatchesUntilKilled(Path.of(args[1]));
            return;
        }
        boolean weight = args[0].equals("weight");
        int rounds = Integer.parseInt(args[2]);
        try (SketchRegion region = SketchRegions.open(Path.of(args[1]), RegionMode.SHARED)) {
            System.out.println("ready");
            while (region.payload().getLongAcquire(GO) == 0) {
                Thread.onSpinWait();
            }
            System.out.println("accepted " + add(region, weight, rounds));
        }
    }

    /** Adds every round's delta to one counter; returns the sum of the deltas that were not refused. */
    static long add(SketchRegion region, boolean weight, int rounds) {
        long accepted = 0;
        for (int i = 0; i < rounds; i++) {
            long delta = delta(i);
            if (!weight) {
                region.addItems(delta);
                accepted += delta;
                continue;
            }
            try {
                region.addWeight(delta);
                accepted += delta;
            } catch (IllegalArgumentException refused) {
                if (region.totalWeight() <= LiveCounters.LIMIT - delta) {
                    throw new AssertionError("refused with room: " + refused.getMessage());
                }
            }
        }
        return accepted;
    }

    private static void addBatchesUntilKilled(Path file) throws Exception {
        try (SketchRegion region = SketchRegions.open(file, RegionMode.SHARED)) {
            for (long batch = 1; ; batch++) {
                for (int i = 0; i < BATCH; i++) {
                    region.addWeight(1);
                    region.addItems(1);
                }
                System.out.println("ack " + batch);
            }
        }
    }
}
