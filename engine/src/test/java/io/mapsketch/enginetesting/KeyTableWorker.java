package io.mapsketch.enginetesting;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.internal.KeyTable;
import java.nio.file.Path;

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

    /** The key {@code k} the workers add to. */
    public static String key(int k) {
        return "key-" + k;
    }
}
