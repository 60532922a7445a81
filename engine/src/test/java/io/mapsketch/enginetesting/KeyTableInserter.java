package io.mapsketch.enginetesting;

import io.mapsketch.OpenMode;
import io.mapsketch.Sketch;
import io.mapsketch.internal.KeyTable;
import java.nio.file.Path;

/**
 * Main class of the child JVM of the tables' killed-inserter tests: {@code PATH FROM} opens the table
 * (of either kind) SHARED, says {@code ready}, then adds the {@link TablePairs} from pair {@code FROM} on,
 * one by one, and after every {@value #BATCH} says {@code ack N}: the pairs before {@code N} are all
 * added. It says {@code done} after the last pair, if it is not killed first.
 */
public final class KeyTableInserter {

    /** The pairs added between two acknowledgements. */
    public static final int BATCH = 200;

    private KeyTableInserter() {}

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int from = Integer.parseInt(args[1]);
        TablePairs pairs = new TablePairs();
        try (KeyTable table = (KeyTable) Sketch.open(file, OpenMode.SHARED)) {
            System.out.println("ready");
            for (int n = from; n < TablePairs.PAIRS; n++) {
                table.add(pairs.key(n), pairs.item(n));
                if ((n + 1 - from) % BATCH == 0) {
                    System.out.println("ack " + (n + 1));
                }
            }
            System.out.println("done");
        }
    }
}
