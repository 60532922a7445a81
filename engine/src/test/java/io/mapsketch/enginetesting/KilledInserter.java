package io.mapsketch.enginetesting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.testing.ChildJvm;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * One round of a killed inserter: a {@link KeyTableInserter} child goes on adding the {@link TablePairs}
 * to a table from the first pair not yet acknowledged, and is SIGKILLed after 1 to 4 acknowledgements
 * and 0 to 3 ms more, so that most kills land in the middle of a batch.
 */
public final class KilledInserter {

    private KilledInserter() {}

    /**
     * Runs one round.
     *
     * @param dir where the child's stderr goes
     * @param file the table
     * @param acknowledged how many pairs the earlier rounds acknowledged: where this child starts
     * @param random what draws the moment of the kill
     * @return the pairs acknowledged once the child is killed
     */
    public static int round(Path dir, Path file, int acknowledged, SplittableRandom random) throws Exception {
        int lastAck = acknowledged;
        try (ChildJvm inserter =
                ChildJvm.start(dir, KeyTableInserter.class, file.toString(), Integer.toString(acknowledged))) {
            assertEquals("ready", inserter.readLine());
            int waitFor = 1 + random.nextInt(4);
            for (int i = 0; i < waitFor; i++) {
                lastAck = ack(inserter.readLine());
            }
            Thread.sleep(random.nextInt(4));
            inserter.kill();
            for (String line : inserter.remainingLines()) {
                if (!line.equals("done")) {
                    lastAck = ack(line);
                }
            }
        }
        assertTrue(lastAck > acknowledged, "the round acknowledged pairs");
        return lastAck;
    }

    private static int ack(String line) {
        assertTrue(line.startsWith("ack "), line);
        return Integer.parseInt(line.substring(4));
    }
}
