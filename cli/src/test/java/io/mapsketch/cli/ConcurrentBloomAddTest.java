package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mapsketch.OpenMode;
import io.mapsketch.membership.MembershipFilter;
import io.mapsketch.testing.ChildJvm;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two {@code mapsketch bf add} processes on one file at once, each fed disjoint items on standard input. */
class ConcurrentBloomAddTest {

    private static final int PER_PROCESS = 20_000;
    private static final int CHUNK = 1_000;

    @TempDir
    Path dir;

    private static byte[] lines(String prefix, int from, int to) {
        return IntStream.range(from, to)
                .mapToObj(i -> prefix + i + "\n")
                .collect(Collectors.joining())
                .getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void twoWritersLoseNothing() throws Exception {
        String file = dir.resolve("shared.bf").toString();
        assertEquals(
                0,
                InProcess.run("bf", "create", file, "--capacity", "40000", "--error-rate", "0.01")
                        .status());
        try (ChildJvm first = ChildJvm.start(dir, Main.class, "bf", "add", file);
                ChildJvm second = ChildJvm.start(dir, Main.class, "bf", "add", file)) {
            feedInterleaved(first.input(), second.input());
            assertEquals(0, first.waitFor(Duration.ofSeconds(60)));
            assertEquals(0, second.waitFor(Duration.ofSeconds(60)));
        }
        String everything = IntStream.range(0, PER_PROCESS)
                .mapToObj(i -> "first-" + i + "\nsecond-" + i + "\n")
                .collect(Collectors.joining());
        InProcess.Result answers = InProcess.withInput(everything, "bf", "exists", file);
        assertEquals(Collections.nCopies(2 * PER_PROCESS, "1"), answers.lines(), "every item of both processes");
        try (MembershipFilter filter = MembershipFilter.open(Path.of(file), OpenMode.READ_ONLY)) {
            assertEquals(2 * PER_PROCESS, filter.itemsAdded(), "shared writers count every add");
        }
    }

    /** Writes both inputs a chunk at a time, alternately, so that the two processes add at the same time. */
    private static void feedInterleaved(OutputStream first, OutputStream second) throws IOException {
        for (int from = 0; from < PER_PROCESS; from += CHUNK) {
            for (OutputStream in : List.of(first, second)) {
                in.write(lines(in == first ? "first-" : "second-", from, from + CHUNK));
                in.flush();
            }
        }
        first.close();
        second.close();
    }
}
