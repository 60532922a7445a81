package io.mapsketch.frequency;

import static io.mapsketch.enginetesting.CountMinColumns.columns;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.dynatrace.hash4j.hashing.Hashing;
import io.mapsketch.OpenMode;
import io.mapsketch.internal.SketchInternals;
import io.mapsketch.memory.SketchFileLayout;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins where a key's counts land in the payload, computed here from the file format's definition
 * alone (hash4j's XXH3-64 of the key's little-endian bytes with the header's seed, the row scheme of
 * the file's format version, a multiply-high per row, rows padded to 64 bytes, little-endian
 * counters), for every path the engine specialises: 32- and 64-bit counters, {@code EXCLUSIVE} and
 * {@code SHARED}, plain and conservative update, single keys and batches, estimates key by key and
 * row by row. New files take a mix per row; files of versions 1 to 3 keep double hashing, so a file
 * written by any earlier version reads and updates the same.
 */
class CountMinLayoutTest {

    private static final long SEED = 7;
    private static final int[] VERSIONS = {
        SketchFileLayout.FIRST_FORMAT_VERSION,
        CountMinFormat.INDEPENDENT_ROWS_VERSION - 1,
        CountMinFormat.INDEPENDENT_ROWS_VERSION,
        CountMinFormat.VERSIONS.written()
    };

    @TempDir
    Path dir;

    @Test
    void newFilesAreOfTheNewestVersion() throws IOException {
        try (CountMinSketch cms = CountMinSketch.builder()
                        .epsilon(0.01)
                        .delta(0.01)
                        .create(dir.resolve("new.cms"), OpenMode.EXCLUSIVE);
                TopK top = TopK.builder().k(3).epsilon(0.01).delta(0.01).createAnonymous(OpenMode.SHARED)) {
            assertEquals(
                    CountMinFormat.VERSIONS.written(),
                    SketchInternals.region(cms).header().formatVersion());
            assertEquals(
                    CountMinFormat.VERSIONS.written(),
                    SketchInternals.region(top).header().formatVersion());
        }
    }

    @Test
    void everyPathPutsEachKeysCountsWhereItsVersionSays() throws IOException {
        for (int version : VERSIONS) {
            for (int bits : new int[] {32, 64}) {
                for (OpenMode mode : new OpenMode[] {OpenMode.EXCLUSIVE, OpenMode.SHARED}) {
                    for (boolean conservative : new boolean[] {false, true}) {
                        String path = "version " + version + ", " + bits + "-bit " + mode
                                + (conservative ? " conservative" : " plain");
                        try (CountMinSketch cms = sketch(version, 0.01, bits, conservative, mode)) {
                            assertEquals(
                                    version,
                                    SketchInternals.region(cms).header().formatVersion(),
                                    path);
                            checkSingleKeys(cms, version, bits, conservative, path);
                        }
                    }
                }
            }
        }
    }

    /** Batch adds and batch estimates (key by key in cache, row by row past 1 MiB) follow the same rows. */
    @Test
    void batchPathsFollowTheRowsOfTheirVersion() throws IOException {
        long[] keys = new SplittableRandom(11).longs(1_500, 0, 400).toArray();
        for (int version : VERSIONS) {
            for (double epsilon : new double[] {0.01, 0.00002}) {
                String what = "version " + version + ", eps " + epsilon;
                try (CountMinSketch batch = sketch(version, epsilon, 32, false, OpenMode.EXCLUSIVE)) {
                    batch.addAll(keys);
                    long[] expected = new long[batch.depth() * batch.width()];
                    for (long key : keys) {
                        long[] columns = columns(
                                Hashing.xxh3_64(SEED).hashLongToLong(key), batch.width(), batch.depth(), version);
                        for (int row = 0; row < columns.length; row++) {
                            expected[row * batch.width() + (int) columns[row]]++;
                        }
                    }
                    long[] actual = new long[expected.length];
                    for (int row = 0; row < batch.depth(); row++) {
                        for (int column = 0; column < batch.width(); column++) {
                            actual[row * batch.width() + column] = batch.counter(row, column);
                        }
                    }
                    assertArrayEquals(expected, actual, what + ": addAll's counters");
                    long[] probes =
                            new SplittableRandom(12).longs(1_100, 0, 800).toArray();
                    long[] estimates = new long[probes.length];
                    batch.estimateAll(probes, estimates);
                    for (int i = 0; i < probes.length; i++) {
                        long[] columns = columns(
                                Hashing.xxh3_64(SEED).hashLongToLong(probes[i]), batch.width(), batch.depth(), version);
                        long min = Long.MAX_VALUE;
                        for (int row = 0; row < columns.length; row++) {
                            min = Math.min(min, expected[row * batch.width() + (int) columns[row]]);
                        }
                        assertEquals(min, estimates[i], what + ": estimateAll of probe " + i);
                    }
                }
            }
        }
    }

    private CountMinSketch sketch(int version, double epsilon, int bits, boolean conservative, OpenMode mode)
            throws IOException {
        CountMinFormat shape = CountMinFormat.of(epsilon, 0.01, bits, conservative);
        Path file = dir.resolve("v" + version + "-" + epsilon + "-" + bits + mode + conservative + ".cms");
        if (version == CountMinFormat.VERSIONS.written()) {
            return CountMinSketch.builder()
                    .epsilon(epsilon)
                    .delta(0.01)
                    .counterBits(bits)
                    .conservativeUpdate(conservative)
                    .seed(SEED)
                    .create(file, mode);
        }
        return OlderFrequencyFiles.countMin(file, version, shape, SEED, mode);
    }

    private static void checkSingleKeys(CountMinSketch cms, int version, int bits, boolean conservative, String path) {
        int counterBytes = bits / 8;
        long stride = Math.ceilDiv((long) cms.width() * counterBytes, 64) * 64;
        MemorySegment payload = SketchInternals.payload(cms).segment();
        SplittableRandom random = new SplittableRandom(bits * 31L + version);
        for (int i = 0; i < 200; i++) {
            long key = random.nextLong();
            long before = cms.estimate(key);
            long count = 1 + random.nextInt(1_000);
            long after = cms.add(key, count);
            long[] columns = columns(Hashing.xxh3_64(SEED).hashLongToLong(key), cms.width(), cms.depth(), version);
            long min = Long.MAX_VALUE;
            for (int row = 0; row < columns.length; row++) {
                long offset = row * stride + columns[row] * counterBytes;
                long value = bits == 32
                        ? Integer.toUnsignedLong(
                                payload.get(ValueLayout.JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN), offset))
                        : payload.get(ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN), offset);
                min = Math.min(min, value);
            }
            assertEquals(min, after, path + ": the minimum of the key's counters at the format's positions");
            assertEquals(min, cms.estimate(key), path);
            if (conservative) {
                assertEquals(before + count, after, path + ": conservative update raises the estimate by the count");
            }
        }
    }
}
