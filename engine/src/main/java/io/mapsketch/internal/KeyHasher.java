package io.mapsketch.internal;

import io.mapsketch.kernels.HashKernels;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.agrona.DirectBuffer;

/**
 * Turns every kind of key into the sketch's 64-bit XXH3 hash with the seed from the file header.
 * The same bytes give the same hash whichever form they arrive in: a {@code long} hashes as its
 * eight little-endian bytes, a {@code CharSequence} as its UTF-8 bytes.
 *
 * <p>Cost: XXH3 of the key's bytes; a {@code long} takes a few nanoseconds. A {@code CharSequence}
 * is encoded, and a {@code DirectBuffer} that wraps neither an array nor a heap buffer is copied,
 * into a per-thread scratch array first; nothing is allocated once that array is large enough.
 */
public final class KeyHasher {

    /** A {@code long} key as stored in a segment of keys: eight little-endian bytes. */
    public static final ValueLayout.OfLong KEY_LAYOUT =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ThreadLocal<byte[][]> SCRATCH = ThreadLocal.withInitial(() -> new byte[][] {new byte[256]});

    private final long seed;
    /** XXH3's constant of the seed for 8-byte keys, derived once rather than per key. */
    private final long longKeyConstant;

    public KeyHasher(long seed) {
        this.seed = seed;
        this.longKeyConstant = HashKernels.xxh3SeedConstant(seed);
    }

    public long seed() {
        return seed;
    }

    public long hash(long key) {
        return HashKernels.xxh3WithSeedConstant(longKeyConstant, key);
    }

    public long hash(byte[] key, int offset, int length) {
        return HashKernels.xxh3Bytes(seed, MemorySegment.ofArray(key), offset, length);
    }

    public long hash(MemorySegment key, long offset, long length) {
        return HashKernels.xxh3Bytes(seed, key, offset, length);
    }

    public long hash(CharSequence key) {
        MemorySegment bytes = utf8(key);
        return HashKernels.xxh3Bytes(seed, bytes, 0, bytes.byteSize());
    }

    public long hash(DirectBuffer key, int index, int length) {
        return HashKernels.xxh3Bytes(seed, bytes(key, index, length), 0, length);
    }

    /** The UTF-8 bytes of {@code key}, in this thread's scratch array: valid until the thread's next key. */
    public static MemorySegment utf8(CharSequence key) {
        byte[] scratch = scratch(Utf8.maxEncodedLength(key.length()));
        int length = Utf8.encode(key, scratch);
        return MemorySegment.ofArray(scratch).asSlice(0, length);
    }

    /**
     * The bytes of a buffer range: a view of its array when it wraps one, otherwise a copy in this
     * thread's scratch array, valid until the thread's next key.
     */
    public static MemorySegment bytes(DirectBuffer key, int index, int length) {
        key.boundsCheck(index, length);
        byte[] array = key.byteArray();
        if (array != null) {
            return MemorySegment.ofArray(array).asSlice((long) key.wrapAdjustment() + index, length);
        }
        byte[] scratch = scratch(length);
        key.getBytes(index, scratch, 0, length);
        return MemorySegment.ofArray(scratch).asSlice(0, length);
    }

    /** Hashes {@code keys[from, from + count)} into {@code hashes[0, count)} with the SIMD batch kernel. */
    public void hashAll(long[] keys, int from, int count, long[] hashes) {
        HashKernels.xxh3(seed, keys, from, hashes, 0, count);
    }

    /**
     * Hashes {@code count} little-endian 64-bit keys of a segment, from byte {@code offset}, into
     * {@code hashes[0, count)}: the keys are copied into the array and hashed there in place.
     */
    public void hashAll(MemorySegment keys, long offset, int count, long[] hashes) {
        MemorySegment.copy(keys, KEY_LAYOUT, offset, hashes, 0, count);
        HashKernels.xxh3(seed, hashes, 0, hashes, 0, count);
    }

    private static byte[] scratch(int capacity) {
        byte[][] holder = SCRATCH.get();
        if (holder[0].length < capacity) {
            holder[0] = new byte[Math.max(capacity, holder[0].length * 2)];
        }
        return holder[0];
    }
}
