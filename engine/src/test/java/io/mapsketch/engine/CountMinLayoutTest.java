package io.mapsketch.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.dynatrace.hash4j.hashing.Hashing;
import io.mapsketch.memory.AccessMode;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Pins where a key's counts land in the payload, computed here from the file format's definition
 * alone (hash4j's XXH3-64 of the key's little-endian bytes with the header's seed, the step's
 * finaliser, a multiply-high per row, rows padded to 64 bytes, little-endian counters), for every
 * path the engine specialises: 32- and 64-bit counters, {@code EXCLUSIVE} and {@code SHARED},
 * plain and conservative update. A file written by any earlier version must read the same.
 */
class CountMinLayoutTest {

    private static final long SEED = 7;

    @Test
    void everyPathPutsEachKeysCountsWhereTheFormatSays() throws IOException {
        for (int bits : new int[] {32, 64}) {
            for (AccessMode mode : new AccessMode[] {AccessMode.EXCLUSIVE, AccessMode.SHARED}) {
                for (boolean conservative : new boolean[] {false, true}) {
                    check(bits, mode, conservative);
                }
            }
        }
    }

    private static void check(int bits, AccessMode mode, boolean conservative) throws IOException {
        String path = bits + "-bit " + mode + (conservative ? " conservative" : " plain");
        try (CountMinSketch cms = CountMinSketch.builder().epsilon(0.01).delta(0.01).counterBits(bits)
                .conservativeUpdate(conservative).seed(SEED).createAnonymous(mode)) {
            int counterBytes = bits / 8;
            long stride = Math.ceilDiv((long) cms.width() * counterBytes, 64) * 64;
            MemorySegment payload = cms.payload.segment();
            SplittableRandom random = new SplittableRandom(bits * 31L + mode.ordinal());
            for (int i = 0; i < 200; i++) {
                long key = random.nextLong();
                long before = cms.estimate(key);
                long count = 1 + random.nextInt(1_000);
                long after = cms.add(key, count);
                long hash = Hashing.xxh3_64(SEED).hashLongToLong(key);
                long x = hash;
                long y = step(hash);
                long min = Long.MAX_VALUE;
                for (int row = 0; row < cms.depth(); row++) {
                    long offset = row * stride + Math.unsignedMultiplyHigh(x, cms.width()) * counterBytes;
                    long value = bits == 32
                            ? Integer.toUnsignedLong(payload.get(ValueLayout.JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN), offset))
                            : payload.get(ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN), offset);
                    min = Math.min(min, value);
                    x += y;
                    y += row;
                }
                assertEquals(min, after, path + ": the minimum of the key's counters at the format's positions");
                assertEquals(min, cms.estimate(key), path);
                if (conservative) {
                    assertEquals(before + count, after, path + ": conservative update raises the estimate by the count");
                }
            }
        }
    }

    /** The double-hashing step as the file format defines it, restated independently of the engine. */
    private static long step(long hash) {
        long h = hash ^ 0x5851F42D4C957F2DL;
        h = (h ^ h >>> 33) * 0xFF51AFD7ED558CCDL;
        h = (h ^ h >>> 33) * 0xC4CEB9FE1A85EC53L;
        return h ^ h >>> 33;
    }
}
