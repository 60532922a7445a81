package io.mapsketch.cardinality;

import static io.mapsketch.cardinality.SummaryLineChecks.assertLineIsRight;
import static io.mapsketch.cardinality.SummaryLineChecks.fileLineIfTrusted;
import static io.mapsketch.cardinality.SummaryLineChecks.line;
import static io.mapsketch.cardinality.SummaryLineChecks.passEstimate;
import static io.mapsketch.cardinality.SummaryLineChecks.trustedLine;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.OpenMode;
import io.mapsketch.enginetesting.Payloads;
import io.mapsketch.enginetesting.SeededKeys;
import io.mapsketch.internal.SketchInternals;
import io.mapsketch.kernels.RegisterKernels;
import io.mapsketch.memory.SketchFileLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quicktheories.core.Gen;

/**
 * The summary line of a HyperLogLog file: after any sequence of adds, merges and folds it equals the
 * summary of the registers and the estimate equals the one-pass estimate bit for bit; readers never
 * trust a line with a change in flight; a writer killed inside a change leaves estimates right and the
 * next sole writer repairs the line; a cleanly closed file whose line disagrees is refused.
 */
class HyperLogLogSummaryLineTest {

    /** Header offsets of the line's words (docs/file-format.md). */
    static final int GUARD = SketchFileLayout.SUMMARY_OFFSET;

    static final int COUNTS = SketchFileLayout.SUMMARY_OFFSET + 8;
    static final int POWER_SUM = SketchFileLayout.SUMMARY_OFFSET + 16;

    @TempDir
    Path dir;

    /** The line as another {@code SHARED} writer of the sketch's file changes it (atomically). */
    static HyperLogLogSummaryLine otherWriter(HyperLogLog sketch) {
        return new HyperLogLogSummaryLine(
                SketchInternals.region(sketch).summaryLine(),
                OpenMode.SHARED,
                sketch.registerCount(),
                HyperLogLogLayout.maxRank(sketch.precision()),
                false);
    }

    private static OpenMode mode(boolean shared) {
        return shared ? OpenMode.SHARED : OpenMode.EXCLUSIVE;
    }

    /**
     * One step of a sequence: single adds, batch adds, adds of hashes of chosen ranks, a merge, a merge of
     * directly written registers, or a fold (kind 0 to 5); {@code share} of 2^15 of the most keys at the
     * precision; the seed its keys, hashes and registers are drawn from.
     */
    private record Step(int kind, int share, long seed) {}

    private static Gen<List<Step>> steps() {
        return lists().of(integers().between(0, 5).zip(integers().between(0, (1 << 15) - 1), longs().all(), Step::new))
                .ofSizeBetween(1, 12);
    }

    /**
     * Random sequences of single adds, batch adds, merges and folds, in either mode, on sketches of
     * random precision: after every step the line equals the registers' summary and the estimate is
     * the one-pass estimate, bit for bit. Random keys almost never reach the largest rank {@code 65 - p}
     * (odds 2^-(64 - p) per key), so some steps add hashes of chosen ranks, up to the largest, and
     * merge sketches whose registers were written directly with any valid rank. The steps are generated
     * (what each does and how many keys it takes); the keys, hashes and registers of a step (up to 32,768
     * keys, up to 2^18 registers) are drawn from its seed.
     */
    @Test
    void theLineEqualsTheRegistersAfterRandomAddsMergesAndFolds() {
        qt().withFixedSeed(20_261_130L)
                .withExamples(150)
                .forAll(steps(), integers().between(4, 16), booleans().all())
                .checkAssert((steps, precision, shared) -> {
                    try (HyperLogLog target = HyperLogLogTest.sketch(precision, mode(shared))) {
                        assertLineIsRight(target, "empty");
                        int step = 0;
                        for (Step generated : steps) {
                            SplittableRandom random = new SplittableRandom(generated.seed());
                            int keys = (int) ((long) generated.share() * (1 << Math.min(precision + 3, 15)) >> 15);
                            String what = "step " + step++ + " (" + generated + ") at p = " + precision;
                            switch (generated.kind()) {
                                case 0 -> random.longs(keys).forEach(target::add);
                                case 1 -> target.addAll(random.longs(keys).toArray());
                                case 2 -> {
                                    for (int i = 0; i < keys; i++) {
                                        target.addHash(hashOfRank(random, precision));
                                    }
                                }
                                case 3 -> {
                                    try (HyperLogLog other =
                                            HyperLogLogTest.sketch(precision, mode(random.nextBoolean()))) {
                                        other.addAll(random.longs(keys).toArray());
                                        target.merge(other);
                                        target.merge(other);
                                        assertLineIsRight(other, what + ", merged sketch");
                                    }
                                }
                                case 4 -> {
                                    try (HyperLogLog other = HyperLogLogTest.sketch(precision, OpenMode.EXCLUSIVE)) {
                                        writeRandomRanks(other, random);
                                        target.merge(other);
                                    }
                                }
                                default -> {
                                    int higher = Math.min(HyperLogLog.MAX_PRECISION, precision + random.nextInt(4));
                                    try (HyperLogLog other = HyperLogLogTest.sketch(higher, OpenMode.EXCLUSIVE)) {
                                        if (random.nextBoolean()) {
                                            other.addAll(random.longs(keys).toArray());
                                        } else {
                                            writeRandomRanks(other, random);
                                        }
                                        target.mergeFolded(other);
                                    }
                                }
                            }
                            assertLineIsRight(target, what);
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
    }

    /** A hash of a random register whose rank is drawn uniformly from 1 to the largest, 65 - p. */
    private static long hashOfRank(SplittableRandom random, int precision) {
        int rank = 1 + random.nextInt(HyperLogLogLayout.maxRank(precision));
        long register = random.nextLong() >>> (Long.SIZE - precision) << (Long.SIZE - precision);
        return rank == HyperLogLogLayout.maxRank(precision)
                ? register
                : register | 1L << (Long.SIZE - precision - rank);
    }

    /** Writes registers directly (the sketch is only a merge source): empty, low, high and saturated ranks. */
    private static void writeRandomRanks(HyperLogLog sketch, SplittableRandom random) {
        int top = HyperLogLogLayout.maxRank(sketch.precision());
        for (int j = 0; j < sketch.registerCount(); j++) {
            int rank = switch (random.nextInt(4)) {
                case 0 -> 0;
                case 1 -> random.nextInt(top + 1);
                case 2 -> top - random.nextInt(3);
                default -> 1 + random.nextInt(6);
            };
            SketchInternals.payload(sketch).segment().set(ValueLayout.JAVA_BYTE, j, (byte) rank);
        }
    }

    /**
     * A repeated estimate with nothing changed reads no register: registers changed behind the sketch's
     * back (which no writer does) go unnoticed until a raise. An add that raises nothing leaves the guard
     * alone; a {@code SHARED} raise completes one change, and an {@code EXCLUSIVE} one leaves the file's
     * line alone (the writer holds it in flight and keeps the numbers itself).
     */
    @Test
    void aRepeatedEstimateIsTheCachedOneUntilARaiseMovesTheGuard() throws IOException {
        for (OpenMode mode : new OpenMode[] {OpenMode.SHARED, OpenMode.EXCLUSIVE}) {
            HyperLogLog hll = HyperLogLogTest.sketch(12, mode);
            long[] keys = SeededKeys.distinctKeys(11, 50_000);
            hll.addAll(keys);
            HyperLogLogSummaryLine line = line(hll);
            long guard = line.guard();
            double estimate = hll.estimate();
            MemorySegment registers = SketchInternals.payload(hll).segment();
            byte saved = registers.get(ValueLayout.JAVA_BYTE, 0);
            registers.set(ValueLayout.JAVA_BYTE, 0, (byte) 40);
            assertEquals(estimate, hll.estimate(), mode + ": the cached estimate, keyed by the unmoved guard");
            registers.set(ValueLayout.JAVA_BYTE, 0, saved);
            assertFalse(hll.add(keys[0]), "a key added before");
            assertEquals(guard, line.guard(), "an add that raises nothing changes nothing");
            SplittableRandom random = new SplittableRandom(12);
            while (!hll.add(random.nextLong())) {
                assertEquals(guard, line.guard());
            }
            if (mode == OpenMode.SHARED) {
                assertEquals(guard + (1L << 20), line.guard(), "one change completed, none in flight");
            } else {
                assertEquals(guard, line.guard(), "the exclusive writer's raise leaves the file's line alone");
                assertFalse(
                        fileLineIfTrusted(hll, new long[RegisterKernels.SUMMARY_LENGTH]),
                        "while the exclusive writer holds it, readers do not trust the file's line");
            }
            assertLineIsRight(hll, mode + " after the raise");
            hll.close();
            assertThrows(IllegalStateException.class, hll::estimate, mode + ": an estimate after close");
        }
    }

    /**
     * The {@code EXCLUSIVE} writer's sketch trusts its cached estimate until its next raise, and keeps its
     * numbers plainly, so nothing another thread computes while the writer raises may stay cached: right
     * after each raise, the writer's own estimate is the pass's, while a second thread estimates without
     * pause.
     */
    @Test
    void aSnapshotTakenDuringTheSoleWritersChangeIsNeverTrustedAfterIt() throws Exception {
        try (HyperLogLog hll = HyperLogLogTest.sketch(12, OpenMode.EXCLUSIVE);
                ExecutorService pool = Executors.newSingleThreadExecutor()) {
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicBoolean reading = new AtomicBoolean();
            Future<Long> reader = pool.submit(() -> {
                long estimates = 0;
                while (writing.get()) {
                    hll.estimate();
                    estimates++;
                    reading.set(true);
                }
                return estimates;
            });
            while (!reading.get()) {
                Thread.onSpinWait();
            }
            SplittableRandom random = new SplittableRandom(31);
            int raises = 0;
            try {
                for (int i = 0; i < 100_000; i++) {
                    if (hll.add(random.nextLong())) {
                        raises++;
                        assertEquals(
                                Double.doubleToLongBits(passEstimate(hll)),
                                Double.doubleToLongBits(hll.estimate()),
                                "the estimate right after raise " + raises);
                    }
                }
            } finally {
                writing.set(false);
            }
            assertTrue(
                    reader.get() > 0 && raises > 1_000, reader.get() + " concurrent estimates, " + raises + " raises");
        }
    }

    /**
     * Another writer's change in flight (a writer in the middle of a raise, or one that died there)
     * makes every reader read the registers, and its estimate is still the pass's.
     */
    @Test
    void aChangeInFlightSendsEveryEstimateToThePass() throws IOException {
        try (HyperLogLog hll = HyperLogLogTest.sketch(10, OpenMode.SHARED)) {
            hll.addAll(SeededKeys.distinctKeys(13, 5_000));
            double before = hll.estimate();
            HyperLogLogSummaryLine line = otherWriter(hll);
            line.begin();
            line.add(5, 12345);
            assertEquals(null, trustedLine(hll), "a line with a change in flight is never trusted");
            assertEquals(Double.doubleToLongBits(before), Double.doubleToLongBits(hll.estimate()), "from the pass");
            hll.addAll(SeededKeys.distinctKeys(14, 5_000));
            assertEquals(Double.doubleToLongBits(passEstimate(hll)), Double.doubleToLongBits(hll.estimate()));
            assertEquals(null, trustedLine(hll), "later changes do not end the dead one's");
            assertEquals(hll.estimate(), hll.lowerBound(0));
            assertEquals(hll.estimate(), hll.upperBound(0));
        }
    }

    /**
     * A writer killed inside a change: the file keeps a change in flight and wrong numbers. Readers and
     * writers that join others estimate by the pass; the next sole writer recomputes the line and moves
     * the guard past every value it held.
     */
    @Test
    void aWriterThatDiedInAChangeIsRepairedByTheNextSoleWriter() throws IOException {
        for (OpenMode repairer : new OpenMode[] {OpenMode.SHARED, OpenMode.EXCLUSIVE}) {
            Path file = dir.resolve("died-" + repairer + ".hll");
            long[] keys = SeededKeys.distinctKeys(15, 20_000);
            HyperLogLog.builder()
                    .precision(12)
                    .seed(7)
                    .create(file, OpenMode.EXCLUSIVE)
                    .close();
            try (HyperLogLog writer = HyperLogLog.open(file, OpenMode.SHARED)) {
                writer.addAll(keys);
            }
            writeLong(file, GUARD, readLong(file, GUARD) + 3);
            writeLong(file, COUNTS, 17);
            markNotCleanlyClosed(file);
            double expected;
            try (HyperLogLog reader = HyperLogLog.open(file, OpenMode.READ_ONLY)) {
                assertFalse(reader.wasCleanlyClosed());
                assertEquals(null, trustedLine(reader));
                expected = passEstimate(reader);
                assertEquals(Double.doubleToLongBits(expected), Double.doubleToLongBits(reader.estimate()));
                try (HyperLogLog sole = HyperLogLog.open(file, repairer)) {
                    assertLineIsRight(sole, repairer + " sole writer");
                    assertEquals(Double.doubleToLongBits(expected), Double.doubleToLongBits(reader.estimate()));
                    if (repairer == OpenMode.SHARED) {
                        assertLineIsRight(reader, "a reader that opened before the repair trusts the repaired line");
                    } else {
                        assertEquals(null, trustedLine(reader), "the exclusive writer holds the line until it closes");
                    }
                }
                assertLineIsRight(reader, "the reader after the repair, once the sole writer closed");
            }
            assertEquals(((readLong(file, GUARD) >>> 20) << 20), readLong(file, GUARD), "no change in flight");
        }
    }

    @Test
    void aSharedWriterJoiningAnotherDoesNotRepairAndEstimatesByThePass() throws IOException {
        Path file = dir.resolve("joined.hll");
        try (HyperLogLog first = HyperLogLog.builder().precision(8).seed(7).create(file, OpenMode.SHARED)) {
            first.addAll(SeededKeys.distinctKeys(16, 3_000));
            HyperLogLogSummaryLine line = otherWriter(first);
            line.begin();
            try (HyperLogLog second = HyperLogLog.open(file, OpenMode.SHARED)) {
                assertEquals(null, trustedLine(second), "not the only writer: it leaves the line as it is");
                second.addAll(SeededKeys.distinctKeys(17, 3_000));
                assertEquals(Double.doubleToLongBits(passEstimate(second)), Double.doubleToLongBits(second.estimate()));
            }
            line.end();
            assertLineIsRight(first, "once the change in flight ends");
        }
    }

    /**
     * A cleanly closed file whose trusted line disagrees with its registers was changed behind
     * mapsketch's back: refused in every mode, naming the file and both sides.
     */
    @Test
    void aCleanlyClosedFileWhoseLineDisagreesIsRefused() throws IOException {
        Path file = dir.resolve("hostile.hll");
        try (HyperLogLog hll = HyperLogLog.builder().precision(10).seed(7).create(file, OpenMode.EXCLUSIVE)) {
            hll.addAll(SeededKeys.distinctKeys(18, 4_000));
        }
        long powerSum = readLong(file, POWER_SUM);
        writeLong(file, POWER_SUM, powerSum + 1);
        for (OpenMode mode : OpenMode.values()) {
            CorruptSketchFileException e =
                    assertThrows(CorruptSketchFileException.class, () -> HyperLogLog.open(file, mode), mode.toString());
            assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
            assertTrue(
                    e.getMessage().contains("the summary line (header offset 320) disagrees with the registers"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("power sum " + Long.toUnsignedString(powerSum + 1)), e.getMessage());
            assertTrue(
                    e.getMessage().endsWith("the file was changed by something other than mapsketch"), e.getMessage());
        }
        writeLong(file, POWER_SUM, powerSum);
        writeLong(file, SketchFileLayout.SUMMARY_OFFSET + 40, 1);
        CorruptSketchFileException e =
                assertThrows(CorruptSketchFileException.class, () -> HyperLogLog.open(file, OpenMode.READ_ONLY));
        assertTrue(
                e.getMessage().endsWith("summary line byte 40 (header offset 360) is 0x1, expected 0 (reserved)"),
                e.getMessage());
    }

    /**
     * A line that disagrees in a file that was not closed cleanly (pages written back out of order in
     * a system crash): the only writer recomputes it; a reader is refused and told how to repair it.
     */
    @Test
    void aDisagreeingLineInAFileNotClosedCleanlyIsRepairedByTheSoleWriterOnly() throws IOException {
        Path file = dir.resolve("crashed.hll");
        try (HyperLogLog hll = HyperLogLog.builder().precision(10).seed(7).create(file, OpenMode.SHARED)) {
            hll.addAll(SeededKeys.distinctKeys(19, 4_000));
        }
        writeLong(file, COUNTS, readLong(file, COUNTS) - 1);
        markNotCleanlyClosed(file);
        CorruptSketchFileException e =
                assertThrows(CorruptSketchFileException.class, () -> HyperLogLog.open(file, OpenMode.READ_ONLY));
        assertTrue(
                e.getMessage()
                        .endsWith("the file was not closed cleanly: opening it as its only writer"
                                + " recomputes the line"),
                e.getMessage());
        try (HyperLogLog writer = HyperLogLog.open(file, OpenMode.SHARED)) {
            assertFalse(writer.wasCleanlyClosed());
            assertLineIsRight(writer, "repaired");
        }
        try (HyperLogLog reader = HyperLogLog.open(file, OpenMode.READ_ONLY)) {
            assertLineIsRight(reader, "reopened");
        }
    }

    /**
     * The protocol step by step, as two {@code SHARED} writers in flight at once would take it: between
     * any two steps a reader either does not trust the line or finds it equal to the registers, and an
     * opener that is not the only writer accepts the file.
     */
    @Test
    void betweenAnyTwoStepsOfTwoWritersNoReaderTrustsAWrongLine() throws IOException {
        try (HyperLogLog hll = HyperLogLogTest.sketch(8, OpenMode.SHARED)) {
            hll.addAll(SeededKeys.distinctKeys(23, 600));
            MemorySegment registers = SketchInternals.payload(hll).segment();
            HyperLogLogSummaryLine line = otherWriter(hll);
            int[] raised = {3, 200};
            int[] from = new int[2];
            Runnable[] steps = new Runnable[10];
            for (int w = 0; w < 2; w++) {
                int writer = w;
                int register = raised[w];
                from[w] = registers.get(ValueLayout.JAVA_BYTE, register);
                int to = HyperLogLogLayout.maxRank(hll.precision()) - w;
                steps[w] = line::begin;
                steps[2 + w] = () -> registers.set(ValueLayout.JAVA_BYTE, register, (byte) to);
                steps[4 + w] = () -> line.add(RegisterDeltas.counts(from[writer], to, line.top()), 0);
                steps[6 + w] = () -> line.add(0, RegisterDeltas.powerSum(from[writer], to, line.top()));
                steps[8 + w] = line::end;
            }
            for (int step = 0; step < steps.length; step++) {
                steps[step].run();
                long[] read = trustedLine(hll);
                assertEquals(step == steps.length - 1, read != null, "after step " + step);
                line.checkOnOpen(registers, false, false, null);
            }
            assertLineIsRight(hll, "after both writers");
        }
    }

    /**
     * The {@code EXCLUSIVE} writer holds one change in flight from its open to its close: a reader of the
     * file never trusts the line meanwhile and estimates by the pass, whatever the writer adds, merges
     * or folds; the writer's own numbers stay right; its close stores them and ends the change, after
     * which the reader trusts the line and finds it equal to the registers; the next writer starts from
     * it. (An exclusive writer killed while it holds the line is {@link HyperLogLogCrossProcessTest}'s.)
     */
    @Test
    void theExclusiveWriterHoldsTheLineFromOpenToClose() throws IOException {
        Path file = dir.resolve("held.hll");
        HyperLogLog.builder()
                .precision(10)
                .seed(7)
                .create(file, OpenMode.EXCLUSIVE)
                .close();
        long closedGuard = readLong(file, GUARD);
        assertEquals(1L << 20, closedGuard, "create and close: one change completed, none in flight");
        try (HyperLogLog reader = HyperLogLog.open(file, OpenMode.READ_ONLY)) {
            try (HyperLogLog writer = HyperLogLog.open(file, OpenMode.EXCLUSIVE);
                    HyperLogLog other = HyperLogLogTest.sketch(10, OpenMode.EXCLUSIVE);
                    HyperLogLog finer = HyperLogLogTest.sketch(12, OpenMode.EXCLUSIVE)) {
                assertEquals(closedGuard + 1, readLong(file, GUARD), "the open begins the writer's change");
                other.addAll(SeededKeys.distinctKeys(31, 3_000));
                finer.addAll(SeededKeys.distinctKeys(32, 3_000));
                long[] keys = SeededKeys.distinctKeys(33, 5_000);
                for (int i = 0; i < keys.length; i++) {
                    writer.add(keys[i]);
                    if (i % 1_000 == 999) {
                        switch (i / 1_000) {
                            case 1 -> writer.merge(other);
                            case 2 -> writer.mergeFolded(finer);
                            case 3 -> writer.addAll(SeededKeys.distinctKeys(34, 2_000));
                            default -> {}
                        }
                        assertEquals(null, trustedLine(reader), "step " + i + ": the reader does not trust the line");
                        assertEquals(
                                Double.doubleToLongBits(passEstimate(reader)),
                                Double.doubleToLongBits(reader.estimate()),
                                "step " + i + ": the reader's pass");
                        assertLineIsRight(writer, "step " + i + ": the writer's own numbers");
                    }
                }
                assertEquals(closedGuard + 1, readLong(file, GUARD), "no raise touched the file's guard");
            }
            assertEquals(2 * closedGuard, readLong(file, GUARD), "the close ends the writer's change");
            assertLineIsRight(reader, "after the writer's close");
            double estimate = reader.estimate();
            try (HyperLogLog next = HyperLogLog.open(file, OpenMode.EXCLUSIVE)) {
                assertEquals(
                        Double.doubleToLongBits(estimate),
                        Double.doubleToLongBits(next.estimate()),
                        "the next writer starts from the stored numbers");
                assertLineIsRight(next, "the next writer");
            }
        }
    }

    /**
     * A thread adds to fresh {@code SHARED} sketches (where many adds raise a register) and merges and
     * folds into them, while another keeps checking the line as an opener does, the registers
     * summarised between two reads of the guard: whenever the guard shows nothing in flight and does
     * not move, the line equals the registers. Afterwards the registers and the line are those of the
     * sequential build. (Writers racing each other are {@link HyperLogLogPropertiesTest}'s.) Rounds go on
     * past the thirtieth, up to 300, until the checker has caught a change in flight at least once, which
     * on a loaded machine with two cores can take more rounds.
     */
    @Test
    void readersNeverTrustALineThatDisagreesWhileAThreadWrites() throws Exception {
        long trusted = 0;
        long checks = 0;
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            for (int round = 0; round < 30 || (trusted == checks && round < 300); round++) {
                long[] keys = new SplittableRandom(round).longs(60_000).toArray();
                try (HyperLogLog shared = HyperLogLogTest.sketch(12, OpenMode.SHARED);
                        HyperLogLog other = HyperLogLogTest.sketch(12, OpenMode.EXCLUSIVE);
                        HyperLogLog finer = HyperLogLogTest.sketch(13, OpenMode.EXCLUSIVE);
                        HyperLogLog sequential = HyperLogLogTest.sketch(12, OpenMode.EXCLUSIVE)) {
                    other.addAll(new SplittableRandom(-round).longs(20_000).toArray());
                    finer.addAll(new SplittableRandom(~round).longs(20_000).toArray());
                    AtomicBoolean writing = new AtomicBoolean(true);
                    AtomicBoolean checking = new AtomicBoolean();
                    HyperLogLogSummaryLine line = line(shared);
                    Future<long[]> checker = pool.submit(() -> {
                        long[] counted = new long[2];
                        while (writing.get()) {
                            line.checkOnOpen(SketchInternals.payload(shared).segment(), false, false, null);
                            counted[0] += trustedLine(shared) != null ? 1 : 0;
                            counted[1]++;
                            checking.set(true);
                        }
                        return counted;
                    });
                    Future<?> writer = pool.submit(() -> {
                        while (!checking.get()) {
                            Thread.onSpinWait();
                        }
                        for (int i = 0; i < keys.length; i++) {
                            shared.add(keys[i]);
                            if (i == keys.length / 4) {
                                shared.merge(other);
                                shared.mergeFolded(finer);
                            }
                        }
                        writing.set(false);
                    });
                    writer.get();
                    long[] counted = checker.get();
                    trusted += counted[0];
                    checks += counted[1];
                    sequential.addAll(keys);
                    sequential.merge(other);
                    sequential.mergeFolded(finer);
                    assertArrayEquals(Payloads.bytes(sequential), Payloads.bytes(shared));
                    assertLineIsRight(shared, "round " + round + " after the writer");
                    assertArrayEquals(trustedLine(sequential), trustedLine(shared));
                }
            }
        }
        System.out.println("line checked against the registers " + checks + " times while a thread wrote; trusted "
                + trusted + " times");
        assertTrue(trusted > 0 && trusted < checks, trusted + " of " + checks);
    }

    /** A merge from a source damaged after it was opened leaves the line untrusted, so the estimate reports it. */
    @Test
    void aMergeOfDamagedRegistersLeavesTheLineUntrusted() throws IOException {
        for (OpenMode mode : new OpenMode[] {OpenMode.EXCLUSIVE, OpenMode.SHARED}) {
            try (HyperLogLog target = HyperLogLogTest.sketch(6, mode);
                    HyperLogLog source = HyperLogLogTest.sketch(6, OpenMode.EXCLUSIVE)) {
                SketchInternals.payload(source).segment().set(ValueLayout.JAVA_BYTE, 5, (byte) 60);
                target.merge(source);
                assertEquals(null, trustedLine(target), mode.toString());
                IllegalStateException e = assertThrows(IllegalStateException.class, target::estimate);
                assertTrue(e.getMessage().endsWith("the file was corrupted while open"), e.getMessage());
            }
        }
    }

    /** The worked example of docs/file-format.md: p = 4 with registers at 1, 3 and 61 and thirteen empty. */
    @Test
    void theLineMatchesTheDocumentedWorkedExample() throws IOException {
        Path file = dir.resolve("example.hll");
        try (HyperLogLog hll = HyperLogLog.builder().precision(4).create(file, OpenMode.EXCLUSIVE)) {
            hll.addHash(1L << 60 | 1L << 59);
            hll.addHash(2L << 60 | 1L << 57);
            hll.addHash(3L << 60);
            assertArrayEquals(new byte[] {0, 1, 3, 61}, Arrays.copyOf(Payloads.bytes(hll), 4));
        }
        assertEquals(0x0000_0001_0000_0003L, readLong(file, COUNTS));
        assertEquals((1L << 59) + (1L << 57), readLong(file, POWER_SUM));
        assertEquals(
                1L << 20,
                readLong(file, GUARD),
                "one change completed, none in flight: the exclusive writer's, from open to close");
    }

    @Test
    void aNewSketchIsOfTheNewestFormatVersionWithAnEmptyLine() throws IOException {
        Path file = dir.resolve("new.hll");
        try (HyperLogLog hll = HyperLogLog.builder().precision(14).create(file, OpenMode.EXCLUSIVE);
                HyperLogLog anonymous = HyperLogLogTest.sketch(4, OpenMode.SHARED)) {
            assertEquals(
                    HyperLogLogFormat.VERSIONS.written(),
                    SketchInternals.region(hll).header().formatVersion());
            assertArrayEquals(new long[] {16_384, 0, 0, 0}, trustedLine(hll));
            assertArrayEquals(new long[] {16, 0, 0, 0}, trustedLine(anonymous));
            assertEquals(0, hll.estimate());
        }
    }

    static long readLong(Path file, long offset) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
            channel.read(buffer, offset);
            return buffer.getLong(0);
        }
    }

    static void writeLong(Path file, long offset, long value) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(
                    ByteBuffer.allocate(Long.BYTES)
                            .order(ByteOrder.LITTLE_ENDIAN)
                            .putLong(0, value),
                    offset);
        }
    }

    /** Clears the clean-close flag and leaves one writer registered, as a writer that died does. */
    static void markNotCleanlyClosed(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer line = ByteBuffer.allocate(8)
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .putInt(0, 1)
                    .putInt(4, 0);
            channel.write(line, SketchFileLayout.WRITERS_OFFSET);
        }
    }
}
