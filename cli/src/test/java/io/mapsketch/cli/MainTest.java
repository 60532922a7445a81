package io.mapsketch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The command's verbs, their output and their exit status. */
class MainTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void demoPrintsTheSeedSizes() {
        assertEquals(0, run("demo"));
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("95,851 bits (11.7 KB), 7 hashes"), text);
        assertTrue(text.contains("2,719 x 5 = 13,595 counters"), text);
        assertTrue(text.contains("16,384 registers (16 KB), 0.81% relative standard error"), text);
    }

    @Test
    void unknownVerbIsAUsageError() {
        assertEquals(2, run("frobnicate"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown verb 'frobnicate'"));
    }
}
