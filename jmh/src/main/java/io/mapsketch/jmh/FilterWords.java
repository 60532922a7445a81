package io.mapsketch.jmh;

import io.mapsketch.internal.SketchInternals;
import io.mapsketch.membership.MembershipFilter;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Field;
import java.util.concurrent.atomic.AtomicLongArray;
import org.fastfilter.bloom.BlockedBloom;

/**
 * The 64-bit words of a Bloom filter's bit array, read and written directly: the bulk path by which
 * {@link BloomSweepBenchmark} brings a filter too large to fill by adds to its design fill, and
 * measures how full a filter is. mapsketch's filters through their payload segment; Guava's
 * {@code BloomFilter} through its {@code AtomicLongArray} and fastfilter's {@code BlockedBloom}
 * through its {@code long[]}, both reached by reflection (neither library has a bulk path). Plain
 * accesses: the benchmark writes before it measures, from one thread.
 */
interface FilterWords {

    /** Words in the bit array, padding words included. */
    long count();

    long get(long index);

    void set(long index, long word);

    /** The set bits over all bits. Cost: one pass over the words. */
    default double fill() {
        long set = 0;
        for (long i = 0; i < count(); i++) {
            set += Long.bitCount(get(i));
        }
        return set / (64.0 * count());
    }

    /** The words of mapsketch's filter: its payload, header excluded. */
    static FilterWords of(MembershipFilter filter) {
        MemorySegment payload = SketchInternals.payload(filter).segment();
        long count = payload.byteSize() / Long.BYTES;
        return new FilterWords() {
            @Override
            public long count() {
                return count;
            }

            @Override
            public long get(long index) {
                return payload.getAtIndex(ValueLayout.JAVA_LONG, index);
            }

            @Override
            public void set(long index, long word) {
                payload.setAtIndex(ValueLayout.JAVA_LONG, index, word);
            }
        };
    }

    /** The words of Guava's filter: the {@code AtomicLongArray} of its {@code LockFreeBitArray}. */
    static FilterWords of(com.google.common.hash.BloomFilter<?> filter) {
        AtomicLongArray data = (AtomicLongArray) field(field(filter, "bits"), "data");
        return new FilterWords() {
            @Override
            public long count() {
                return data.length();
            }

            @Override
            public long get(long index) {
                return data.getPlain((int) index);
            }

            @Override
            public void set(long index, long word) {
                data.setPlain((int) index, word);
            }
        };
    }

    /** The words of fastfilter's filter: its {@code long[] data}, padding words at the end included. */
    static FilterWords of(BlockedBloom filter) {
        long[] data = (long[]) field(filter, "data");
        return new FilterWords() {
            @Override
            public long count() {
                return data.length;
            }

            @Override
            public long get(long index) {
                return data[(int) index];
            }

            @Override
            public void set(long index, long word) {
                data[(int) index] = word;
            }
        };
    }

    private static Object field(Object owner, String name) {
        try {
            Field field = owner.getClass().getDeclaredField(name);
            field.setAccessible(true);
            return field.get(owner);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + owner.getClass().getName() + "." + name, e);
        }
    }
}
