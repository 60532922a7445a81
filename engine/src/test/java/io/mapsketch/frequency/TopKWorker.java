package io.mapsketch.frequency;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.Zipf;
import io.mapsketch.internal.SketchInternals;
import io.mapsketch.memory.RegionLock;
import java.nio.file.Path;

/**
 * Main class of the child JVMs of {@link TopKCrossProcessTest}.
 *
 * <ul>
 *   <li>{@code add FILE SEED EVENTS}: opens SHARED, says {@code ready}, waits for a line on standard
 *       input, adds the Zipf stream of SEED ({@link Zipf#zipfStream}), says {@code done}.</li>
 *   <li>{@code die-holding FILE}: opens SHARED, takes the candidate lock, tears slot 0 (a new hash
 *       written, its key not yet), says {@code torn} and sleeps until killed: a writer that dies in
 *       the middle of replacing a candidate.</li>
 * </ul>
 */
public final class TopKWorker {

    private TopKWorker() {}

    public static void main(String[] args) throws Exception {
        try (TopK sketch = TopK.open(Path.of(args[1]), OpenMode.SHARED)) {
            switch (args[0]) {
                case "add" -> {
                    long[] stream = Zipf.zipfStream(Long.parseLong(args[2]), Integer.parseInt(args[3]));
                    System.out.println("ready");
                    if (System.in.read() < 0) {
                        return;
                    }
                    for (long key : stream) {
                        sketch.add(key);
                    }
                    System.out.println("done");
                }
                case "die-holding" -> {
                    new RegionLock(SketchInternals.payload(sketch), sketch.candidateLockOffset()).lock();
                    SketchInternals.payload(sketch).putLong(sketch.candidates().slot(0), 0x5EED_0F_BAD_C0DEL);
                    System.out.println("torn");
                    Thread.sleep(Long.MAX_VALUE);
                }
                default -> throw new IllegalArgumentException("unknown command " + args[0]);
            }
        }
    }
}
