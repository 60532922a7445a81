package io.mapsketch.enginetesting;

import io.mapsketch.OpenMode;
import io.mapsketch.frequency.CountMinSketch;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Main class of the child JVMs of the Count-Min cross-process test: {@code PLAIN CONSERVATIVE SEED
 * COUNT} opens both Count-Min files SHARED, says {@code ready}, waits for a line on standard
 * input, adds the {@link #stream} of SEED to both (every other event singly with its count, the
 * keys of the rest in one batch of count 1 each), and says {@code done}.
 */
public final class CountMinWorker {

    /** Distinct keys of every stream: few, so that the processes keep hitting the same counters. */
    public static final int KEYS = 2_000;

    private CountMinWorker() {}

    public static void main(String[] args) throws Exception {
        long[][] events = stream(Long.parseLong(args[2]), Integer.parseInt(args[3]));
        try (CountMinSketch plain = CountMinSketch.open(Path.of(args[0]), OpenMode.SHARED);
                CountMinSketch conservative = CountMinSketch.open(Path.of(args[1]), OpenMode.SHARED)) {
            System.out.println("ready");
            if (System.in.read() < 0) {
                return;
            }
            addAll(plain, events);
            addAll(conservative, events);
            System.out.println("done");
        }
    }

    /** Adds events 0, 2, 4, ... singly with their counts, and the keys of 1, 3, 5, ... in one batch (count 1). */
    public static void addAll(CountMinSketch sketch, long[][] events) {
        long[] batch = new long[events.length / 2];
        for (int i = 0; i < events.length; i++) {
            if (i % 2 == 0) {
                sketch.add(events[i][0], events[i][1]);
            } else {
                batch[i / 2] = events[i][0];
            }
        }
        sketch.addAll(batch);
    }

    /** The events of a seed: (key in [0, KEYS), count in [1, 10]). */
    public static long[][] stream(long seed, int count) {
        SplittableRandom random = new SplittableRandom(seed);
        long[][] events = new long[count][];
        for (int i = 0; i < count; i++) {
            events[i] = new long[] {random.nextLong(KEYS), 1 + random.nextInt(10)};
        }
        return events;
    }

    /** The true count of every key after {@link #addAll} of these events. */
    public static void countInto(long[] exact, long[][] events) {
        for (int i = 0; i < events.length; i++) {
            exact[(int) events[i][0]] += i % 2 == 0 ? events[i][1] : 1;
        }
    }
}
