package io.mapsketch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.similarity.MinHash;
import io.mapsketch.similarity.SimHash;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's examples, line for line, so the README cannot drift from the API. */
class ReadmeExampleTest {

    @TempDir
    Path dir;

    @Test
    void readmeExampleRunsAsPrinted() throws IOException {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);

        Path file = dir.resolve("visitors.bloom");
        try (BlockedBloomFilter filter = BlockedBloomFilter.builder()
                .expectedItems(10_000_000)
                .falsePositiveRate(0.01)
                .create(file, OpenMode.SHARED)) {
            filter.add("alice@example.com");
            filter.addAll(new long[] {42, 43, 44});
        }
        try (BlockedBloomFilter again = BlockedBloomFilter.open(file, OpenMode.READ_ONLY)) {
            out.println(again.mightContain("alice@example.com") + ", rate now " + again.expectedFalsePositiveRate());
        }

        try (MinHash baskets = MinHash.builder()
                .rows(10_000)
                .standardError(0.05) // 400 slots per row
                .create(dir.resolve("baskets.minhash"), OpenMode.SHARED)) {
            baskets.addAll(0, new long[] {1, 2, 3, 4});
            baskets.addAll(1, new long[] {3, 4, 5, 6});
            out.println(baskets.jaccard(0, 1) + " " + baskets.mostSimilar(baskets.signature(0), 3));
        }
        try (SimHash documents =
                SimHash.builder().capacity(1_000_000).create(dir.resolve("documents.simhash"), OpenMode.SHARED)) {
            long id = documents.append(
                    documents.features().addShingles("the quick brown fox", 2).fingerprint());
            long query =
                    documents.features().addShingles("The quick brown fox!", 2).fingerprint();
            out.println(Arrays.toString(documents.within(query, 3)) + " contains " + id);
        }

        String[] lines = printed.toString(StandardCharsets.UTF_8).strip().split("\\R");
        String line = lines[0];
        assertTrue(line.startsWith("true, rate now "), line);
        assertTrue(Double.parseDouble(line.substring("true, rate now ".length())) < 1e-15, line);
        double jaccard = Double.parseDouble(lines[1].substring(0, lines[1].indexOf(' ')));
        assertTrue(Math.abs(jaccard - 1.0 / 3) < 0.15, lines[1]);
        assertTrue(lines[1].contains("[Match[row=0, jaccard=1.0], Match[row=1, "), lines[1]);
        assertTrue(lines[2].equals("[0] contains 0"), lines[2]);
    }
}
