package io.mapsketch.internal;

import io.mapsketch.memory.HashScheme;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * Turns every form of key into the sketch's 64-bit hash, by the hash scheme and with the seed of the
 * file header, one key at a time or a batch at a time: the one place where keys become hashes, which
 * every sketch then hands to its own hash-level operation. The same bytes give the same hash whichever
 * form they arrive in: a {@code CharSequence} hashes as its UTF-8 bytes ({@link Utf8}), a byte array or
 * segment range as its bytes, a {@code long} as its scheme says (XXH3: its eight little-endian bytes).
 *
 * <p>One final subclass per scheme ({@link #of}), each loaded only when a sketch of its scheme is opened
 * (the factory names a foreign subclass only through a static method that returns this type, so that
 * verifying this class loads none), so that while every open sketch hashes with XXH3 the JIT sees one
 * implementation of each method and compiles the calls as direct ones.
 *
 * <p>Batches ({@code forEachBatch}) are hashed {@value #BATCH} keys at a time into a scratch array
 * ({@code long} keys of XXH3 with the SIMD kernel), and each step goes to the sketch's {@link BatchStep}.
 *
 * <p>Cost: the scheme's hash of the key's bytes; an XXH3 {@code long} takes a few nanoseconds. A
 * {@code CharSequence} is encoded into a buffer first, the calling thread's ({@link OwnedScratch}: plain
 * loads and stores, no fence). A batch's scratch array is lent to the call ({@link ScratchPool}: an
 * atomic exchange per call). Nothing is allocated once the buffers are large enough, except the lambda
 * of a batch call.
 */
public abstract sealed class KeyHasher
        permits Xxh3KeyHasher, RedisKeyHasher, GuavaKeyHasher, SparkKeyHasher, DataSketchesKeyHasher {

    /** Keys hashed per step of a batch: large enough to amortise a step, small enough to stay in the L1 cache. */
    public static final int BATCH = 512;
    /** A {@code long} key as stored in a segment of keys: eight little-endian bytes. */
    public static final ValueLayout.OfLong KEY_LAYOUT =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** The largest UTF-8 buffer kept; a longer key's buffer is left to the collector. */
    private static final int KEPT_BUFFER_BYTES = 1 << 16;

    /** The header's seed. */
    protected final long seed;

    private final ScratchPool<long[]> batches = new ScratchPool<>(() -> new long[BATCH]);
    private final OwnedScratch<Utf8Buffer> utf8Buffers = new OwnedScratch<>(Utf8Buffer::new);

    KeyHasher(long seed) {
        this.seed = seed;
    }

    /**
     * The hasher of a scheme and seed, as a file header names them.
     *
     * @return a new hasher, with its own scratch
     */
    public static KeyHasher of(HashScheme scheme, long seed) {
        return switch (scheme) {
            case XXH3_64 -> new Xxh3KeyHasher(seed);
            case REDIS_HLL -> RedisKeyHasher.create(seed);
            case GUAVA_MURMUR3_128 -> GuavaKeyHasher.create(seed);
            case SPARK_MURMUR3_32 -> SparkKeyHasher.create(seed);
            case DATASKETCHES_MURMUR3_128 -> DataSketchesKeyHasher.create(seed);
        };
    }

    /** The hasher of the native scheme, XXH3-64, with a seed. */
    public static KeyHasher xxh3(long seed) {
        return new Xxh3KeyHasher(seed);
    }

    /** What a sketch does with one step of a batch. */
    @FunctionalInterface
    public interface BatchStep {

        /**
         * Takes {@code hashes[0, count)}, the hashes of the call's keys {@code first .. first + count - 1};
         * the array is scratch that the step may overwrite and must not keep.
         */
        void apply(long[] hashes, long first, int count);
    }

    public long seed() {
        return seed;
    }

    /** The hash of a {@code long} key, in the form its scheme gives it. */
    public abstract long hash(long key);

    /** The hash of the bytes {@code key[offset, offset + length)}. */
    public final long hash(byte[] key, int offset, int length) {
        return hash(MemorySegment.ofArray(key), offset, length);
    }

    /** The hash of the bytes of a segment slice. */
    public abstract long hash(MemorySegment key, long offset, long length);

    /**
     * Hashes the {@code long} keys {@code keys[from, from + count)} into {@code hashes[to, to + count)};
     * the two ranges may be the same range of one array.
     */
    abstract void hashLongs(long[] keys, int from, long[] hashes, int to, int count);

    // Kept under C2's trivial inlining size (35 bytecodes), so that it is inlined into a caller's loop
    // even after it was compiled on its own into a large method: no try-finally (a call that throws
    // leaves its place lent, and its thread then borrows from the pool).
    public long hash(CharSequence key) {
        OwnedScratch.Lease<Utf8Buffer> buffer = utf8Buffers.borrow();
        long hash = hashUtf8(key, buffer.piece());
        utf8Buffers.giveBack(buffer);
        return hash;
    }

    private long hashUtf8(CharSequence key, Utf8Buffer buffer) {
        byte[] bytes = buffer.forChars(key.length());
        return hash(MemorySegment.ofArray(bytes), 0, Utf8.encode(key, bytes));
    }

    /**
     * Lends this thread's UTF-8 buffer, for a caller that needs a key's bytes beyond their hash; give
     * it back with {@link #giveBackUtf8Buffer}.
     */
    public OwnedScratch.Lease<Utf8Buffer> borrowUtf8Buffer() {
        return utf8Buffers.borrow();
    }

    /** Takes back a buffer of {@link #borrowUtf8Buffer}. */
    public void giveBackUtf8Buffer(OwnedScratch.Lease<Utf8Buffer> buffer) {
        utf8Buffers.giveBack(buffer);
    }

    /** A buffer for the UTF-8 bytes of keys, which grows to the longest key it has held, up to 64 KiB. */
    public static final class Utf8Buffer {

        private byte[] bytes = new byte[256];

        /** An array that holds the UTF-8 bytes of {@code chars} characters ({@link Utf8#encode}). */
        public byte[] forChars(int chars) {
            int needed = Utf8.maxEncodedLength(chars);
            if (needed <= bytes.length) {
                return bytes;
            }
            byte[] grown = new byte[Math.max(needed, Math.min(2 * bytes.length, KEPT_BUFFER_BYTES))];
            if (grown.length <= KEPT_BUFFER_BYTES) {
                bytes = grown;
            }
            return grown;
        }
    }

    /** Hands every key of {@code keys} to {@code step}, {@value #BATCH} hashes at a time. */
    public void forEachBatch(long[] keys, BatchStep step) {
        long[] hashes = batches.borrow();
        try {
            forEachBatch(keys, hashes, step);
        } finally {
            batches.giveBack(hashes);
        }
    }

    /**
     * Hands every key of {@code keys} to {@code step}, {@code hashes.length} hashes at a time in the
     * caller's array: for a sketch whose steps gain from batches larger than {@value #BATCH}.
     */
    public void forEachBatch(long[] keys, long[] hashes, BatchStep step) {
        for (int from = 0; from < keys.length; from += hashes.length) {
            int count = Math.min(hashes.length, keys.length - from);
            hashLongs(keys, from, hashes, 0, count);
            step.apply(hashes, from, count);
        }
    }

    /**
     * Hands {@code count} little-endian 64-bit keys of a segment, from byte {@code offset}, to
     * {@code step}: each step's keys are copied into the scratch array and hashed there in place.
     *
     * @throws IndexOutOfBoundsException before any step if the keys are outside the segment
     */
    public void forEachBatch(MemorySegment keys, long offset, long count, BatchStep step) {
        long[] hashes = batches.borrow();
        try {
            forEachBatch(keys, offset, count, hashes, step);
        } finally {
            batches.giveBack(hashes);
        }
    }

    /**
     * As {@link #forEachBatch(MemorySegment, long, long, BatchStep)}, {@code hashes.length} keys at a
     * time in the caller's array.
     *
     * @throws IndexOutOfBoundsException before any step if the keys are outside the segment
     */
    public void forEachBatch(MemorySegment keys, long offset, long count, long[] hashes, BatchStep step) {
        checkLongKeys(keys, offset, count);
        for (long done = 0; done < count; done += hashes.length) {
            int n = (int) Math.min(hashes.length, count - done);
            MemorySegment.copy(keys, KEY_LAYOUT, offset + done * Long.BYTES, hashes, 0, n);
            hashLongs(hashes, 0, hashes, 0, n);
            step.apply(hashes, done, n);
        }
    }

    /**
     * Hands {@code count} keys of bytes to {@code step}, key {@code i} being
     * {@code data[offsets[i], offsets[i] + lengths[i])}.
     *
     * @throws IndexOutOfBoundsException before any step if {@code count} exceeds an array; at the step
     *     of the first key outside {@code data}
     */
    public void forEachBatch(byte[] data, int[] offsets, int[] lengths, int count, BatchStep step) {
        Objects.checkFromIndexSize(0, count, offsets.length);
        Objects.checkFromIndexSize(0, count, lengths.length);
        MemorySegment bytes = MemorySegment.ofArray(data);
        long[] hashes = batches.borrow();
        try {
            for (int from = 0; from < count; from += BATCH) {
                int n = Math.min(BATCH, count - from);
                for (int i = 0; i < n; i++) {
                    hashes[i] = hash(bytes, offsets[from + i], lengths[from + i]);
                }
                step.apply(hashes, from, n);
            }
        } finally {
            batches.giveBack(hashes);
        }
    }

    /** Refuses {@code count} 64-bit keys from byte {@code offset} that do not lie inside the segment. */
    public static void checkLongKeys(MemorySegment keys, long offset, long count) {
        Objects.checkFromIndexSize(offset, Math.multiplyExact(count, Long.BYTES), keys.byteSize());
    }
}
