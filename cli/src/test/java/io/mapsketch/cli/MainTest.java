package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.engine.BlockedBloomFilter;
import io.mapsketch.engine.BloomFilter;
import io.mapsketch.engine.HyperLogLog;
import io.mapsketch.engine.MinHash;
import io.mapsketch.engine.SimHash;
import io.mapsketch.memory.AccessMode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command's verbs, their output and their exit status. */
class MainTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void demoMeasuresTheSeedFiltersAndASecondJvmFindsTheKeys() {
        assertEquals(0, run("demo"), err.toString(StandardCharsets.UTF_8));
        String text = out();
        assertTrue(text.contains("95,851 bits (11.7 KB), k = 7, 9.6 bits per item"), text);
        assertTrue(text.contains("added   10,000 items; false negatives: 0"), text);
        Matcher measured = Pattern.compile("FPR at capacity\\s+measured ([0-9.]+)%").matcher(text);
        assertTrue(measured.find(), text);
        assertEquals(1.0, Double.parseDouble(measured.group(1)), 0.1, "classic filter at capacity, in percent");
        assertTrue(text.contains("formula 15.75%"), text);
        assertTrue(text.contains("10.1 bits per item"), text);
        assertTrue(text.contains("kept items found 5,000 of 5,000"), text);
        assertTrue(text.contains("user-17 visitor-17  ->  1 0"), text);
        assertTrue(text.contains("Count-Min, eps 0.001, delta 0.01: 2,719 x 5 counters"), text);
        assertTrue(text.contains("bound eps x N = 50;"), text);
        assertTrue(text.contains("keys beyond the bound 0"), text);
        assertTrue(text.contains("top 5 by sketch:  item-1 "), text);
        Matcher distinct = Pattern.compile("p = 14 \\(16,384 bytes, 0.81% standard error\\): 200,000 distinct in"
                + " 300,000 adds, estimate ([0-9,]+)").matcher(text);
        assertTrue(distinct.find(), text);
        assertEquals(200_000, Double.parseDouble(distinct.group(1).replace(",", "")), 3 * 0.0081 * 200_000);
        Matcher union = Pattern.compile("union estimate ([0-9,]+) \\(truth 100,000\\)").matcher(text);
        assertTrue(union.find(), text);
        assertEquals(100_000, Double.parseDouble(union.group(1).replace(",", "")), 3 * 0.0081 * 100_000);
    }

    @Test
    void bloomExistsAnswersPerItem() throws IOException {
        Path file = dir.resolve("f.bbf");
        try (BlockedBloomFilter filter = BlockedBloomFilter.builder().expectedItems(100).falsePositiveRate(0.001)
                .create(file, AccessMode.EXCLUSIVE)) {
            filter.add("present");
        }
        assertEquals(0, run("bf", "exists", file.toString(), "present", "absent"));
        assertEquals("1\n0", out().strip().replace("\r", ""));
    }

    @Test
    void infoDescribesFiltersAndHyperLogLogs() throws IOException {
        Path filter = dir.resolve("f.bloom");
        try (BloomFilter bloom = BloomFilter.builder().expectedItems(10_000).falsePositiveRate(0.01).seed(9)
                .create(filter, AccessMode.EXCLUSIVE)) {
            bloom.add("a");
        }
        assertEquals(0, run("info", filter.toString()));
        String text = out();
        assertTrue(text.matches("(?s).*\nkind: +BLOOM\n.*"), text);
        assertTrue(text.matches("(?s).*\nhash seed: +9\n.*"), text);
        assertTrue(text.matches("(?s).*\nbits: +95851\n.*"), text);
        assertTrue(text.matches("(?s).*\nitems added: +1\n.*"), text);
        assertTrue(text.matches("(?s).*\ncleanly closed: +true\n.*"), text);
        out.reset();
        Path hll = dir.resolve("h.hll");
        try (HyperLogLog sketch = HyperLogLog.builder().precision(12).create(hll, AccessMode.SHARED)) {
            sketch.addAll(new long[] {1, 2, 3});
        }
        assertEquals(0, run("info", hll.toString(), "--json"));
        String json = out().strip();
        assertTrue(json.startsWith("{\"file\": ") && json.endsWith("}"), json);
        assertTrue(json.contains("\"kind\": \"HYPERLOGLOG\", ") && json.contains("\"estimate\": 3, "), json);
        assertTrue(json.contains("\"precision\": 12"), json);
    }

    @Test
    void infoDescribesMinHashAndSimHashFiles() throws IOException {
        Path minHash = dir.resolve("m.minhash");
        MinHash.builder().rows(3).standardError(0.05).create(minHash, AccessMode.EXCLUSIVE).close();
        assertEquals(0, run("info", minHash.toString()));
        String text = out();
        assertTrue(text.matches("(?s).*\nkind: +MINHASH\n.*"), text);
        assertTrue(text.matches("(?s).*\nsignature length: +400\n.*"), text);
        assertTrue(text.matches("(?s).*\nmemory bytes: +9600\n.*"), text);
        out.reset();
        Path simHash = dir.resolve("s.simhash");
        try (SimHash table = SimHash.builder().capacity(1000).create(simHash, AccessMode.EXCLUSIVE)) {
            table.append(42);
        }
        assertEquals(0, run("info", simHash.toString(), "--json"));
        String json = out().strip();
        assertTrue(json.contains("\"kind\": \"SIMHASH\", ") && json.contains("\"fingerprints\": 1, "), json);
    }

    @Test
    void badFilesAndUsageGiveTheirExitCodes() throws IOException {
        assertEquals(2, run("frobnicate"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown verb 'frobnicate'"));
        assertEquals(1, run("bf", "exists", dir.resolve("missing").toString(), "x"));
        Path junk = Files.write(dir.resolve("junk"), new byte[5000]);
        assertEquals(1, run("bf", "exists", junk.toString(), "x"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("not a mapsketch file"));
    }
}
