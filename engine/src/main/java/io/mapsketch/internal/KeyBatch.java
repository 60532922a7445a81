package io.mapsketch.internal;

import java.lang.foreign.MemorySegment;

/**
 * Keys found in a {@link KeyIndex} together ({@link KeyIndex#findAll}): key i is the bytes
 * {@code [offsets[i], offsets[i] + lengths[i])} of one segment, with its hash; the find sets
 * {@code records[i]} and {@code slots[i]}. One batch serves one thread; it is refilled for each run of keys.
 */
final class KeyBatch {

    /** The most keys of a batch. */
    static final int SIZE = 32;

    final long[] offsets = new long[SIZE];
    final long[] lengths = new long[SIZE];
    final long[] hashes = new long[SIZE];
    final long[] records = new long[SIZE];
    final long[] slots = new long[SIZE];
    final long[] stored = new long[SIZE];
    MemorySegment bytes;
    int size;
    /** A mix of bytes read ahead of their use, kept so that the reads are not dropped. */
    long touched;
}
