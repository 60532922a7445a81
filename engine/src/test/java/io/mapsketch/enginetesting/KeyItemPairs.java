package io.mapsketch.enginetesting;

import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.quicktheories.core.Gen;

/**
 * The (key, item) pairs of the sketch tables' property tests: a generator of a few keys with any number of
 * items each, the key's name, and pairs laid out as a table's batch calls take them.
 */
public final class KeyItemPairs {

    private KeyItemPairs() {}

    /** Pairs {key, item}: keys 0 to 11, items in [0, 2^20], up to {@code maxPairs} of them. */
    public static Gen<List<long[]>> pairs(int maxPairs) {
        return lists().of(integers().between(0, 11).zip(integers().between(0, 1 << 20), (k, i) -> new long[] {k, i}))
                .ofSizeBetween(0, maxPairs)
                .describedAs(list -> list.size() + " pairs");
    }

    /** The name of key {@code k}. */
    public static String key(long k) {
        return "seen:user" + k;
    }

    /** Closes every sketch of a test's standalone ones. */
    public static void closeAll(Iterable<? extends AutoCloseable> sketches) {
        for (AutoCloseable sketch : sketches) {
            try {
                sketch.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * Pairs laid out as a table's {@code addAll} takes them: each key's UTF-8 bytes ({@link #key}), then its
     * item's 8 little-endian bytes.
     *
     * @param data the bytes
     * @param keyOffsets where each key starts
     * @param keyLengths each key's byte count
     * @param itemOffsets where each item starts
     * @param itemLengths each item's byte count, 8
     */
    public record Batch(byte[] data, int[] keyOffsets, int[] keyLengths, int[] itemOffsets, int[] itemLengths) {

        /** Lays out the pairs {key, item, ...}. */
        public static Batch of(List<long[]> pairs) {
            Batch batch = new Batch(
                    new byte[pairs.size() * 32],
                    new int[pairs.size()],
                    new int[pairs.size()],
                    new int[pairs.size()],
                    new int[pairs.size()]);
            int at = 0;
            for (int i = 0; i < pairs.size(); i++) {
                byte[] key = key(pairs.get(i)[0]).getBytes(StandardCharsets.UTF_8);
                batch.keyOffsets[i] = at;
                batch.keyLengths[i] = key.length;
                System.arraycopy(key, 0, batch.data, at, key.length);
                at += key.length;
                batch.itemOffsets[i] = at;
                batch.itemLengths[i] = Long.BYTES;
                ByteBuffer.wrap(batch.data, at, Long.BYTES)
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .putLong(pairs.get(i)[1]);
                at += Long.BYTES;
            }
            return batch;
        }

        /** The pairs. */
        public int count() {
            return keyOffsets.length;
        }
    }
}
