package io.mapsketch.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;

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

        Path file = dir.resolve("clicks.sketch");
        SketchHeader header = SketchHeader.forNewSketch(SketchKind.COUNT_MIN, HashScheme.XXH3_64, 42,
                new long[] {2719, 5}, 2719L * 5 * Integer.BYTES);
        try (SketchRegion region = SketchRegion.create(file, header, AccessMode.SHARED)) {
            region.payload().getAndAddInt(4 * 1234, 1);
            region.addWeight(1);
        }
        try (SketchRegion again = SketchRegion.open(file, AccessMode.READ_ONLY, SketchKind.COUNT_MIN)) {
            out.println(again.payload().getIntAcquire(4 * 1234) + " of " + again.totalWeight());
        }

        assertEquals("1 of 1", printed.toString(StandardCharsets.UTF_8).strip());
    }
}
