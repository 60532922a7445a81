package io.mapsketch.internal;

import io.mapsketch.cardinality.HyperLogLog;
import io.mapsketch.membership.CuckooFilter;
import io.mapsketch.membership.FilterFullException;
import io.mapsketch.membership.MembershipFilter;
import io.mapsketch.memory.SketchRegion;
import java.lang.foreign.MemorySegment;

/**
 * A sketch that takes keys one at a time (membership filters, HyperLogLog): the add of every key form
 * ({@link KeyHasher}) and of every batch, over the two operations each sketch implements, the add of
 * one hash and of a batch of hashes. Batch adds update the items counter once per batch step. A sketch
 * of a scheme whose hash does not fit 64 bits (a Bloom filter of Guava's) overrides the key forms, in a
 * class that only such a sketch loads, so that the JIT sees one implementation while none is open.
 */
public abstract sealed class KeyedSketch extends RegionSketch permits MembershipFilter, HyperLogLog {

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
     * Adds a key, as its {@linkplain io.mapsketch##keys bytes}.
     *
     * @param key the key
     * @return {@code true} if the sketch changed (a filter bit or a register: the key was certainly not added before)
     * @throws IllegalStateException if the sketch is read-only or closed
     * @throws FilterFullException if a {@link CuckooFilter} has no room for the key (it is not added)
     */
    public boolean add(long key) {
        return addCounted(hasher.hash(key));
    }

    /**
     * Adds the key of the bytes {@code key[offset, offset + length)}; as {@link #add(long)}.
     *
     * @param key the array
     * @param offset first byte
     * @param length number of bytes
     * @return {@code true} if the sketch changed
     * @throws IndexOutOfBoundsException if the range is outside the array
     * @throws IllegalStateException if the sketch is read-only or closed
     * @throws FilterFullException if a {@link CuckooFilter} has no room for the key (it is not added)
     */
    public boolean add(byte[] key, int offset, int length) {
        return addCounted(hasher.hash(key, offset, length));
    }

    /**
     * Adds the key of a string's UTF-8 bytes; as {@link #add(long)}.
     *
     * @param key the characters
     * @return {@code true} if the sketch changed
     * @throws IllegalStateException if the sketch is read-only or closed
     * @throws FilterFullException if a {@link CuckooFilter} has no room for the key (it is not added)
     */
    public boolean add(CharSequence key) {
        return addCounted(hasher.hash(key));
    }

    /**
     * Adds the key of the bytes of a segment slice; as {@link #add(long)}.
     *
     * @param key the segment
     * @param offset first byte
     * @param length number of bytes
     * @return {@code true} if the sketch changed
     * @throws IndexOutOfBoundsException if the range is outside the segment
     * @throws IllegalStateException if the sketch is read-only or closed
     * @throws FilterFullException if a {@link CuckooFilter} has no room for the key (it is not added)
     */
    public boolean add(MemorySegment key, long offset, long length) {
        return addCounted(hasher.hash(key, offset, length));
    }

    /**
     * Adds every key of an array, as {@link #add(long)} would one by one; the items counter is
     * updated once per batch step. If a key is refused (a full {@link CuckooFilter}), the keys before
     * it stay added and counted, and the exception propagates. Cost: the keys are hashed with the SIMD
     * kernel {@value KeyHasher#BATCH} at a time, then added as a batch.
     *
     * @param keys the keys
     * @throws IllegalStateException if the sketch is read-only or closed
     * @throws FilterFullException if a {@link CuckooFilter} has no room for a key (the keys before it are added)
     */
    public void addAll(long[] keys) {
        requireWritable();
        hasher.forEachBatch(keys, this::addStep);
    }

    /**
     * Adds {@code count} keys stored as little-endian 64-bit values in a segment (for example a
     * network or file buffer); as {@link #addAll(long[])}.
     *
     * @param keys the segment
     * @param offset byte offset of the first key
     * @param count number of keys
     * @throws IndexOutOfBoundsException if the keys are outside the segment (nothing is added)
     * @throws IllegalStateException if the sketch is read-only or closed
     * @throws FilterFullException if a {@link CuckooFilter} has no room for a key (the keys before it are added)
     */
    public void addAll(MemorySegment keys, long offset, long count) {
        requireWritable();
        hasher.forEachBatch(keys, offset, count, this::addStep);
    }

    /**
     * Adds {@code count} keys of bytes, key {@code i} being {@code data[offsets[i], offsets[i] + lengths[i])}
     * (for example the lines of a buffer read from a file or a socket), as
     * {@link #add(byte[], int, int)} would one by one; as {@link #addAll(long[])}, each key hashed
     * with XXH3 of its bytes (the blocked Bloom filter then probes a batch in phases, so its cache
     * misses overlap).
     *
     * @param data the bytes of the keys
     * @param offsets where each key starts
     * @param lengths each key's byte count
     * @param count how many keys, at most the length of both arrays
     * @throws IndexOutOfBoundsException if {@code count} exceeds an array (nothing is added) or a key is
     *     outside {@code data} (the batch steps before it are added)
     * @throws IllegalStateException if the sketch is read-only or closed
     * @throws FilterFullException if a {@link CuckooFilter} has no room for a key (the keys before it are added)
     */
    public void addAll(byte[] data, int[] offsets, int[] lengths, int count) {
        requireWritable();
        hasher.forEachBatch(data, offsets, lengths, count, this::addStep);
    }

    private void addStep(long[] hashes, long first, int count) {
        addHashes(hashes, 0, count);
        countItems(count);
    }

    private boolean addCounted(long hash) {
        requireWritable();
        boolean changed = addHash(hash);
        countItems(1);
        return changed;
    }
}
