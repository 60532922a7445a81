package io.mapsketch.jmh;

import com.google.common.hash.Funnels;
import io.mapsketch.OpenMode;
import io.mapsketch.membership.BlockedBloomFilter;
import io.mapsketch.membership.BloomFilter;
import io.mapsketch.membership.MembershipFilter;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.apache.datasketches.filters.bloomfilter.BloomFilterBuilder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of getting a stored Bloom filter back into service: open the file of a filter of
 * {@link #size} bytes and answer one lookup. mapsketch maps the file and checks its header
 * ({@code MembershipFilter.open}, read-only), Guava reads its serialized form onto the heap
 * ({@code BloomFilter.readFrom}), DataSketches either copies its image onto the heap
 * ({@code heapify} of the mapped file) or wraps the mapped file ({@code wrap}, the closest peer to
 * mapsketch). Each filter is sized for 1% false positives and holds a few thousand keys: what is
 * measured is the size, not the content.
 *
 * <p>Unlike the throughput benchmarks this one reports the time of one open ({@code SingleShotTime}:
 * each iteration is one open, in milliseconds), as the question is "how long until the filter
 * answers". {@link #cache} chooses
 * whether the file is in the page cache ({@code warm}: it was just written or read) or not
 * ({@code cold}: the page cache is dropped before every open, which needs root; without it the
 * setup fails with a message saying so).
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx8g"})
@Warmup(iterations = 2)
@Measurement(iterations = 5)
public class OpenBenchmark {

    private static final double FALSE_POSITIVE_RATE = 0.01;
    private static final int KEYS = 4_096;
    private static final long PROBE = KeyStreams.key(17);
    private static final Path DROP_CACHES = Path.of("/proc/sys/vm/drop_caches");

    /**
     * Implementation: {@code mapsketch-blocked}, {@code mapsketch-classic}, {@code guava},
     * {@code datasketches-heapify} or {@code datasketches-wrap}.
     */
    @Param({"mapsketch-blocked", "mapsketch-classic", "guava", "datasketches-heapify", "datasketches-wrap"})
    public String impl;

    /** Approximate bytes of the filter's bits: 1 GiB by default; each library rounds its own way. */
    @Param({"1073741824"})
    public long size;

    /** {@code warm}: the file is in the page cache; {@code cold}: the page cache is dropped before each open. */
    @Param({"warm", "cold"})
    public String cache;

    private Path directory;
    private Path file;

    /** Creates the state; JMH calls this once per fork. */
    public OpenBenchmark() {}

    /**
     * Writes the filter file of this implementation.
     *
     * @throws IOException if it cannot be written
     */
    @Setup(Level.Trial)
    public void writeFile() throws IOException {
        directory = Files.createTempDirectory("open-benchmark");
        file = directory.resolve("filter");
        long items = (long) (size * 8 / 9.6);
        long[] keys = new long[KEYS];
        for (int i = 0; i < KEYS; i++) {
            keys[i] = KeyStreams.key(i);
        }
        switch (impl) {
            case "mapsketch-blocked" -> {
                try (MembershipFilter filter = BlockedBloomFilter.builder()
                        .expectedItems(items)
                        .falsePositiveRate(FALSE_POSITIVE_RATE)
                        .create(file, OpenMode.EXCLUSIVE)) {
                    filter.addAll(keys);
                }
            }
            case "mapsketch-classic" -> {
                try (MembershipFilter filter = BloomFilter.builder()
                        .expectedItems(items)
                        .falsePositiveRate(FALSE_POSITIVE_RATE)
                        .create(file, OpenMode.EXCLUSIVE)) {
                    filter.addAll(keys);
                }
            }
            case "guava" -> {
                com.google.common.hash.BloomFilter<Long> filter =
                        com.google.common.hash.BloomFilter.create(Funnels.longFunnel(), items, FALSE_POSITIVE_RATE);
                for (long key : keys) {
                    filter.put(key);
                }
                try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
                    filter.writeTo(out);
                }
            }
            case "datasketches-heapify", "datasketches-wrap" -> {
                org.apache.datasketches.filters.bloomfilter.BloomFilter filter =
                        BloomFilterBuilder.createByAccuracy(items, FALSE_POSITIVE_RATE, 7);
                for (long key : keys) {
                    filter.update(key);
                }
                Files.write(file, filter.toByteArray());
            }
            default -> throw new IllegalArgumentException("unknown impl " + impl);
        }
        System.out.printf("%nopen impl=%s file-bytes=%d%n", impl, Files.size(file));
    }

    /**
     * Drops the page cache before each open when {@link #cache} is {@code cold}.
     *
     * @throws IOException if the cache cannot be dropped (not root)
     */
    @Setup(Level.Iteration)
    public void dropCache() throws IOException {
        if (cache.equals("cold")) {
            Files.writeString(DROP_CACHES, "1");
        }
    }

    /**
     * Deletes the file.
     *
     * @throws IOException if it cannot be deleted
     */
    @TearDown(Level.Trial)
    public void deleteFile() throws IOException {
        Files.deleteIfExists(file);
        Files.deleteIfExists(directory);
    }

    /**
     * Opens the filter from its file and answers one lookup.
     *
     * @return the answer, so the work is not dead
     * @throws IOException if the file cannot be read
     */
    @Benchmark
    public boolean openAndLookUp() throws IOException {
        return switch (impl) {
            case "mapsketch-blocked", "mapsketch-classic" -> {
                try (MembershipFilter filter = MembershipFilter.open(file, OpenMode.READ_ONLY)) {
                    yield filter.mightContain(PROBE);
                }
            }
            case "guava" -> {
                try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 20)) {
                    yield com.google.common.hash.BloomFilter.readFrom(in, Funnels.longFunnel())
                            .mightContain(PROBE);
                }
            }
            case "datasketches-heapify" -> {
                try (Arena arena = Arena.ofConfined();
                        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                    MemorySegment image = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
                    yield org.apache.datasketches.filters.bloomfilter.BloomFilter.heapify(image)
                            .query(PROBE);
                }
            }
            case "datasketches-wrap" -> {
                try (Arena arena = Arena.ofConfined();
                        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                    MemorySegment image = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
                    yield org.apache.datasketches.filters.bloomfilter.BloomFilter.wrap(image)
                            .query(PROBE);
                }
            }
            default -> throw new IllegalArgumentException("unknown impl " + impl);
        };
    }
}
