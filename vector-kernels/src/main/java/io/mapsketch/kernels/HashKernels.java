package io.mapsketch.kernels;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Batch hashing of 64-bit keys with XXH3-64 and a seed: for every key and seed the result equals,
 * bit for bit, the XXH3-64 hash of the key's eight little-endian bytes, as hash4j's
 * {@code Hashing.xxh3_64(seed).hashLongToLong(key)} computes it. Sketches store the seed in their
 * file header, so every process that opens a sketch computes the same bits.
 *
 * <p>A batch may be hashed in place: the key and hash ranges may be the same range of one array or
 * segment. If they overlap otherwise, the result is unspecified.
 *
 * <p><b>Errors.</b> Arguments are checked before anything is read: a negative count is an
 * {@link IllegalArgumentException}, a range outside its array or segment an
 * {@link IndexOutOfBoundsException}, a read-only output segment an
 * {@link IllegalArgumentException}; each message names the parameter, its value and the valid
 * range.
 *
 * <p><b>Cost.</b> No allocation; about a dozen arithmetic instructions per key, which the Vector
 * API implementation runs on a whole vector of keys at once (eight at 512 bits).
 */
public final class HashKernels {

    private HashKernels() {}

    /**
     * Lazy holder of the batch implementation, so that single-key hashing never chooses the kernels (a
     * command that hashes one key starts without loading the Vector API).
     */
    private static final class Batch {
        static final HashOps OPS = KernelProvider.active().hashes();
    }

    /**
     * Returns the XXH3-64 hash of one key with a seed: the hash of the key's eight little-endian
     * bytes.
     *
     * @param seed the hash seed
     * @param key the key
     * @return the 64-bit hash
     */
    public static long xxh3(long seed, long key) {
        return Xxh3.hash(key, Xxh3.bitflip(seed));
    }

    /**
     * Returns the constant that XXH3-64 derives from a seed for 8-byte keys, for callers that hash
     * many keys with one seed and would otherwise derive it again for every key: pass it to
     * {@link #xxh3WithSeedConstant(long, long)}.
     *
     * @param seed the hash seed
     * @return the seed's constant for 8-byte keys
     */
    public static long xxh3SeedConstant(long seed) {
        return Xxh3.bitflip(seed);
    }

    /**
     * Returns the XXH3-64 hash of one key given its seed's constant: equal, bit for bit, to
     * {@link #xxh3(long, long) xxh3(seed, key)} when {@code seedConstant} is
     * {@link #xxh3SeedConstant(long) xxh3SeedConstant(seed)}. Cost: two multiplies and a few
     * shifts and XORs, no table load.
     *
     * @param seedConstant {@link #xxh3SeedConstant(long)} of the seed
     * @param key the key
     * @return the 64-bit hash
     */
    public static long xxh3WithSeedConstant(long seedConstant, long key) {
        return Xxh3.hash(key, seedConstant);
    }

    /**
     * Returns the XXH3-64 hash of a byte range with a seed, for keys that are not a bare
     * {@code long}: equal to hash4j's {@code Hashing.xxh3_64(seed).hashBytesToLong} of the same
     * bytes for every length, and to {@link #xxh3(long, long)} of a {@code long} for its eight
     * little-endian bytes. Cost: a few nanoseconds up to 16 bytes, then about a byte per cycle; no
     * allocation, except 192 bytes for inputs over 240 bytes with a non-zero seed.
     *
     * @param seed the hash seed
     * @param data any segment (heap, native or mapped)
     * @param offset first byte
     * @param length number of bytes, {@code >= 0}
     * @return the 64-bit hash
     * @throws IndexOutOfBoundsException if the range does not lie inside the segment
     */
    public static long xxh3Bytes(long seed, MemorySegment data, long offset, long length) {
        Objects.checkFromIndexSize(
                offset, length, Objects.requireNonNull(data, "data").byteSize());
        return Xxh3.hashBytes(data, offset, length, seed);
    }

    /**
     * Hashes a batch of keys: {@code hashes[hashesFrom + i] = xxh3(seed, keys[keysFrom + i])} for
     * {@code i} in {@code 0..count-1}.
     *
     * @param seed the hash seed
     * @param keys the keys
     * @param keysFrom index of the first key
     * @param hashes receives the hashes; may be {@code keys} itself with {@code hashesFrom == keysFrom}
     * @param hashesFrom index of the first hash
     * @param count number of keys, {@code >= 0}
     * @throws IllegalArgumentException if {@code count < 0}
     * @throws IndexOutOfBoundsException if a range does not lie inside its array
     * @throws NullPointerException if an array is {@code null}
     */
    public static void xxh3(long seed, long[] keys, int keysFrom, long[] hashes, int hashesFrom, int count) {
        Checks.arrayRange("keys", Objects.requireNonNull(keys, "keys").length, "keysFrom", keysFrom, "count", count);
        Checks.arrayRange(
                "hashes", Objects.requireNonNull(hashes, "hashes").length, "hashesFrom", hashesFrom, "count", count);
        Batch.OPS.xxh3(seed, keys, keysFrom, hashes, hashesFrom, count);
    }

    /**
     * Hashes a batch of little-endian 64-bit keys in a segment into little-endian 64-bit hashes in a
     * segment. Offsets are in bytes and may be any byte offset.
     *
     * @param seed the hash seed
     * @param keys the segment read
     * @param keysOffset byte offset of the first key
     * @param hashes the segment written; may be {@code keys} itself with the same offset
     * @param hashesOffset byte offset of the first hash
     * @param count number of keys, {@code >= 0}
     * @throws IllegalArgumentException if {@code count < 0} or {@code hashes} is read-only
     * @throws IndexOutOfBoundsException if a slice does not lie inside its segment
     */
    public static void xxh3(
            long seed, MemorySegment keys, long keysOffset, MemorySegment hashes, long hashesOffset, long count) {
        Checks.slice("keys", keys, "keysOffset", keysOffset, "count", count, Long.BYTES);
        Checks.slice("hashes", hashes, "hashesOffset", hashesOffset, "count", count, Long.BYTES);
        Checks.writable("hashes", hashes);
        Batch.OPS.xxh3(seed, keys, keysOffset, hashes, hashesOffset, count);
    }
}
