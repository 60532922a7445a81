package io.mapsketch.jmh;

import static io.mapsketch.jmh.BenchmarkSettings.BLOOM_FALSE_POSITIVE_RATE;
import static io.mapsketch.jmh.BenchmarkSettings.SKETCH_SEED;

import io.mapsketch.OpenMode;
import io.mapsketch.membership.BlockedBloomFilter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Keys of text and of bytes, one at a time, into mapsketch's blocked Bloom filter (in {@code EXCLUSIVE}
 * and {@code SHARED} mode): what the key forms other than {@code long} cost on top of the filter. A
 * {@code String} key is encoded as UTF-8 and hashed, a {@code byte[]} range hashed where it lies. Scores
 * are keys per second.
 *
 * <p><b>Keys.</b> 2^16 distinct ASCII strings of {@link #length} characters (letters and digits drawn
 * from a fixed seed), and their UTF-8 bytes; 16 characters take XXH3's path for inputs of up to 16
 * bytes, 48 its path for 17 to 128. The filter is sized for {@link #capacity} keys at 1% (by default
 * 2^20, 1.2 MiB, in the L2 and L3 caches; 2^16 is 80 KiB, in L2, where the key form's own cost shows
 * most) and holds the first half of the keys; lookups walk all of them with a cursor, {@value #BATCH}
 * per call, so half are present and half absent. Adds walk the same keys: a key added again costs its
 * hash and its block as the first add did.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
public class KeyFormBenchmark {

    private static final int BATCH = 1024;
    private static final int KEYS = 1 << 16;
    private static final long KEY_SEED = 0x7E57_AB1E_5EED_0001L;
    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

    /** Implementation: {@code mapsketch-blocked} or {@code mapsketch-blocked-shared}. */
    @Param({"mapsketch-blocked", "mapsketch-blocked-shared"})
    public String impl;

    /** Characters (and UTF-8 bytes) per key. */
    @Param({"16", "48"})
    public int length;

    /** Keys the filter is sized for. */
    @Param({"1048576"})
    public int capacity;

    private final boolean[] answers = new boolean[BATCH];
    private String[] texts;
    private byte[][] bytes;
    private BlockedBloomFilter filter;
    private int cursor;

    /** Creates the state; JMH calls this once per fork. */
    public KeyFormBenchmark() {}

    /** Draws the keys, creates the filter and adds the first half of the keys. */
    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom random = new SplittableRandom(KEY_SEED);
        texts = new String[KEYS];
        bytes = new byte[KEYS][];
        for (int i = 0; i < KEYS; i++) {
            StringBuilder text = new StringBuilder(length);
            for (int c = 0; c < length; c++) {
                text.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
            }
            texts[i] = text.toString();
            bytes[i] = texts[i].getBytes(StandardCharsets.UTF_8);
        }
        OpenMode mode = switch (impl) {
            case "mapsketch-blocked" -> OpenMode.EXCLUSIVE;
            case "mapsketch-blocked-shared" -> OpenMode.SHARED;
            default -> throw new IllegalArgumentException("unknown impl " + impl);
        };
        filter = BlockedBloomFilter.builder()
                .expectedItems(capacity)
                .falsePositiveRate(BLOOM_FALSE_POSITIVE_RATE)
                .seed(SKETCH_SEED)
                .createAnonymous(mode);
        for (int i = 0; i < KEYS / 2; i++) {
            filter.add(texts[i]);
        }
    }

    /**
     * Frees the filter.
     *
     * @throws IOException never for an anonymous filter
     */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        filter.close();
    }

    /**
     * Looks up the next {@value #BATCH} keys as {@code String}s, one at a time.
     *
     * @return the answers
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public boolean[] mightContainText() {
        String[] keys = texts;
        int from = next();
        for (int i = 0; i < BATCH; i++) {
            answers[i] = filter.mightContain(keys[from + i]);
        }
        return answers;
    }

    /**
     * Looks up the next {@value #BATCH} keys as byte arrays, one at a time.
     *
     * @return the answers
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public boolean[] mightContainBytes() {
        byte[][] keys = bytes;
        int from = next();
        for (int i = 0; i < BATCH; i++) {
            answers[i] = filter.mightContain(keys[from + i], 0, keys[from + i].length);
        }
        return answers;
    }

    /**
     * Adds the next {@value #BATCH} keys as {@code String}s, one at a time.
     *
     * @return the filter, so the work is not dead
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object addText() {
        String[] keys = texts;
        int from = next();
        for (int i = 0; i < BATCH; i++) {
            filter.add(keys[from + i]);
        }
        return filter;
    }

    /** The first key of the next batch. */
    private int next() {
        int from = cursor;
        cursor = (from + BATCH) & (KEYS - 1);
        return from;
    }
}
