package io.mapsketch.enginetesting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mapsketch.OpenMode;
import io.mapsketch.PayloadVerification;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.cardinality.SummaryLineChecks;
import io.mapsketch.internal.RegionSketch;
import io.mapsketch.internal.SketchInternals;
import io.mapsketch.membership.MembershipFilter;
import io.mapsketch.testing.ChildJvm;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The reliability scenarios over the five {@link SharedSketchFiles}, each one round, shared by the
 * CI tests (the killed-writer and many-processes tests) and the long soak test.
 */
public final class ReliabilityScenarios {

    public static final int CHILDREN = 4;
    public static final int THREADS = 2;
    private static final Duration TIMEOUT = Duration.ofMinutes(3);

    private ReliabilityScenarios() {}

    /**
     * One killed writer: a child adds batches {@code acknowledged + 1, ...} to the files of
     * {@code dir} in {@code mode}, is SIGKILLed after 1 to 4 acknowledgements and 0 to 3 ms more,
     * then every file is verified against all acknowledged batches, and its payload checksum must say stale.
     *
     * @return the last acknowledged batch, once this writer is killed
     */
    public static long killRound(Path dir, long acknowledged, OpenMode mode, SplittableRandom random, String when)
            throws Exception {
        long lastAck = acknowledged;
        try (ChildJvm writer = ChildJvm.start(
                dir, SharedSketchWorker.class, "add", dir.toString(), mode.name(), Long.toString(acknowledged + 1))) {
            assertEquals("ready", writer.readLine());
            int waitFor = 1 + random.nextInt(4);
            for (int i = 0; i < waitFor; i++) {
                lastAck = ack(writer.readLine());
            }
            Thread.sleep(random.nextInt(4));
            writer.kill();
            for (String line : writer.remainingLines()) {
                lastAck = ack(line);
            }
        }
        verifyAcknowledged(dir, lastAck, when + " (" + mode + ")");
        return lastAck;
    }

    private static long ack(String line) {
        assertTrue(line.startsWith("ack "), line);
        return Long.parseLong(line.substring(4));
    }

    /**
     * Opens every file and checks it holds at least batches 0..acknowledged, that the HyperLogLog
     * estimates what its registers hold, and that every payload checksum says it is stale.
     */
    public static void verifyAcknowledged(Path dir, long acknowledged, String when) throws IOException {
        try (SharedSketchFiles files = SharedSketchFiles.open(dir, OpenMode.READ_ONLY);
                HyperLogLog expectedRegisters =
                        HyperLogLog.builder().precision(14).seed(3).createAnonymous(OpenMode.EXCLUSIVE)) {
            for (RegionSketch sketch : files.all()) {
                assertFalse(sketch.wasCleanlyClosed(), when + ": " + sketch + " reports the writer that died");
                PayloadVerification checksum = sketch.verify();
                assertEquals(
                        PayloadVerification.State.STALE_WRITERS_ATTACHED,
                        checksum.state(),
                        when + ": " + sketch + " says its checksum is stale: " + checksum.describe());
            }
            boolean[] found = new boolean[SharedSketchFiles.BATCH];
            for (long batch = 0; batch <= acknowledged; batch++) {
                long[] keys = SharedSketchFiles.keys(batch);
                for (MembershipFilter filter : files.filters()) {
                    filter.mightContainAll(keys, found);
                    for (int i = 0; i < keys.length; i++) {
                        assertTrue(found[i], when + ": " + filter + " lost key " + i + " of batch " + batch);
                    }
                }
                for (int i = 0; i < keys.length; i++) {
                    long estimate = files.countMin().estimate(keys[i]);
                    assertTrue(
                            estimate >= SharedSketchFiles.count(i),
                            when + ": Count-Min estimate " + estimate + " of key " + i + " of batch " + batch);
                }
                expectedRegisters.addAll(keys);
            }
            MemorySegment registers =
                    SketchInternals.payload(files.hyperLogLog()).segment();
            MemorySegment expected = SketchInternals.payload(expectedRegisters).segment();
            for (long r = 0; r < expected.byteSize(); r++) {
                int have = Byte.toUnsignedInt(registers.get(ValueLayout.JAVA_BYTE, r));
                int want = Byte.toUnsignedInt(expected.get(ValueLayout.JAVA_BYTE, r));
                assertTrue(have >= want, when + ": HyperLogLog register " + r + " is " + have + ", below " + want);
            }
            assertEquals(
                    Double.doubleToLongBits(SummaryLineChecks.passEstimate(files.hyperLogLog())),
                    Double.doubleToLongBits(files.hyperLogLog().estimate()),
                    when + ": the HyperLogLog estimate, trusted line or not, is the pass's");
        }
    }

    /**
     * Many writers at once: {@value #CHILDREN} child JVMs with {@value #THREADS} threads each add
     * overlapping ranges of batches to new SHARED files in {@code dir} while this JVM checks that every
     * acknowledged batch is visible; then every payload must equal one thread's and the counters be exact.
     *
     * @return the keys added, over all writers and files
     */
    public static long manyWritersRound(Path dir) throws Exception {
        SharedSketchFiles.create(dir, OpenMode.SHARED).close();
        List<ChildJvm> children = new ArrayList<>();
        long checkedBatches = 0;
        try (SharedSketchFiles reader = SharedSketchFiles.open(dir, OpenMode.READ_ONLY)) {
            for (int child = 0; child < CHILDREN; child++) {
                children.add(ChildJvm.start(
                        dir,
                        SharedSketchWorker.class,
                        "hammer",
                        dir.toString(),
                        Integer.toString(child),
                        Integer.toString(THREADS)));
            }
            for (ChildJvm child : children) {
                assertEquals("ready", child.readLine());
            }
            for (ChildJvm child : children) {
                child.go();
            }
            boolean[] found = new boolean[SharedSketchFiles.BATCH];
            for (ChildJvm child : children) {
                for (String line = child.readLine(); !line.equals("done"); line = child.readLine()) {
                    long batch = ack(line);
                    long[] keys = SharedSketchFiles.keys(batch);
                    for (MembershipFilter filter : reader.filters()) {
                        filter.mightContainAll(keys, found);
                        for (int i = 0; i < keys.length; i++) {
                            assertTrue(
                                    found[i], filter + " does not show key " + i + " of acknowledged batch " + batch);
                        }
                    }
                    for (int i = 0; i < keys.length; i++) {
                        assertTrue(reader.countMin().estimate(keys[i]) >= SharedSketchFiles.count(i));
                    }
                    checkedBatches++;
                }
                assertEquals(0, child.waitFor(TIMEOUT));
            }
        } finally {
            children.forEach(ChildJvm::close);
        }
        int writers = CHILDREN * THREADS;
        long batchesPerWriter = 2L * SharedSketchWorker.STRIDE;
        assertEquals(writers * batchesPerWriter, checkedBatches);
        long items = writers * batchesPerWriter * SharedSketchFiles.BATCH;
        try (SharedSketchFiles shared = SharedSketchFiles.open(dir, OpenMode.READ_ONLY);
                SharedSketchFiles sequential = SharedSketchFiles.create(null, OpenMode.EXCLUSIVE)) {
            long weight = 0;
            for (int writer = 0; writer < writers; writer++) {
                long first = (long) writer * SharedSketchWorker.STRIDE;
                for (long batch = first; batch < first + batchesPerWriter; batch++) {
                    sequential.add(batch);
                    for (int i = 0; i < SharedSketchFiles.BATCH; i++) {
                        weight += SharedSketchFiles.count(i);
                    }
                }
            }
            for (int s = 0; s < shared.all().size(); s++) {
                RegionSketch mine = shared.all().get(s);
                RegionSketch reference = sequential.all().get(s);
                assertEquals(
                        -1,
                        SketchInternals.payload(mine)
                                .segment()
                                .mismatch(SketchInternals.payload(reference).segment()),
                        mine + ": payload differs from one thread's");
                assertEquals(items, mine.itemsAdded(), mine + ": items counter");
                assertEquals(
                        PayloadVerification.State.OK,
                        mine.verify().state(),
                        mine + ": the last writer's close sealed the checksum");
            }
            assertEquals(weight, shared.countMin().totalWeight(), "Count-Min total weight N");
            return items * shared.all().size();
        }
    }
}
