package io.mapsketch.frequency;

import io.mapsketch.internal.KeyHasher;
import io.mapsketch.internal.OwnedScratch;
import io.mapsketch.internal.SparkCountMinBuckets;
import io.mapsketch.internal.SparkHashes;
import io.mapsketch.internal.Utf8;
import io.mapsketch.memory.SketchRegion;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A Count-Min sketch that counts as Spark's {@code CountMinSketchImpl} does, so that a sketch imported
 * from Spark keeps Spark's counters under adds and answers Spark's {@code estimateCount}: the row
 * multipliers are those Spark draws from the header's seed ({@link SparkCountMinBuckets#hashA}); a
 * {@code long} key (Spark's integral items) takes column {@link SparkCountMinBuckets#longBucket} in each
 * row, bytes and a string's UTF-8 bytes {@link SparkCountMinBuckets#bytesBucket} of their Murmur3_x86_32
 * pair with seed 0. Counters are 64-bit, as Spark's, and plain (Spark has no conservative update).
 *
 * <p>Error direction as Count-Min: overcount only. What does not fit is refused, not saturated: an add
 * that would take N past {@code 2^63 - 2^55 - 1} is refused before it changes anything (Spark's
 * {@code long}s would wrap past {@code 2^63 - 1}), so no counter, which is at most N, ever saturates.
 * A count below 1 is refused (Spark takes 0 as a no-op).
 *
 * <p>The keys do not reach the counters through one 64-bit hash (a {@code long} key is placed by itself,
 * bytes by their pair), so this class takes every key form itself; batches go key by key. Only a sketch
 * of this scheme loads it. Cost: per key a multiply per row ({@code long}) or two Murmur3_x86_32 passes
 * (bytes), and d counter updates.
 */
final class SparkHashedCountMin extends CountMinSketch {

    private final long[] multipliers;
    private final int depth;
    private final int width;

    private SparkHashedCountMin(SketchRegion region, CountMinFormat format) {
        super(region, format);
        this.depth = format.depth();
        this.width = format.width();
        this.multipliers = SparkCountMinBuckets.hashA((int) region.header().hashSeed(), depth);
    }

    /** The sketch of a Spark-scheme file, typed as the base class so that naming this method loads nothing. */
    static CountMinSketch create(SketchRegion region, CountMinFormat format) {
        return new SparkHashedCountMin(region, format);
    }

    @Override
    public long add(long key) {
        return add(key, 1);
    }

    @Override
    public long add(long key, long count) {
        admit(count);
        long min = -1L;
        for (int row = 0; row < depth; row++) {
            long column = SparkCountMinBuckets.longBucket(multipliers[row], key, width);
            min = CounterMatrix.unsignedMin(min, counters.add(counters.columnOffset(row, column), count));
        }
        countAdmitted(1, count);
        return estimates.cap(min);
    }

    @Override
    public long add(byte[] key, int offset, int length, long count) {
        Objects.checkFromIndexSize(offset, length, key.length);
        return add(MemorySegment.ofArray(key), offset, length, count);
    }

    @Override
    public long add(CharSequence key, long count) {
        OwnedScratch.Lease<KeyHasher.Utf8Buffer> buffer = hasher.borrowUtf8Buffer();
        byte[] utf8 = buffer.piece().forChars(key.length());
        long estimate = add(MemorySegment.ofArray(utf8), 0, Utf8.encode(key, utf8), count);
        hasher.giveBackUtf8Buffer(buffer);
        return estimate;
    }

    @Override
    public long add(MemorySegment key, long offset, long length, long count) {
        Objects.checkFromIndexSize(offset, length, key.byteSize());
        admit(count);
        long pair = SparkHashes.pairOfBytes(0, key, offset, length);
        long min = -1L;
        for (int row = 0; row < depth; row++) {
            long column = SparkCountMinBuckets.bytesBucket(pair, row, width);
            min = CounterMatrix.unsignedMin(min, counters.add(counters.columnOffset(row, column), count));
        }
        countAdmitted(1, count);
        return estimates.cap(min);
    }

    @Override
    public void addAll(long[] keys) {
        for (long key : keys) {
            add(key, 1);
        }
    }

    @Override
    public void addAll(MemorySegment keys, long offset, long count) {
        KeyHasher.checkLongKeys(keys, offset, count);
        for (long i = 0; i < count; i++) {
            add(keys.get(KeyHasher.KEY_LAYOUT, offset + i * Long.BYTES), 1);
        }
    }

    @Override
    public void addAll(byte[] data, int[] offsets, int[] lengths, int count) {
        Objects.checkFromIndexSize(0, count, offsets.length);
        Objects.checkFromIndexSize(0, count, lengths.length);
        for (int i = 0; i < count; i++) {
            Objects.checkFromIndexSize(offsets[i], lengths[i], data.length);
        }
        MemorySegment bytes = MemorySegment.ofArray(data);
        for (int i = 0; i < count; i++) {
            add(bytes, offsets[i], lengths[i], 1);
        }
    }

    @Override
    public long estimate(long key) {
        long min = -1L;
        for (int row = 0; row < depth; row++) {
            long column = SparkCountMinBuckets.longBucket(multipliers[row], key, width);
            min = CounterMatrix.unsignedMin(min, counters.load(counters.columnOffset(row, column)));
        }
        return estimates.cap(min);
    }

    @Override
    public void estimateAll(long[] keys, long[] estimates) {
        requireAnswerRoom("estimates", estimates.length, keys.length);
        for (int i = 0; i < keys.length; i++) {
            estimates[i] = estimate(keys[i]);
        }
    }

    @Override
    public long estimate(byte[] key, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, key.length);
        return estimate(MemorySegment.ofArray(key), offset, length);
    }

    @Override
    public long estimate(CharSequence key) {
        OwnedScratch.Lease<KeyHasher.Utf8Buffer> buffer = hasher.borrowUtf8Buffer();
        byte[] utf8 = buffer.piece().forChars(key.length());
        long estimate = estimate(MemorySegment.ofArray(utf8), 0, Utf8.encode(key, utf8));
        hasher.giveBackUtf8Buffer(buffer);
        return estimate;
    }

    @Override
    public long estimate(MemorySegment key, long offset, long length) {
        long pair = SparkHashes.pairOfBytes(0, key, offset, length);
        long min = -1L;
        for (int row = 0; row < depth; row++) {
            long column = SparkCountMinBuckets.bytesBucket(pair, row, width);
            min = CounterMatrix.unsignedMin(min, counters.load(counters.columnOffset(row, column)));
        }
        return estimates.cap(min);
    }

    /** Refuses an add before it changes anything: a read-only sketch, a count below 1, N past its limit. */
    private void admit(long count) {
        requireWritable();
        if (count < 1) {
            throw new IllegalArgumentException("count = " + count + ", must be in [1, " + Long.MAX_VALUE + "]");
        }
        admitWeight(count, "count");
    }
}
