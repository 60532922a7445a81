package io.mapsketch.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import io.mapsketch.CreateOption;
import io.mapsketch.OpenMode;
import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.enginetesting.RedisServer;
import io.mapsketch.enginetesting.RespClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * Against a real redis-server on loopback: items PFADDed there and imported here count as PFCOUNT
 * counts them; more items added on both sides leave the same registers, which go back with SET and
 * count the same there. Sparse strings (up to a few thousand items) and dense ones (10^5 distinct items),
 * each checked to be of its encoding where the item count decides it.
 */
class RedisServerTest {

    @TempDir
    static Path dir;

    private static RedisServer server;
    private static RespClient redis;
    private static final AtomicInteger KEYS = new AtomicInteger();
    /** Items that Redis holds in a sparse string (well below its 3,000-byte sparse limit). */
    private static final int SURELY_SPARSE = 300;
    /** Items that Redis holds in a dense string (far past that limit). */
    private static final int SURELY_DENSE = 10_000;

    @BeforeAll
    static void start() throws IOException, InterruptedException {
        server = RedisServer.start(dir);
        redis = server.client();
    }

    @AfterAll
    static void stop() throws IOException {
        if (redis != null) {
            redis.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /** Byte-string items: any bytes, empty ones included. */
    private static Gen<List<byte[]>> items(int fewest, int most) {
        return lists().of(Generate.byteArrays(
                        integers().between(0, 24), Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0)))
                .ofSizeBetween(fewest, most);
    }

    /**
     * {@code count} items of 1 to 24 random bytes drawn from {@code seed}, nearly all distinct (the
     * generated lists of {@link #items} repeat a few thousand values, and their first list is one value).
     */
    private static List<byte[]> distinctItems(long seed, int count) {
        SplittableRandom random = new SplittableRandom(seed);
        return Stream.generate(() -> {
                    byte[] item = new byte[1 + random.nextInt(24)];
                    random.nextBytes(item);
                    return item;
                })
                .limit(count)
                .toList();
    }

    private static void pfadd(String key, List<byte[]> items) throws IOException {
        for (int from = 0; from < items.size(); from += 1_000) {
            redis.pfadd(
                    key,
                    items.subList(from, Math.min(items.size(), from + 1_000)).toArray(byte[][]::new));
        }
        if (items.isEmpty()) {
            redis.pfadd(key);
        }
    }

    private void roundTrip(List<byte[]> first, List<byte[]> more) throws IOException {
        String key = "hll:" + KEYS.incrementAndGet();
        pfadd(key, first);
        byte[] theirs = redis.get(key);
        if (first.size() <= SURELY_SPARSE) {
            assertEquals(1, theirs[4], "Redis's string of few items is sparse (encoding byte 1)");
        }
        if (first.size() >= SURELY_DENSE) {
            assertEquals(0, theirs[4], "Redis's string of many items is dense (encoding byte 0)");
        }
        Path file = dir.resolve(key.replace(':', '-') + ".hll");
        try (HyperLogLog sketch =
                RedisHyperLogLog.importFrom(theirs, file, OpenMode.SHARED, CreateOption.OVERWRITE_EXISTING)) {
            assertEquals(redis.pfcount(key), (long) sketch.estimate(), "PFCOUNT of the imported string");
            assertArrayEquals(
                    RedisHllBytes.decode(theirs, null), RedisHllBytes.decode(RedisHyperLogLog.exportTo(sketch), null));

            pfadd(key, more);
            for (byte[] item : more) {
                sketch.add(item, 0, item.length);
            }
            byte[] ours = RedisHyperLogLog.exportTo(sketch);
            assertArrayEquals(
                    RedisHllBytes.decode(redis.get(key), null),
                    RedisHllBytes.decode(ours, null),
                    "the registers after more adds on both sides");
            String back = key + ":back";
            redis.set(back, ours);
            assertEquals(redis.pfcount(key), redis.pfcount(back), "PFCOUNT of the exported string");
            assertEquals(redis.pfcount(back), (long) sketch.estimate(), "our count of the same registers");
            String merged = key + ":merged";
            redis.command("PFMERGE", merged, back);
            assertArrayEquals(
                    RedisHllBytes.decode(redis.get(key), null),
                    RedisHllBytes.decode(redis.get(merged), null),
                    "Redis reads the exported string's registers as its own");
        }
    }

    @Test
    void sparseStringsRoundTrip() {
        qt().withFixedSeed(59L)
                .withExamples(25)
                .forAll(items(0, 3_000), items(0, 300))
                .checkAssert((first, more) -> {
                    try {
                        roundTrip(first, more);
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    @Test
    void denseStringsRoundTrip() {
        qt().withFixedSeed(61L)
                .withExamples(3)
                .forAll(longs().all(), integers().between(1_000, 20_000))
                .checkAssert((seed, more) -> {
                    try {
                        roundTrip(distinctItems(seed, 100_000), distinctItems(~seed, more));
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }

    @Test
    void longsAndStringsAddAsARedisClientSendsThem() {
        qt().withFixedSeed(67L)
                .withExamples(5)
                .forAll(lists().of(longs().all()).ofSizeBetween(1, 5_000))
                .checkAssert(keys -> {
                    try {
                        String key = "longs:" + KEYS.incrementAndGet();
                        pfadd(
                                key,
                                keys.stream()
                                        .map(k -> Long.toString(k).getBytes(StandardCharsets.US_ASCII))
                                        .toList());
                        try (HyperLogLog single = HyperLogLog.builder()
                                        .precision(14)
                                        .redisHashing()
                                        .createAnonymous(OpenMode.EXCLUSIVE);
                                HyperLogLog batch = HyperLogLog.builder()
                                        .precision(14)
                                        .redisHashing()
                                        .createAnonymous(OpenMode.SHARED);
                                HyperLogLog strings = HyperLogLog.builder()
                                        .precision(14)
                                        .redisHashing()
                                        .createAnonymous(OpenMode.EXCLUSIVE)) {
                            keys.forEach(single::add);
                            batch.addAll(
                                    keys.stream().mapToLong(Long::longValue).toArray());
                            keys.forEach(k -> strings.add(Long.toString(k)));
                            byte[] expected = RedisHllBytes.decode(redis.get(key), null);
                            for (HyperLogLog sketch : List.of(single, batch, strings)) {
                                assertArrayEquals(
                                        expected, RedisHllBytes.decode(RedisHyperLogLog.exportTo(sketch), null));
                                assertEquals(redis.pfcount(key), (long) sketch.estimate());
                            }
                        }
                    } catch (IOException e) {
                        throw new AssertionError(e);
                    }
                });
    }
}
