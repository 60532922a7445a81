package io.mapsketch.enginetesting;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.internal.KeyTable;
import io.mapsketch.testing.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Main class of the child JVMs of the tables' cross-process tests: {@code PATH KEYS ITEMS WORKER WORKERS}
 * opens the table (of either kind) SHARED, says {@code ready}, waits for a line on standard input, then
 * adds to every key {@code k < KEYS}, in an order of its own, the items {@code k * ITEMS * WORKERS + i *
 * WORKERS + WORKER} for {@code i < ITEMS}, and says {@code done}.
 */
public final class KeyTableWorker {

    private KeyTableWorker() {}

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int keys = Integer.parseInt(args[1]);
        int items = Integer.parseInt(args[2]);
        int worker = Integer.parseInt(args[3]);
        int workers = Integer.parseInt(args[4]);
        try (KeyTable table = (KeyTable) Sketch.open(file, OpenMode.SHARED)) {
            System.out.println("ready");
            if (System.in.read() < 0) {
                return;
            }
            for (int n = 0; n < keys; n++) {
                int k = (int) ((n + (long) worker * keys / workers) % keys);
                for (int i = 0; i < items; i++) {
                    table.add(key(k), (long) k * items * workers + (long) i * workers + worker);
                }
            }
            System.out.println("done");
        }
    }

    /**
     * Runs {@code workers} child JVMs of this class on a table file at once: starts each, waits for every
     * {@code ready}, lets them all go, and waits for every {@code done} and a zero exit status.
     *
     * @throws IllegalStateException if a worker says anything else or exits otherwise
     */
    public static void addFromChildJvms(Path dir, Path file, int keys, int items, int workers) throws Exception {
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (int w = 0; w < workers; w++) {
                ChildJvm child = ChildJvm.start(
                        dir,
                        KeyTableWorker.class,
                        file.toString(),
                        Integer.toString(keys),
                        Integer.toString(items),
                        Integer.toString(w),
                        Integer.toString(workers));
                children.add(child);
                expect("ready", child.readLine());
            }
            for (ChildJvm child : children) {
                child.go();
            }
            for (ChildJvm child : children) {
                expect("done", child.readLine());
                int status = child.waitFor(Duration.ofMinutes(2));
                if (status != 0) {
                    throw new IllegalStateException("a worker exited with status " + status);
                }
            }
        } finally {
            children.forEach(ChildJvm::close);
        }
    }

    private static void expect(String expected, String line) {
        if (!expected.equals(line)) {
            throw new IllegalStateException("a worker said '" + line + "', expected '" + expected + "'");
        }
    }

    /** The key {@code k} the workers add to. */
    public static String key(int k) {
        return "key-" + k;
    }
}
