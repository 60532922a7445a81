package io.mapsketch.membership;

import io.mapsketch.internal.GuavaKeyHasher;
import io.mapsketch.internal.KeyHasher;
import io.mapsketch.internal.OwnedScratch;
import io.mapsketch.memory.SketchRegion;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A classic Bloom filter that probes as Guava's {@code MURMUR128_MITZ_64} does, so that a filter
 * imported from Guava answers as Guava's {@code mightContain} and takes adds as its {@code put}: a key's
 * 128-bit Murmur3 hash ({@link GuavaKeyHasher}) gives {@code h1} and {@code h2}, and probe i is bit
 * {@code ((h1 + i h2) & Long.MAX_VALUE) % m}. The funnel the header records ({@link BloomProbing})
 * says how a {@code long} key becomes bytes.
 *
 * <p>The hash does not fit the 64 bits the engine hands from key to sketch, so this class takes every
 * key form itself; batches go key by key. Only a filter of this scheme loads it. Cost: one Murmur3 pass
 * and k remainders per key; a single-key call borrows this thread's pair of halves ({@link OwnedScratch}).
 */
final class GuavaProbedBloomFilter extends BloomFilter {

    private final GuavaKeyHasher guava;
    /** Whether a {@code long} key hashes as its decimal string (the UTF-8 funnel) rather than its bytes. */
    private final boolean longAsDecimal;

    private final OwnedScratch<long[]> halves = new OwnedScratch<>(() -> new long[2]);

    private GuavaProbedBloomFilter(SketchRegion region, BloomFormat format) {
        super(region, format);
        this.guava = (GuavaKeyHasher) hasher;
        this.longAsDecimal = format.variant() == BloomProbing.GUAVA_UTF8.variant();
    }

    /** The filter of a Guava-scheme file, typed as the base class so that naming this method loads nothing. */
    static BloomFilter create(SketchRegion region, BloomFormat format) {
        return new GuavaProbedBloomFilter(region, format);
    }

    @Override
    public boolean add(long key) {
        requireWritable();
        OwnedScratch.Lease<long[]> lease = halves.borrow();
        long[] h = lease.piece();
        guava.halves(key, longAsDecimal, h);
        boolean changed = setProbes(h[0], h[1]);
        halves.giveBack(lease);
        countItems(1);
        return changed;
    }

    @Override
    public boolean add(byte[] key, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, key.length);
        return add(MemorySegment.ofArray(key), offset, length);
    }

    @Override
    public boolean add(CharSequence key) {
        requireWritable();
        OwnedScratch.Lease<long[]> lease = halves.borrow();
        long[] h = lease.piece();
        guava.halves(key, h);
        boolean changed = setProbes(h[0], h[1]);
        halves.giveBack(lease);
        countItems(1);
        return changed;
    }

    @Override
    public boolean add(MemorySegment key, long offset, long length) {
        requireWritable();
        OwnedScratch.Lease<long[]> lease = halves.borrow();
        long[] h = lease.piece();
        guava.halves(key, offset, length, h);
        boolean changed = setProbes(h[0], h[1]);
        halves.giveBack(lease);
        countItems(1);
        return changed;
    }

    @Override
    public void addAll(long[] keys) {
        requireWritable();
        long[] h = new long[2];
        for (long key : keys) {
            guava.halves(key, longAsDecimal, h);
            setProbes(h[0], h[1]);
        }
        countItems(keys.length);
    }

    @Override
    public void addAll(MemorySegment keys, long offset, long count) {
        requireWritable();
        KeyHasher.checkLongKeys(keys, offset, count);
        long[] h = new long[2];
        for (long i = 0; i < count; i++) {
            guava.halves(keys.get(KeyHasher.KEY_LAYOUT, offset + i * Long.BYTES), longAsDecimal, h);
            setProbes(h[0], h[1]);
        }
        countItems(count);
    }

    @Override
    public void addAll(byte[] data, int[] offsets, int[] lengths, int count) {
        requireWritable();
        Objects.checkFromIndexSize(0, count, offsets.length);
        Objects.checkFromIndexSize(0, count, lengths.length);
        MemorySegment bytes = MemorySegment.ofArray(data);
        long[] h = new long[2];
        for (int i = 0; i < count; i++) {
            guava.halves(bytes, offsets[i], lengths[i], h);
            setProbes(h[0], h[1]);
            countItems(1);
        }
    }

    @Override
    public boolean mightContain(long key) {
        OwnedScratch.Lease<long[]> lease = halves.borrow();
        long[] h = lease.piece();
        guava.halves(key, longAsDecimal, h);
        boolean found = testProbes(h[0], h[1]);
        halves.giveBack(lease);
        return found;
    }

    @Override
    public boolean mightContain(byte[] key, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, key.length);
        return mightContain(MemorySegment.ofArray(key), offset, length);
    }

    @Override
    public boolean mightContain(CharSequence key) {
        OwnedScratch.Lease<long[]> lease = halves.borrow();
        long[] h = lease.piece();
        guava.halves(key, h);
        boolean found = testProbes(h[0], h[1]);
        halves.giveBack(lease);
        return found;
    }

    @Override
    public boolean mightContain(MemorySegment key, long offset, long length) {
        OwnedScratch.Lease<long[]> lease = halves.borrow();
        long[] h = lease.piece();
        guava.halves(key, offset, length, h);
        boolean found = testProbes(h[0], h[1]);
        halves.giveBack(lease);
        return found;
    }

    @Override
    public void mightContainAll(long[] keys, boolean[] results) {
        requireAnswerRoom("results", results.length, keys.length);
        long[] h = new long[2];
        for (int i = 0; i < keys.length; i++) {
            guava.halves(keys[i], longAsDecimal, h);
            results[i] = testProbes(h[0], h[1]);
        }
    }

    @Override
    public void mightContainAll(byte[] data, int[] offsets, int[] lengths, int count, boolean[] results) {
        Objects.checkFromIndexSize(0, count, results.length);
        Objects.checkFromIndexSize(0, count, offsets.length);
        Objects.checkFromIndexSize(0, count, lengths.length);
        MemorySegment bytes = MemorySegment.ofArray(data);
        long[] h = new long[2];
        for (int i = 0; i < count; i++) {
            guava.halves(bytes, offsets[i], lengths[i], h);
            results[i] = testProbes(h[0], h[1]);
        }
    }

    /** Sets the k bits of the key of halves {@code h1}, {@code h2}; returns whether one was clear. */
    private boolean setProbes(long h1, long h2) {
        boolean changed = false;
        long combined = h1;
        for (int i = 0; i < hashes; i++) {
            long bit = (combined & Long.MAX_VALUE) % bits;
            changed |= setBits((bit >>> 6) << 3, 1L << bit);
            combined += h2;
        }
        return changed;
    }

    /** Tells whether the k bits of the key of halves {@code h1}, {@code h2} are all set. */
    private boolean testProbes(long h1, long h2) {
        long combined = h1;
        for (int i = 0; i < hashes; i++) {
            long bit = (combined & Long.MAX_VALUE) % bits;
            if ((payload.getLong((bit >>> 6) << 3) & 1L << bit) == 0) {
                return false;
            }
            combined += h2;
        }
        return true;
    }
}
