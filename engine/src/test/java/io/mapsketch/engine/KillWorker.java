package io.mapsketch.engine;

import io.mapsketch.memory.AccessMode;
import io.mapsketch.memory.CreateOption;
import java.nio.file.Path;

/**
 * Main class of the child JVMs of {@link KilledWriterTest}, which SIGKILLs them at random moments.
 *
 * <ul>
 *   <li>{@code add DIR MODE FIRST}: opens the five sketches of {@link KilledWriterFiles} in DIR in
 *       MODE, says {@code ready}, then adds batch FIRST, FIRST + 1, ... to every one of them, saying
 *       {@code ack B} after batch B has been added to all five; it never stops by itself.</li>
 *   <li>{@code create DIR}: creates Count-Min files {@code created-0.sketch}, {@code created-1.sketch},
 *       ... of about 9 MB each, saying {@code created I} after each; it never stops by itself.</li>
 * </ul>
 */
public final class KillWorker {

    private KillWorker() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[1]);
        switch (args[0]) {
            case "add" -> add(dir, AccessMode.valueOf(args[2]), Long.parseLong(args[3]));
            case "create" -> {
                for (int i = 0; ; i++) {
                    CountMinSketch.builder().epsilon(0.0002).delta(1e-70)
                            .create(dir.resolve("created-" + i + ".sketch"), AccessMode.EXCLUSIVE,
                                    CreateOption.OVERWRITE_EXISTING)
                            .close();
                    System.out.println("created " + i);
                }
            }
            default -> throw new IllegalArgumentException("unknown command " + args[0]);
        }
    }

    private static void add(Path dir, AccessMode mode, long first) throws Exception {
        try (KilledWriterFiles files = KilledWriterFiles.open(dir, mode)) {
            System.out.println("ready");
            for (long batch = first; ; batch++) {
                long[] keys = KilledWriterFiles.keys(batch);
                boolean singly = batch % 2 == 0;
                for (MembershipFilter filter : files.filters()) {
                    if (singly) {
                        for (long key : keys) {
                            filter.add(key);
                        }
                    } else {
                        filter.addAll(keys);
                    }
                }
                for (int i = 0; i < keys.length; i++) {
                    files.countMin().add(keys[i], KilledWriterFiles.count(i));
                }
                if (singly) {
                    for (long key : keys) {
                        files.hyperLogLog().add(key);
                    }
                } else {
                    files.hyperLogLog().addAll(keys);
                }
                System.out.println("ack " + batch);
            }
        }
    }
}
