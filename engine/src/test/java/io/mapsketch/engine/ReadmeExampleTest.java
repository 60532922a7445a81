package io.mapsketch.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.memory.AccessMode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's example, line for line, so the README cannot drift from the API. */
class ReadmeExampleTest {

    @TempDir
    Path dir;

    @Test
    void readmeExampleRunsAsPrinted() throws IOException {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);

        Path file = dir.resolve("visitors.bloom");
        try (BlockedBloomFilter filter = BlockedBloomFilter.builder()
                .expectedItems(10_000_000).falsePositiveRate(0.01)
                .create(file, AccessMode.SHARED)) {
            filter.add("alice@example.com");
            filter.addAll(new long[] {42, 43, 44});
        }
        try (BlockedBloomFilter again = BlockedBloomFilter.open(file, AccessMode.READ_ONLY)) {
            out.println(again.mightContain("alice@example.com") + ", rate now " + again.expectedFalsePositiveRate());
        }

        String line = printed.toString(StandardCharsets.UTF_8).strip();
        assertTrue(line.startsWith("true, rate now "), line);
        assertTrue(Double.parseDouble(line.substring("true, rate now ".length())) < 1e-15, line);
    }
}
