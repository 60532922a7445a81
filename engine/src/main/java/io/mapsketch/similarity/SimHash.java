package io.mapsketch.similarity;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchBuilder;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.internal.RegionSketch;
import io.mapsketch.kernels.BitSetKernels;
import io.mapsketch.kernels.SimHashKernels;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.OptionalLong;

/**
 * SimHash: "which documents are near-duplicates of this one?" A mapped table of up to N 64-bit
 * fingerprints (from {@link SimHashFeatures}), each in a slot with an index, and a lookup of every
 * stored fingerprint within d bits of a query ({@link #within}). Hamming distance tracks the cosine
 * similarity of the documents' weighted features ({@code 64 θ / π} bits on average for angle θ):
 * near-duplicates are a few bits apart, unrelated documents about 32; d = 3 to 6 is the common range.
 *
 * <p>Error direction: the lookup itself is exact (every stored fingerprint within d bits is
 * returned, no other). The fingerprint is the estimate: two documents of cosine similarity
 * {@code cos θ} differ in a binomial number of bits with mean {@code 64 θ / π}, so a near-duplicate
 * can fall outside d (a miss) and an unrelated document inside it (a false match), both rarer the
 * further the documents are from the threshold.
 *
 * <p>Slots are filled by {@link #append} (the next index of an append cursor) or {@link #put} (a
 * chosen index, for example a document id); a slot holds its last fingerprint and cannot be emptied.
 * Use either appends or puts on a table, or puts only below the cursor: an append takes the cursor's
 * index whatever a put stored there.
 *
 * <p>Concurrency: {@code SHARED} writers in any number of threads and processes may append and put at
 * once: the cursor advances by compare-and-set, a fingerprint is stored with a release store before
 * its slot's occupancy bit is set atomically, and readers load occupancy with acquire before the
 * fingerprints, so a lookup never reports a slot whose fingerprint it has not seen. The
 * {@code EXCLUSIVE} writer stores plainly.
 *
 * <p>Cost of {@link #within}: a vectorised scan, not an index. It reads every slot below the
 * high-water mark (one past the highest slot ever filled): 8 bytes of fingerprint and one occupancy
 * bit each, an XOR, a popcount and a compare per fingerprint, eight per instruction at 512 bits, so
 * it runs near memory bandwidth; {@code docs/performance.md} gives measured figures. The time does
 * not depend on d. Permuted-block tables would answer small d faster on large tables at the price of
 * several copies of the table; they are not implemented. Memory: about 8.125 bytes per slot.
 */
// The mechanics every sketch shares sit in the unexported package; their public methods are this type's.
@SuppressWarnings("exports")
public final class SimHash extends RegionSketch {

    /** The largest capacity, 2^40 slots (8 TiB of fingerprints). */
    public static final long MAX_CAPACITY = 1L << 40;
    /** The id of the fingerprint scheme ({@link SimHashFeatures} over XXH3-64) this build writes and reads. */
    public static final int FINGERPRINT_SCHEME = 1;

    /** Slots scanned per kernel call: 32 KiB of fingerprints, one match buffer's worth. */
    static final int CHUNK = 4096;

    private static final long CURSOR = 0;
    private static final long HIGH_WATER = 8;
    private static final long CONTROL_BYTES = 64;

    private final SimHashFormat format;
    private final long capacity;
    private final long fingerprintsOffset;
    private final MemorySegment memory;

    private SimHash(SketchRegion region, SimHashFormat format) {
        super(region);
        this.format = format;
        this.capacity = format.capacity();
        this.fingerprintsOffset = CONTROL_BYTES + occupancyBytes(capacity);
        this.memory = payload.segment();
    }

    /**
     * Starts a builder; the capacity is required.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Opens a SimHash table file; its capacity comes from the header.
     *
     * @param file the sketch file
     * @param mode read-only, shared writer or exclusive writer
     * @return the open table
     * @throws CorruptSketchFileException if a parameter is out of range, the payload is not the size
     *     they imply, or the append cursor or high-water mark lies outside the table
     * @throws io.mapsketch.SketchFileException if the file is not a valid SimHash file or is
     *     locked against this mode
     * @throws IOException if the file cannot be read
     */
    public static SimHash open(Path file, OpenMode mode) throws IOException {
        return open(file, mode, SketchKind.SIMHASH, SimHash::read);
    }

    private static SimHash read(SketchRegion region) throws IOException {
        SimHash table = new SimHash(region, SimHashFormat.read(HeaderReader.of(region)));
        table.requireWithin("append cursor", CURSOR);
        table.requireWithin("high-water mark", HIGH_WATER);
        return table;
    }

    @Override
    protected SimHashFormat format() {
        return format;
    }

    private void requireWithin(String name, long offset) throws CorruptSketchFileException {
        long value = payload.getLongAcquire(offset);
        if (value < 0 || value > capacity) {
            throw new CorruptSketchFileException(
                    region.file().orElse(null),
                    name + " (payload byte " + offset + ") is " + value + ", expected a value in [0, " + capacity
                            + "]");
        }
    }

    private static long occupancyBytes(long capacity) {
        return Math.ceilDiv(capacity, 512) * 64;
    }

    static long payloadBytes(long capacity) {
        return CONTROL_BYTES + occupancyBytes(capacity) + Math.ceilDiv(capacity, 8) * 64;
    }

    /**
     * Returns the Hamming distance of two fingerprints: the number of bits in which they differ.
     *
     * @param a a fingerprint
     * @param b another
     * @return the distance, in [0, 64]
     */
    public static int distance(long a, long b) {
        return Long.bitCount(a ^ b);
    }

    /**
     * Returns a new, empty feature builder that hashes with this table's seed, so its fingerprints
     * compare with the ones stored here.
     *
     * @return the builder
     */
    public SimHashFeatures features() {
        return new SimHashFeatures(hashSeed());
    }

    /**
     * Stores a fingerprint in the next slot of the append cursor. Cost: a store, an atomic OR of the
     * occupancy bit and, for {@code SHARED} writers, a compare-and-set of the cursor.
     *
     * @param fingerprint the fingerprint
     * @return the slot's index
     * @throws IllegalStateException if the cursor has reached the capacity, or the table is read-only
     *     or closed
     */
    public long append(long fingerprint) {
        requireWritable();
        long index = payload.getLongAcquire(CURSOR);
        while (true) {
            if (index >= capacity) {
                throw new IllegalStateException(
                        describe() + " is full: the append cursor reached the capacity of " + capacity + " slots");
            }
            if (!sharedWriters) {
                payload.putLongRelease(CURSOR, index + 1);
                break;
            }
            if (payload.compareAndSetLong(CURSOR, index, index + 1)) {
                break;
            }
            index = payload.getLongAcquire(CURSOR);
        }
        store(index, fingerprint);
        return index;
    }

    /**
     * Stores a fingerprint in a chosen slot, replacing what it held.
     *
     * @param index the slot, in [0, capacity)
     * @param fingerprint the fingerprint
     * @throws IllegalArgumentException if the index is out of range
     * @throws IllegalStateException if the table is read-only or closed
     */
    public void put(long index, long fingerprint) {
        requireWritable();
        store(checkIndex(index), fingerprint);
    }

    private void store(long index, long fingerprint) {
        payload.putLongRelease(fingerprintsOffset + index * Long.BYTES, fingerprint);
        long word = CONTROL_BYTES + (index >>> 6) * Long.BYTES;
        long bit = 1L << index;
        if (sharedWriters) {
            payload.getAndOrLong(word, bit);
        } else {
            payload.putLongRelease(word, payload.getLong(word) | bit);
        }
        raiseHighWater(index + 1);
        countItems(1);
    }

    private void raiseHighWater(long mark) {
        long current = payload.getLongAcquire(HIGH_WATER);
        while (current < mark) {
            if (!sharedWriters) {
                payload.putLongRelease(HIGH_WATER, mark);
                return;
            }
            if (payload.compareAndSetLong(HIGH_WATER, current, mark)) {
                return;
            }
            current = payload.getLongAcquire(HIGH_WATER);
        }
    }

    /**
     * Returns the fingerprint of a slot.
     *
     * @param index the slot, in [0, capacity)
     * @return its fingerprint, or empty if nothing was stored there
     * @throws IllegalArgumentException if the index is out of range
     * @throws IllegalStateException if the table is closed
     */
    public OptionalLong get(long index) {
        checkIndex(index);
        long occupancy = payload.getLongAcquire(CONTROL_BYTES + (index >>> 6) * Long.BYTES);
        if ((occupancy & (1L << index)) == 0) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(payload.getLongAcquire(fingerprintsOffset + index * Long.BYTES));
    }

    /**
     * Finds every stored fingerprint within {@code maxDistance} bits of a query. Exact for the stored
     * fingerprints: none within the distance is missed, none beyond it returned. Cost: a scan of the
     * slots below the high-water mark with the SIMD Hamming kernel (see the class comment), whatever
     * the distance, plus the call's arrays: the matches of one chunk of {@value #CHUNK} slots, and the
     * result.
     *
     * @param query the fingerprint to compare with
     * @param maxDistance d, in [0, 64]
     * @return the indices of the matching slots, ascending
     * @throws IllegalArgumentException if d is out of range
     * @throws IllegalStateException if the table is closed
     */
    public long[] within(long query, int maxDistance) {
        if (maxDistance < 0 || maxDistance > SimHashKernels.MAX_DISTANCE) {
            throw new IllegalArgumentException(
                    "maxDistance = " + maxDistance + ", must be in [0, " + SimHashKernels.MAX_DISTANCE + "]");
        }
        long end = payload.getLongAcquire(HIGH_WATER);
        int[] matches = new int[(int) Math.min(CHUNK, end)];
        long[] occupancy = new long[CHUNK / Long.SIZE];
        long[] found = new long[16];
        int count = 0;
        for (long start = 0; start < end; start += CHUNK) {
            int slots = (int) Math.min(CHUNK, end - start);
            for (int w = 0; w < Math.ceilDiv(slots, Long.SIZE); w++) {
                occupancy[w] = payload.getLongAcquire(CONTROL_BYTES + ((start >>> 6) + w) * Long.BYTES);
            }
            int hits = SimHashKernels.within(
                    memory, fingerprintsOffset + start * Long.BYTES, slots, query, maxDistance, matches, 0);
            for (int h = 0; h < hits; h++) {
                int i = matches[h];
                if ((occupancy[i >>> 6] & (1L << i)) != 0) {
                    if (count == found.length) {
                        found = Arrays.copyOf(found, count * 2);
                    }
                    found[count++] = start + i;
                }
            }
        }
        return Arrays.copyOf(found, count);
    }

    /**
     * Returns how many slots hold a fingerprint. Cost: a popcount of the occupancy bits below the
     * high-water mark (one bit per slot).
     *
     * @return the number of filled slots, in [0, capacity]
     * @throws IllegalStateException if the table is closed
     */
    public long size() {
        long words = Math.ceilDiv(payload.getLongAcquire(HIGH_WATER), Long.SIZE);
        return BitSetKernels.popcount(memory, CONTROL_BYTES, words);
    }

    /**
     * Returns the number of slots N.
     *
     * @return N, in [1, {@value #MAX_CAPACITY}]
     */
    public long capacity() {
        return capacity;
    }

    private long checkIndex(long index) {
        if (index < 0 || index >= capacity) {
            throw new IllegalArgumentException("index = " + index + ", must be in [0, " + capacity + ")");
        }
        return index;
    }

    /** Capacity, fingerprints stored and memory. */
    @Override
    protected void putFigures(Map<String, Object> figures) {
        figures.put("capacity", capacity());
        figures.put("fingerprints", size());
        super.putFigures(figures);
    }

    @Override
    public String toString() {
        return "SimHash[" + describe() + ", capacity " + capacity + ", " + itemsAdded() + " items]";
    }

    /** Builds a SimHash table from its capacity. */
    public static final class Builder extends SketchBuilder<Builder, SimHash> {

        private long capacity;

        private Builder() {}

        /**
         * Sets the number of slots N. Required. The table takes about 8.125 N bytes.
         *
         * @param capacity N, in [1, 2^40]
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder capacity(long capacity) {
            if (capacity < 1 || capacity > MAX_CAPACITY) {
                throw new IllegalArgumentException("capacity = " + capacity + ", must be in [1, " + MAX_CAPACITY + "]");
            }
            this.capacity = capacity;
            return this;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected SimHashFormat format() {
            requireSet("capacity", capacity != 0);
            return new SimHashFormat(capacity);
        }

        @Override
        protected SimHash wrap(SketchRegion region) throws IOException {
            return read(region);
        }
    }
}
