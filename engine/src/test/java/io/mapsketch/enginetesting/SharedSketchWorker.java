package io.mapsketch.enginetesting;

import io.mapsketch.CreateOption;
import io.mapsketch.OpenMode;
import io.mapsketch.frequency.CountMinSketch;
import java.nio.file.Path;

/**
 * Main class of the child JVMs of the {@link ReliabilityScenarios}, which SIGKILL them at random
 * moments or run many of them at once, and of the test of killed creations.
 *
 * <ul>
 *   <li>{@code add DIR MODE FIRST}: opens the five sketches of {@link SharedSketchFiles} in DIR in
 *       MODE, says {@code ready}, then adds batch FIRST, FIRST + 1, ... to every one of them, saying
 *       {@code ack B} after batch B has been added to all five; it never stops by itself.</li>
 *   <li>{@code hammer DIR CHILD THREADS}: opens the five SHARED, says {@code ready}, waits for a line
 *       on standard input, then runs THREADS threads that add overlapping ranges of batches
 *       ({@link #hammer}), saying {@code ack B} after each batch and {@code done} at the end.</li>
 *   <li>{@code create DIR}: creates Count-Min files {@code created-0.sketch}, {@code created-1.sketch},
 *       ... of about 9 MB each, saying {@code created I} after each; it never stops by itself.</li>
 * </ul>
 */
public final class SharedSketchWorker {

    /** Batches per writer thread in {@code hammer} are 2 x STRIDE: each overlaps the next writer's half. */
    public static final int STRIDE = 25;

    private SharedSketchWorker() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[1]);
        switch (args[0]) {
            case "add" -> add(dir, OpenMode.valueOf(args[2]), Long.parseLong(args[3]));
            case "hammer" -> hammer(dir, Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            case "create" -> {
                for (int i = 0; ; i++) {
                    CountMinSketch.builder()
                            .epsilon(0.00005)
                            .delta(2e-15)
                            .create(
                                    dir.resolve("created-" + i + ".sketch"),
                                    OpenMode.EXCLUSIVE,
                                    CreateOption.OVERWRITE_EXISTING)
                            .close();
                    System.out.println("created " + i);
                }
            }
            default -> throw new IllegalArgumentException("unknown command " + args[0]);
        }
    }

    private static void add(Path dir, OpenMode mode, long first) throws Exception {
        try (SharedSketchFiles files = SharedSketchFiles.open(dir, mode)) {
            System.out.println("ready");
            for (long batch = first; ; batch++) {
                files.add(batch);
                System.out.println("ack " + batch);
            }
        }
    }

    /** Threads 0..threads-1 each add batches {@code [w * STRIDE, w * STRIDE + 2 * STRIDE)}, w = child * threads + thread. */
    private static void hammer(Path dir, int child, int threads) throws Exception {
        try (SharedSketchFiles files = SharedSketchFiles.open(dir, OpenMode.SHARED)) {
            System.out.println("ready");
            if (System.in.read() < 0) {
                return;
            }
            Thread[] workers = new Thread[threads];
            for (int t = 0; t < threads; t++) {
                long first = (long) (child * threads + t) * STRIDE;
                workers[t] = new Thread(() -> {
                    for (long batch = first; batch < first + 2 * STRIDE; batch++) {
                        files.add(batch);
                        System.out.println("ack " + batch);
                    }
                });
                workers[t].start();
            }
            for (Thread worker : workers) {
                worker.join();
            }
            System.out.println("done");
        }
    }
}
