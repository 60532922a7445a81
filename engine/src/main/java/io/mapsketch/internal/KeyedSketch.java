package io.mapsketch.internal;

import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.membership.CuckooFilter;
import io.mapsketch.membership.FilterFullException;
import io.mapsketch.membership.MembershipFilter;
import io.mapsketch.memory.SketchRegion;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import org.agrona.DirectBuffer;

/**
 * A sketch that takes keys one at a time (membership filters, HyperLogLog): every form a key may
 * arrive in, and the batch paths. The same bytes count as the same key whatever the form: a
 * {@code long} is its eight little-endian bytes, a {@code CharSequence} its UTF-8 bytes, a byte
 * array, segment slice or Agrona {@code DirectBuffer} range its bytes. Batch methods hash whole
 * arrays with the SIMD hash kernel and update the items counter once per batch.
 */
public abstract sealed class KeyedSketch extends RegionSketch permits MembershipFilter, HyperLogLog {

    /** Keys hashed per batch step: large enough to amortise, small enough to stay in L1. */
    protected static final int BATCH = 512;

    private static final ThreadLocal<long[]> HASHES = ThreadLocal.withInitial(() -> new long[BATCH]);

    protected KeyedSketch(SketchRegion region) {
        super(region);
    }

    /** Adds the key of this hash; returns whether the sketch changed. Callers check writability and count items. */
    protected abstract boolean addHash(long hash);

    /**
     * Adds the keys of {@code hashes[from, from + count)}, the caller's scratch space, which the sketch
     * may overwrite. A sketch whose add can be refused counts the keys it added before the refused one
     * itself, then throws; callers count the batch otherwise.
     */
    protected abstract void addHashes(long[] hashes, int from, int count);

    /**
     * Adds a key.
     *
     * @param key the key, hashed as its eight little-endian bytes
     * @return {@code true} if the sketch changed (a filter bit or a register: the key was certainly not added before)
     * @throws IllegalStateException if the sketch is read-only or closed
     * @throws FilterFullException if a {@link CuckooFilter} has no room for the key (it is not added)
     */
    public final boolean add(long key) {
        return addCounted(hasher.hash(key));
    }

    /**
     * Adds the bytes {@code key[offset, offset + length)}.
     *
     * @param key the array
     * @param offset first byte
     * @param length number of bytes
     * @return {@code true} if the sketch changed
     * @throws IndexOutOfBoundsException if the range is outside the array
     * @throws IllegalStateException if the sketch is read-only or closed
     * @throws FilterFullException if a {@link CuckooFilter} has no room for the key (it is not added)
     */
    public final boolean add(byte[] key, int offset, int length) {
        return addCounted(hasher.hash(key, offset, length));
    }

    /**
     * Adds a string by its UTF-8 bytes.
     *
     * @param key the characters
     * @return {@code true} if the sketch changed
     * @throws IllegalStateException if the sketch is read-only or closed
     * @throws FilterFullException if a {@link CuckooFilter} has no room for the key (it is not added)
     */
    public final boolean add(CharSequence key) {
        return addCounted(hasher.hash(key));
    }

    /**
     * Adds the bytes of a segment slice.
     *
     * @param key the segment
     * @param offset first byte
     * @param length number of bytes
     * @return {@code true} if the sketch changed
     * @throws IndexOutOfBoundsException if the range is outside the segment
     * @throws IllegalStateException if the sketch is read-only or closed
     * @throws FilterFullException if a {@link CuckooFilter} has no room for the key (it is not added)
     */
    public final boolean add(MemorySegment key, long offset, long length) {
        return addCounted(hasher.hash(key, offset, length));
    }

    /**
     * Adds the bytes of an Agrona buffer range.
     *
     * @param key the buffer
     * @param index first byte
     * @param length number of bytes
     * @return {@code true} if the sketch changed
     * @throws IndexOutOfBoundsException if the range is outside the buffer
     * @throws IllegalStateException if the sketch is read-only or closed
     * @throws FilterFullException if a {@link CuckooFilter} has no room for the key (it is not added)
     */
    public final boolean add(DirectBuffer key, int index, int length) {
        return addCounted(hasher.hash(key, index, length));
    }

    /**
     * Adds every key of an array, as {@link #add(long)} would one by one; the items counter is
     * updated once per batch of {@value #BATCH}. If a key is refused (a full {@link CuckooFilter}), the
     * keys before it stay added and counted, and the exception propagates. Cost: the keys are hashed
     * with the SIMD kernel in batches of {@value #BATCH}.
     *
     * @param keys the keys
     * @throws IllegalStateException if the sketch is read-only or closed
     * @throws FilterFullException if a {@link CuckooFilter} has no room for the key (it is not added)
     */
    public final void addAll(long[] keys) {
        requireWritable();
        for (int from = 0; from < keys.length; from += BATCH) {
            int count = Math.min(BATCH, keys.length - from);
            addHashes(hashBatch(keys, from, count), 0, count);
            countItems(count);
        }
    }

    /**
     * Adds {@code count} keys stored as little-endian 64-bit values in a segment (for example a
     * network or file buffer), as {@link #add(long)} would one by one.
     *
     * @param keys the segment
     * @param offset byte offset of the first key
     * @param count number of keys
     * @throws IndexOutOfBoundsException if the keys are outside the segment
     * @throws IllegalStateException if the sketch is read-only or closed
     * @throws FilterFullException if a {@link CuckooFilter} has no room for the key (it is not added)
     */
    public final void addAll(MemorySegment keys, long offset, long count) {
        requireWritable();
        Objects.checkFromIndexSize(offset, Math.multiplyExact(count, Long.BYTES), keys.byteSize());
        long[] hashes = HASHES.get();
        for (long done = 0; done < count; done += BATCH) {
            int n = (int) Math.min(BATCH, count - done);
            hasher.hashAll(keys, offset + done * Long.BYTES, n, hashes);
            addHashes(hashes, 0, n);
            countItems(n);
        }
    }

    /**
     * Adds {@code count} keys of bytes, key {@code i} being {@code data[offsets[i], offsets[i] + lengths[i])}
     * (for example the lines of a buffer read from a file or a socket), as
     * {@link #add(byte[], int, int)} would one by one; the items counter is updated once per batch.
     * Cost: an XXH3 of each key's bytes, then the batch path of the sketch ({@value #BATCH} keys at a
     * time: the blocked Bloom filter probes a batch in phases, so its cache misses overlap).
     *
     * @param data the bytes of the keys
     * @param offsets where each key starts
     * @param lengths each key's byte count
     * @param count how many keys, at most the length of both arrays
     * @throws IndexOutOfBoundsException if {@code count} exceeds an array or a key is outside {@code data}
     * @throws IllegalStateException if the sketch is read-only or closed
     * @throws FilterFullException if a {@link CuckooFilter} has no room for a key (the keys before it are added)
     */
    public final void addAll(byte[] data, int[] offsets, int[] lengths, int count) {
        requireWritable();
        for (int from = 0; from < count; from += BATCH) {
            int n = Math.min(BATCH, count - from);
            addHashes(hashBatch(data, offsets, lengths, from, n), 0, n);
            countItems(n);
        }
    }

    /** Hashes the byte keys {@code from .. from + n - 1} (at most {@value #BATCH}) into this thread's scratch array. */
    protected final long[] hashBatch(byte[] data, int[] offsets, int[] lengths, int from, int n) {
        Objects.checkFromIndexSize(from, n, offsets.length);
        Objects.checkFromIndexSize(from, n, lengths.length);
        long[] hashes = HASHES.get();
        for (int i = 0; i < n; i++) {
            hashes[i] = hasher.hash(data, offsets[from + i], lengths[from + i]);
        }
        return hashes;
    }

    /** Hashes {@code keys[from, from + count)}, at most {@value #BATCH}, into this thread's scratch array. */
    protected final long[] hashBatch(long[] keys, int from, int count) {
        long[] hashes = HASHES.get();
        hasher.hashAll(keys, from, count, hashes);
        return hashes;
    }

    private boolean addCounted(long hash) {
        requireWritable();
        boolean changed = addHash(hash);
        countItems(1);
        return changed;
    }
}
