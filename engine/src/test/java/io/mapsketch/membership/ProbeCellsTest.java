package io.mapsketch.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.DoubleHashing;
import io.mapsketch.internal.SketchInternals;
import io.mapsketch.memory.HashScheme;
import io.mapsketch.memory.RegionMode;
import io.mapsketch.memory.SketchFileLayout;
import io.mapsketch.memory.SketchHeader;
import io.mapsketch.memory.SketchRegions;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two probe schemes of classic and counting Bloom filters, against references written here from
 * {@code docs/file-format.md}, and files of each version read and written in their own.
 */
class ProbeCellsTest {

    private static final int OLDER = SketchFileLayout.FIRST_FORMAT_VERSION;
    private static final int NEWER = ProbedLayout.ENHANCED_PROBES_VERSION;

    @TempDir
    Path dir;

    /** Older files: {@code x = h, y = step(h)}; probe i is {@code reduce(x)}, then {@code x += y, y += i}. */
    private static long[] olderCells(long hash, long cells, int hashes) {
        long[] probes = new long[hashes];
        long x = hash;
        long y = DoubleHashing.step(hash);
        for (int i = 0; i < hashes; i++) {
            probes[i] = Math.unsignedMultiplyHigh(x, cells);
            x += y;
            y += i;
        }
        return probes;
    }

    /** Newer files: probe i is {@code reduce(h + i y + t(i) U)} with {@code U = ceil(2^64 / m)}. */
    private static long[] newerCells(long hash, long cells, int hashes) {
        long unit = BigInteger.TWO
                .pow(64)
                .add(BigInteger.valueOf(cells - 1))
                .divide(BigInteger.valueOf(cells))
                .longValue();
        long[] probes = new long[hashes];
        long y = DoubleHashing.step(hash);
        for (int i = 0; i < hashes; i++) {
            long term = i * (i - 1L) * (i - 2) / 6;
            probes[i] = Math.unsignedMultiplyHigh(hash + i * y + term * unit, cells);
        }
        return probes;
    }

    /**
     * The cells as the single-key loops walk them ({@code x += y; y += bump; bump += U}), each checked
     * against the closed form.
     */
    private static long[] cells(ProbeCells probes, long hash, int hashes, long cells) {
        long[] walked = new long[hashes];
        long step = DoubleHashing.step(hash);
        long x = hash;
        long y = step;
        long bump = 0;
        for (int i = 0; i < hashes; i++) {
            walked[i] = DoubleHashing.reduce(x, cells);
            assertEquals(x, probes.value(hash, step, i), "closed form of probe " + i);
            x += y;
            y += bump;
            bump += probes.termUnit();
        }
        return walked;
    }

    @Test
    void bothSchemesMatchTheFormat() {
        SplittableRandom random = new SplittableRandom(31);
        for (long cells : new long[] {1, 7, 64, 1_000, 95_851, 1L << 33, Long.MAX_VALUE - 511}) {
            for (int hashes : new int[] {1, 7, 30, ProbedLayout.MAX_HASHES}) {
                ProbeCells older = ProbeCells.of(cells, OLDER);
                ProbeCells newer = ProbeCells.of(cells, NEWER);
                for (int n = 0; n < 200; n++) {
                    long hash = random.nextLong();
                    assertEquals(
                            Arrays.toString(olderCells(hash, cells, hashes)),
                            Arrays.toString(cells(older, hash, hashes, cells)),
                            "older, m = " + cells);
                    long[] newerCells = cells(newer, hash, hashes, cells);
                    assertEquals(
                            Arrays.toString(newerCells(hash, cells, hashes)),
                            Arrays.toString(newerCells),
                            "newer, m = " + cells);
                    long step = DoubleHashing.step(hash);
                    for (int i = 0; i < hashes; i++) {
                        long term = i * (i - 1L) * (i - 2) / 6;
                        long moved = Math.floorMod(
                                newerCells[i] - Math.unsignedMultiplyHigh(hash + i * step, cells) - term, cells);
                        long roundingUp = 1 + (long) Math.ceil(term * (double) cells / 0x1p64);
                        assertTrue(
                                moved <= roundingUp,
                                "probe " + i + " moved by its term in cells, or up to " + roundingUp
                                        + " more (U m exceeds 2^64 by less than m): " + moved);
                    }
                }
            }
        }
    }

    /**
     * A key whose step is within a cell's width per probe of 2^63 alternates between two cells in
     * the older scheme; the term added in cells separates all probes but the first three.
     */
    @Test
    void aStepNearHalfOfTwoToThe64NoLongerRevisitsTwoCells() {
        long cells = 95_851;
        int hashes = 7;
        long window = Long.divideUnsigned(-1L, cells) / hashes;
        SplittableRandom random = new SplittableRandom(5);
        long hash;
        do {
            hash = random.nextLong();
        } while (Math.abs(DoubleHashing.step(hash) - Long.MIN_VALUE) >= window);
        Set<Long> older = new HashSet<>();
        Set<Long> newer = new HashSet<>();
        for (long cell : cells(ProbeCells.of(cells, OLDER), hash, hashes, cells)) {
            older.add(cell);
        }
        for (long cell : cells(ProbeCells.of(cells, NEWER), hash, hashes, cells)) {
            newer.add(cell);
        }
        assertTrue(older.size() <= 4, "older scheme: " + older);
        assertTrue(newer.size() >= 6, "newer scheme: " + newer);
    }

    @Test
    void newFilesAreOfTheNewestVersionAndProbeTheNewerWay() throws IOException {
        try (BloomFilter classic = BloomFilter.builder()
                        .expectedItems(1_000)
                        .falsePositiveRate(0.01)
                        .create(dir.resolve("new.bloom"), OpenMode.EXCLUSIVE);
                CountingBloomFilter counting = CountingBloomFilter.builder()
                        .expectedItems(1_000)
                        .falsePositiveRate(0.01)
                        .create(dir.resolve("new.counting"), OpenMode.EXCLUSIVE)) {
            assertEquals(
                    BloomFormat.VERSIONS.written(),
                    SketchInternals.region(classic).header().formatVersion());
            assertEquals(
                    CountingBloomFormat.VERSIONS.written(),
                    SketchInternals.region(counting).header().formatVersion(),
                    "the counting filter removes, so its files have no counter slots");
            classic.add(42L);
            assertBitsAt(
                    classic,
                    newerCells(SketchInternals.hasher(classic).hash(42L), classic.bitCount(), classic.hashCount()));
        }
    }

    /** A classic filter file written before version 3 is read, written and merged in its own scheme. */
    @Test
    void olderClassicFilesKeepTheirProbes() throws IOException {
        Path file = olderFile(SketchKind.BLOOM, "old.bloom", BloomFormat.payloadBytes(95_851));
        long[] keys = new SplittableRandom(8).longs(1_000).toArray();
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.EXCLUSIVE)) {
            filter.add(42L);
            assertBitsAt(
                    filter,
                    olderCells(SketchInternals.hasher(filter).hash(42L), filter.bitCount(), filter.hashCount()));
            filter.addAll(keys);
        }
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_ONLY);
                BloomFilter newer = BloomFilter.builder()
                        .expectedItems(10_000)
                        .falsePositiveRate(0.01)
                        .createAnonymous(OpenMode.EXCLUSIVE)) {
            assertEquals(OLDER, SketchInternals.region(filter).header().formatVersion());
            for (long key : keys) {
                assertTrue(filter.mightContain(key));
            }
            IncompatibleSketchException e = assertThrows(IncompatibleSketchException.class, () -> newer.merge(filter));
            assertTrue(
                    e.getMessage().startsWith("sketches differ in probe scheme: enhanced term in cells"),
                    e.getMessage());
        }
    }

    /** The counting layout keeps an older file's probes too: what it adds it finds and can remove. */
    @Test
    void olderCountingFilesKeepTheirProbes() throws IOException {
        Path file = olderFile(SketchKind.COUNTING_BLOOM, "old.counting", CountingBloomFormat.payloadBytes(95_851));
        try (CountingBloomFilter filter = CountingBloomFilter.open(file, OpenMode.EXCLUSIVE);
                CountingBloomFilter newer = CountingBloomFilter.builder()
                        .expectedItems(10_000)
                        .falsePositiveRate(0.01)
                        .createAnonymous(OpenMode.EXCLUSIVE)) {
            filter.add(42L);
            long hash = SketchInternals.hasher(filter).hash(42L);
            for (long cell : olderCells(hash, filter.counterCount(), filter.hashCount())) {
                assertEquals(1, filter.counter(cell), "counter " + cell);
            }
            filter.remove(42L);
            assertEquals(0, filter.itemsAdded());
            assertThrows(IncompatibleSketchException.class, () -> newer.merge(filter));
        }
    }

    /** A file of format version 1 for 10,000 keys at 1%: 95,851 cells and 7 probes. */
    private Path olderFile(SketchKind kind, String name, long payloadBytes) throws IOException {
        Path file = dir.resolve(name);
        long[] parameters = {95_851, 7, 10_000, Double.doubleToLongBits(0.01)};
        SketchHeader header = SketchHeader.forNewSketch(kind.id(), HashScheme.XXH3_64, 3, parameters, payloadBytes);
        SketchRegions.create(file, header, RegionMode.EXCLUSIVE).close();
        return file;
    }

    private static void assertBitsAt(BloomFilter filter, long[] cells) {
        long set = 0;
        for (long word = 0; word < filter.memoryBytes(); word += Long.BYTES) {
            set += Long.bitCount(SketchInternals.payload(filter).getLong(word));
        }
        Set<Long> distinct = new HashSet<>();
        for (long cell : cells) {
            distinct.add(cell);
            assertEquals(1, SketchInternals.payload(filter).getLong((cell >>> 6) << 3) >>> cell & 1, "bit " + cell);
        }
        assertEquals(distinct.size(), set, "only the probed bits are set");
    }
}
