package io.mapsketch.spark;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.mapsketch.CreateOption;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BlockedBloomRanges;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Measures the memory of {@link MapsketchFiles#writeBloomByRanges} for one range size: a {@code local[1]} session
 * (one task at a time, driver and executor in this JVM) builds a blocked Bloom filter of {@code ranges} ranges of
 * about {@code rangeMiB} MiB each from {@code keys} bigint keys, after a warm-up build of a tiny filter. It prints
 * one line: the range's bytes; the largest heap in use after any collection during the build, less the heap in
 * use after a collection before it (the live heap the build added, seen at collections only); the largest heap in
 * use at all (garbage included), sampled every millisecond; the largest direct and mapped buffer memory, which
 * counts the JVM's native memory segments too, sampled likewise, less its level before; and Spark's largest
 * {@code peakExecutionMemory} of a task. Exits 0 when the build completed. Not a unit test: run by hand with a
 * chosen {@code -Xmx} (the smallest heap with which the build completes is the other measure), as
 * {@code docs/design/spark.md} says.
 *
 * <p>Usage: {@code BloomRangeMemory RANGE_MIB RANGES KEYS}.
 */
public final class BloomRangeMemory {

    private static final double FALSE_POSITIVE_RATE = 0.01;

    private BloomRangeMemory() {}

    /**
     * Runs the measurement.
     *
     * @param args {@code RANGE_MIB RANGES KEYS}
     * @throws Exception if a build fails
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: BloomRangeMemory RANGE_MIB RANGES KEYS; got " + List.of(args));
        }
        long rangeBytes = Long.parseLong(args[0]) << 20;
        int ranges = Integer.parseInt(args[1]);
        long keys = Long.parseLong(args[2]);
        long expectedItems = expectedItemsFor(rangeBytes * ranges, ranges);
        SparkSession spark = LocalSpark.start("mapsketch-spark-range-memory", 1);
        spark.sparkContext().setLogLevel("WARN");
        AtomicLong peakExecution = new AtomicLong();
        spark.sparkContext().addSparkListener(new SparkListener() {
            @Override
            public void onTaskEnd(SparkListenerTaskEnd end) {
                if (end.taskMetrics() != null) {
                    peakExecution.accumulateAndGet(end.taskMetrics().peakExecutionMemory(), Math::max);
                }
            }
        });
        Path dir = Files.createTempDirectory("range-memory");
        try {
            Dataset<Row> rows = spark.range(0, keys, 1, 2).selectExpr("xxhash64(id) AS k");
            MapsketchFiles.writeBloomByRanges(rows, "k", 10_000, FALSE_POSITIVE_RATE, 2, dir.resolve("warm-up"));
            peakExecution.set(0);
            System.gc();
            long heapBefore = heapUsed();
            long directBefore = bufferPoolsUsed();
            AtomicLong peakAfterGc = new AtomicLong(heapBefore);
            watchCollections(peakAfterGc);
            Sampler sampler = new Sampler();
            sampler.start();
            long start = System.nanoTime();
            MapsketchFiles.writeBloomByRanges(
                    rows,
                    "k",
                    expectedItems,
                    FALSE_POSITIVE_RATE,
                    ranges,
                    dir.resolve("filter"),
                    CreateOption.OVERWRITE_EXISTING);
            double seconds = (System.nanoTime() - start) / 1e9;
            sampler.interrupt();
            sampler.join();
            System.out.printf(
                    Locale.ROOT,
                    "range %d MiB x %d ranges (%d items expected, %d keys, -Xmx %d MiB): %.1f s; live heap added at"
                            + " collections %d MiB; heap in use, garbage included %d MiB (%d MiB before); direct and"
                            + " mapped buffers added %d MiB; Spark's peakExecutionMemory %d MiB%n",
                    rangeBytes >> 20,
                    ranges,
                    expectedItems,
                    keys,
                    Runtime.getRuntime().maxMemory() >> 20,
                    seconds,
                    (peakAfterGc.get() - heapBefore) >> 20,
                    sampler.peakHeap >> 20,
                    heapBefore >> 20,
                    (sampler.peakBuffers - directBefore) >> 20,
                    peakExecution.get() >> 20);
        } finally {
            spark.stop();
        }
    }

    /** The expected items whose 1% blocked filter has about {@code filterBytes} bytes. */
    private static long expectedItemsFor(long filterBytes, int ranges) {
        long probe = 1L << 24;
        long probeBytes = BlockedBloomRanges.of(
                        BlockedBloomFilter.builder().expectedItems(probe).falsePositiveRate(FALSE_POSITIVE_RATE), 1)
                .filterBytes();
        return Math.max(ranges, (long) ((double) filterBytes / probeBytes * probe));
    }

    private static long heapUsed() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static long bufferPoolsUsed() {
        long used = 0;
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            used += Math.max(0, pool.getMemoryUsed());
        }
        return used;
    }

    /** Keeps the largest heap in use after each collection (the sum over the heap's pools), until the JVM exits. */
    private static void watchCollections(AtomicLong peakAfterGc) {
        List<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP)
                .map(MemoryPoolMXBean::getName)
                .toList();
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            NotificationEmitter emitter = (NotificationEmitter) collector;
            emitter.addNotificationListener(
                    (notification, handback) -> {
                        if (!notification
                                .getType()
                                .equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
                            return;
                        }
                        GarbageCollectionNotificationInfo info =
                                GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
                        long used = 0;
                        for (String pool : heapPools) {
                            MemoryUsage usage =
                                    info.getGcInfo().getMemoryUsageAfterGc().get(pool);
                            used += usage == null ? 0 : usage.getUsed();
                        }
                        peakAfterGc.accumulateAndGet(used, Math::max);
                    },
                    null,
                    null);
        }
    }

    /** Samples the heap in use and the buffer pools every millisecond until interrupted. */
    private static final class Sampler extends Thread {

        volatile long peakHeap;
        volatile long peakBuffers;

        Sampler() {
            setDaemon(true);
        }

        @Override
        public void run() {
            while (!isInterrupted()) {
                peakHeap = Math.max(peakHeap, heapUsed());
                peakBuffers = Math.max(peakBuffers, bufferPoolsUsed());
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }
}
