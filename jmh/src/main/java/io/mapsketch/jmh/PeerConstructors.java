package io.mapsketch.jmh;

import static io.mapsketch.jmh.BenchmarkSettings.FASTFILTER_BITS_PER_KEY;
import static io.mapsketch.jmh.BenchmarkSettings.SKETCH_SEED;

import java.lang.reflect.Constructor;
import org.apache.datasketches.count.CountMinSketch;
import org.fastfilter.bloom.BlockedBloom;

/**
 * The peers' constructors that take the benchmarks' settings but are package-private in their library,
 * called by reflection, for the speed benchmarks and {@link MemoryFootprint} alike.
 */
final class PeerConstructors {

    private PeerConstructors() {}

    /**
     * fastfilter's {@code BlockedBloom(entryCount, bitsPerKey)} at
     * {@value BenchmarkSettings#FASTFILTER_BITS_PER_KEY} bits per key.
     *
     * @param items the entry count
     * @return an empty filter
     * @throws IllegalStateException if the constructor cannot be called
     */
    static BlockedBloom fastfilterBlockedBloom(int items) {
        try {
            Constructor<BlockedBloom> constructor = BlockedBloom.class.getDeclaredConstructor(int.class, int.class);
            constructor.setAccessible(true);
            return constructor.newInstance(items, FASTFILTER_BITS_PER_KEY);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create fastfilter's BlockedBloom", e);
        }
    }

    /**
     * DataSketches' {@code CountMinSketch(numHashes, numBuckets, seed)} with the sketches' seed (its public
     * API only deserializes).
     *
     * @param depth the number of hashes (rows)
     * @param width the number of buckets per row
     * @return an empty sketch
     * @throws IllegalStateException if the constructor cannot be called
     */
    static CountMinSketch dataSketchesCountMin(byte depth, int width) {
        try {
            Constructor<CountMinSketch> constructor =
                    CountMinSketch.class.getDeclaredConstructor(byte.class, int.class, long.class);
            constructor.setAccessible(true);
            return constructor.newInstance(depth, width, SKETCH_SEED);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create DataSketches' CountMinSketch", e);
        }
    }
}
