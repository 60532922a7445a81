package io.mapsketch.enginetesting;

import io.mapsketch.OpenMode;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.MembershipFilter;
import io.mapsketch.membership.ScalableBloomFilter;
import java.nio.file.Path;

/**
 * Main class of the child JVMs of the cross-process filter tests:
 * {@code blocked|scalable PATH SEED COUNT} opens the blocked filter file (or scalable filter
 * directory) SHARED, says {@code ready}, waits for a line on standard input, adds the COUNT
 * {@link SeededKeys} of SEED (every other key singly, the rest in one batch), and says {@code done}.
 */
public final class FilterWorker {

    private FilterWorker() {}

    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[1]);
        long[] keys = SeededKeys.of(Long.parseLong(args[2]), Integer.parseInt(args[3]));
        try (MembershipFilter filter = args[0].equals("scalable")
                ? ScalableBloomFilter.open(path, OpenMode.SHARED)
                : BlockedBloomFilter.open(path, OpenMode.SHARED)) {
            System.out.println("ready");
            if (System.in.read() < 0) {
                return;
            }
            long[] batch = new long[keys.length / 2];
            for (int i = 0; i < keys.length; i++) {
                if (i % 2 == 0) {
                    filter.add(keys[i]);
                } else {
                    batch[i / 2] = keys[i];
                }
            }
            filter.addAll(batch);
            System.out.println("done");
        }
    }
}
