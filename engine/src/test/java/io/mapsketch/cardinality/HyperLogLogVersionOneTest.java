package io.mapsketch.cardinality;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.Payloads;
import io.mapsketch.internal.SketchInternals;
import io.mapsketch.memory.SketchFileLayout;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HyperLogLog files of format version 1, written before the summary line existed, stay readable and
 * writable: {@code hll-v1-p10.sketch} was created by mapsketch at commit 84f4b2b (precision 10, seed 7,
 * the {@code long} keys 1 to 20,000 added one at a time, closed cleanly). It opens in every mode,
 * estimates by the pass exactly what a new file of the same keys estimates from its line, takes adds,
 * merges and folds, and stays version 1 with its reserved bytes untouched.
 */
class HyperLogLogVersionOneTest {

    /** {@code estimate()} of the golden file when it was written, as the bits of the double. */
    private static final long GOLDEN_ESTIMATE_BITS = 4_671_016_674_108_270_855L;

    private static final int KEYS = 20_000;

    @TempDir
    Path dir;

    private Path file;

    @BeforeEach
    void copyTheGoldenFile() throws IOException {
        file = dir.resolve("v1.hll");
        try (InputStream golden = getClass().getResourceAsStream("/hll-v1-p10.sketch")) {
            Files.copy(golden, file);
        }
    }

    private static long[] keys(long from, long to) {
        return LongStream.rangeClosed(from, to).toArray();
    }

    private static HyperLogLog newFile(Path file, long[] keys) throws IOException {
        HyperLogLog sketch = HyperLogLog.builder().precision(10).seed(7).create(file, OpenMode.EXCLUSIVE);
        sketch.addAll(keys);
        return sketch;
    }

    @Test
    void itEstimatesByThePassWhatANewFileEstimatesFromItsLine() throws IOException {
        try (HyperLogLog old = HyperLogLog.open(file, OpenMode.READ_ONLY);
                HyperLogLog current = newFile(dir.resolve("v2.hll"), keys(1, KEYS))) {
            assertEquals(
                    SketchFileLayout.FIRST_FORMAT_VERSION,
                    SketchInternals.region(old).header().formatVersion());
            assertEquals(
                    HyperLogLogFormat.VERSIONS.written(),
                    SketchInternals.region(current).header().formatVersion());
            assertTrue(old.wasCleanlyClosed());
            assertEquals(KEYS, old.itemsAdded());
            assertEquals(GOLDEN_ESTIMATE_BITS, Double.doubleToLongBits(old.estimate()));
            assertEquals(GOLDEN_ESTIMATE_BITS, Double.doubleToLongBits(current.estimate()));
            assertArrayEquals(Payloads.bytes(current), Payloads.bytes(old));
            assertEquals(current.classicEstimate(), old.classicEstimate());
            assertEquals(current.lowerBound(2), old.lowerBound(2));
        }
    }

    @Test
    void itTakesAddsMergesAndFoldsAndStaysVersionOne() throws IOException {
        byte[] headerBefore = Arrays.copyOf(Files.readAllBytes(file), SketchFileLayout.HEADER_LENGTH);
        try (HyperLogLog shared = HyperLogLog.open(file, OpenMode.SHARED)) {
            assertFalse(shared.add(1L), "a key of the golden file");
            shared.addAll(keys(KEYS + 1, 2 * KEYS));
        }
        try (HyperLogLog exclusive = HyperLogLog.open(file, OpenMode.EXCLUSIVE);
                HyperLogLog more = newFile(dir.resolve("more.hll"), keys(2 * KEYS + 1, 3 * KEYS));
                HyperLogLog finer = HyperLogLog.builder().precision(12).seed(7).createAnonymous(OpenMode.SHARED);
                HyperLogLog all = newFile(dir.resolve("all.hll"), keys(1, 3 * KEYS))) {
            exclusive.merge(more);
            finer.addAll(keys(3 * KEYS + 1, 4 * KEYS));
            exclusive.mergeFolded(finer);
            all.mergeFolded(finer);
            assertArrayEquals(Payloads.bytes(all), Payloads.bytes(exclusive));
            assertEquals(Double.doubleToLongBits(all.estimate()), Double.doubleToLongBits(exclusive.estimate()));
            assertEquals(
                    Double.doubleToLongBits(SummaryLineChecks.passEstimate(exclusive)),
                    Double.doubleToLongBits(exclusive.estimate()));
            try (HyperLogLog newer = newFile(dir.resolve("newer.hll"), new long[0])) {
                newer.merge(exclusive);
                SummaryLineChecks.assertLineIsRight(newer, "a version 2 file merged from a version 1 file");
                assertEquals(all.estimate(), newer.estimate());
            }
        }
        byte[] headerAfter = Arrays.copyOf(Files.readAllBytes(file), SketchFileLayout.HEADER_LENGTH);
        assertEquals(SketchFileLayout.FIRST_FORMAT_VERSION, headerAfter[SketchFileLayout.VERSION_OFFSET]);
        int reserved = SketchFileLayout.SUMMARY_OFFSET;
        assertArrayEquals(
                Arrays.copyOfRange(headerBefore, reserved, SketchFileLayout.HEADER_LENGTH),
                Arrays.copyOfRange(headerAfter, reserved, SketchFileLayout.HEADER_LENGTH),
                "the reserved bytes of a version 1 header stay as they were");
        try (HyperLogLog reopened = HyperLogLog.open(file, OpenMode.READ_ONLY)) {
            assertTrue(reopened.wasCleanlyClosed());
            assertEquals(
                    SketchFileLayout.FIRST_FORMAT_VERSION,
                    SketchInternals.region(reopened).header().formatVersion());
        }
    }
}
