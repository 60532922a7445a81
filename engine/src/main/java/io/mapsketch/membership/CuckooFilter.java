package io.mapsketch.membership;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * A cuckoo filter: a membership filter that supports removal by storing a short fingerprint of each
 * key in one of two buckets of four slots (partial-key cuckoo hashing: the second bucket is the first
 * XOR a hash of the fingerprint, so a fingerprint can move between its buckets without its key). The
 * fingerprint width f is 8, 12 or 16 bits, the narrowest whose rate bound {@code 2b / (2^f - 1)} meets
 * the rate asked for; the number of buckets is the power of two that holds the expected items in at
 * most 90% of the slots ({@link CuckooSizing#buckets}).
 *
 * <p>Error direction: false positives only, at rate {@code 1 - (1 - 1/(2^f - 1))^(8 load)}
 * ({@link #expectedFalsePositiveRate()}; 0.185% with 12-bit fingerprints at 95% load), as long as
 * callers only remove what they added. A remove of a key whose fingerprint is in neither of its buckets
 * is refused with {@link KeyNotPresentException}; a remove of a key never added whose fingerprint is
 * there (a false positive) cannot be told from a real one and takes away another key's copy, which
 * may then be missed. One key may be added up to 8 times (2b copies, one per slot of its two buckets);
 * each add stores a copy and each remove takes one away. {@code add} returns {@code true} when the
 * key's fingerprint was in neither of its buckets (the key was certainly new), {@code false} when it
 * stored a further copy.
 *
 * <p>Capacity: an add that finds both buckets full moves fingerprints to their other buckets along the
 * shortest path to a free slot, searched over at most {@value CuckooTable#MAX_KICKS} buckets. Inserts
 * begin to fail at about 96% of the slots occupied ({@code docs/accuracy.md}); a failed add throws
 * {@link FilterFullException} and changes nothing, because the path is searched before anything is
 * moved. Keys added earlier all stay present.
 *
 * <p>Space: f bits per slot, packed densely, so 12.6 bits per key at 95% load with 12-bit fingerprints
 * (12 / 0.95), the literature's figure. A file whose header names the word-aligned layout (12-bit
 * fingerprints five to a word, 12.8 bits per slot) is read and written in that layout.
 *
 * <p>Concurrency: writers change the table one at a time: {@code SHARED} writers, in any thread of any
 * process, through a lock word in the payload, which a writer takes over from a process that died
 * ({@link #lockRecoveries()} counts this); the {@code EXCLUSIVE} writer without the lock, freeing a lock
 * word left by a dead writer when it opens the file. A writer killed during an add loses only the key it
 * was adding, whose add never returned; at most one fingerprint is then stored twice (a slot wasted, and
 * that key needs one more remove to disappear). Lookups take no lock in any mode, never answer from a
 * fingerprint read while it was being written, and never miss a key whose add returned. Why:
 * {@code docs/design/membership.md}, "Cuckoo filter: lock-free lookups over one writer at a time".
 *
 * <p>Cost: a lookup reads two buckets (one word each, two for half of the 12-bit buckets) and the control
 * line (the move counter, and the write sequence with 12-bit fingerprints);
 * an add or remove takes the lock (in {@code SHARED} mode) and reads two buckets; an add into full
 * buckets also searches and carries out a path, longer as the load nears 96%. Cuckoo filters are not
 * merged.
 */
// Its header format description is package-private; the protected members that return it are not API.
@SuppressWarnings("exports")
public final class CuckooFilter extends RemovableFilter {

    private final CuckooFormat format;
    private final long buckets;
    private final int fingerprintBits;
    private final CuckooTable table;

    private CuckooFilter(SketchRegion region, CuckooFormat format) {
        super(region, format.expectedItems(), format.falsePositiveRate());
        this.format = format;
        this.buckets = format.buckets();
        this.fingerprintBits = format.fingerprintBits();
        this.table = new CuckooTable(payload, buckets, fingerprintBits, format.slotLayout());
        if (mode() == OpenMode.EXCLUSIVE) {
            table.clearStaleLock();
        }
    }

    /**
     * Starts a builder; {@code expectedItems} and {@code falsePositiveRate} are required.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Opens a cuckoo filter file; every parameter comes from its header.
     *
     * @param file the filter file
     * @param mode read-only, shared writer or exclusive writer
     * @return the open filter
     * @throws CorruptSketchFileException if a parameter is out of range (buckets not a power of two in
     *     [2, 2^32], a fingerprint width other than 8, 12 or 16, a slot layout other than 0, word-aligned,
     *     or 1, dense) or the payload is not the size they imply
     * @throws io.mapsketch.SketchFileException if the file is not a valid cuckoo filter, or is
     *     locked against this mode
     * @throws IOException if the file cannot be read
     */
    public static CuckooFilter open(Path file, OpenMode mode) throws IOException {
        return open(file, mode, SketchKind.CUCKOO, CuckooFilter::read);
    }

    private static CuckooFilter read(SketchRegion region) throws IOException {
        return new CuckooFilter(region, CuckooFormat.read(HeaderReader.of(region)));
    }

    @Override
    protected CuckooFormat format() {
        return format;
    }

    /** The bucket table, for tests that inspect slots or act as a writer that dies. */
    CuckooTable table() {
        return table;
    }

    @Override
    protected boolean addHash(long hash) {
        int fingerprint = table.fingerprint(hash);
        long first = table.bucket(hash);
        long second = table.alternate(first, fingerprint);
        table.beginWrite(sharedWriters);
        try {
            CuckooTable.Stored stored = table.add(first, second, fingerprint);
            if (stored == CuckooTable.Stored.REFUSED) {
                throw table.refusal(describe(), first, second, fingerprint);
            }
            return stored == CuckooTable.Stored.NEW_KEY;
        } finally {
            table.endWrite(sharedWriters);
        }
    }

    /**
     * Adds a key, as its {@linkplain io.mapsketch##keys bytes} {@code key[offset, offset + length)}, only
     * if the filter does not already report it present: the check and the add are one step under the
     * filter's lock, so of several writers adding one new key at once exactly one adds it (RedisBloom's
     * CF.ADDNX). A false positive leaves the key out.
     *
     * @param key the array
     * @param offset first byte
     * @param length number of bytes
     * @return {@code true} if the key was added, {@code false} if it was reported present already
     * @throws IndexOutOfBoundsException if the range is outside the array
     * @throws FilterFullException if the key is absent and there is no room for it (nothing changes)
     * @throws IllegalStateException if the filter is read-only or closed
     */
    public boolean addIfAbsent(byte[] key, int offset, int length) {
        requireWritable();
        long hash = hasher.hash(key, offset, length);
        int fingerprint = table.fingerprint(hash);
        long first = table.bucket(hash);
        long second = table.alternate(first, fingerprint);
        table.beginWrite(sharedWriters);
        try {
            if (table.contains(first, second, fingerprint)) {
                return false;
            }
            if (!table.insert(first, second, fingerprint)) {
                throw table.refusal(describe(), first, second, fingerprint);
            }
        } finally {
            table.endWrite(sharedWriters);
        }
        countItems(1);
        return true;
    }

    /**
     * Returns how many copies of a key's fingerprint its two buckets hold: the times it was added and not
     * removed, or more if other keys share its fingerprint and buckets (RedisBloom's CF.COUNT). Never below
     * the truth for keys that were only added and removed as added. Reads without the lock.
     *
     * @param key the array
     * @param offset first byte
     * @param length number of bytes
     * @return copies, in [0, 8]
     * @throws IndexOutOfBoundsException if the range is outside the array
     * @throws IllegalStateException if the filter is closed
     */
    public int count(byte[] key, int offset, int length) {
        long hash = hasher.hash(key, offset, length);
        int fingerprint = table.fingerprint(hash);
        long first = table.bucket(hash);
        long second = table.alternate(first, fingerprint);
        return table.count(first, fingerprint) + (second == first ? 0 : table.count(second, fingerprint));
    }

    @Override
    protected void addHashes(long[] hashes, int from, int count) {
        for (int i = from; i < from + count; i++) {
            try {
                addHash(hashes[i]);
            } catch (FilterFullException e) {
                countItems(i - from);
                throw e;
            }
        }
    }

    @Override
    boolean containsHash(long hash) {
        int fingerprint = table.fingerprint(hash);
        long first = table.bucket(hash);
        return table.contains(first, table.alternate(first, fingerprint), fingerprint);
    }

    @Override
    void containsHashes(long[] hashes, int count, boolean[] results, int resultsFrom) {
        for (int i = 0; i < count; i++) {
            results[resultsFrom + i] = containsHash(hashes[i]);
        }
    }

    @Override
    void removeHash(long hash) {
        int fingerprint = table.fingerprint(hash);
        long first = table.bucket(hash);
        table.beginWrite(sharedWriters);
        try {
            if (!table.remove(first, table.alternate(first, fingerprint), fingerprint)) {
                throw new KeyNotPresentException(describe() + ": cannot remove a key that is not in the filter"
                        + " (its fingerprint is in neither of its buckets); nothing was changed");
            }
        } finally {
            table.endWrite(sharedWriters);
        }
    }

    /**
     * Returns the number of buckets, a power of two.
     *
     * @return buckets, in [2, 2^32]
     */
    public long bucketCount() {
        return buckets;
    }

    /**
     * Returns the number of slots: four per bucket.
     *
     * @return slots, the most fingerprints the filter can hold
     */
    public long slotCount() {
        return table.slotCount();
    }

    /**
     * Returns the fingerprint width.
     *
     * @return f: 8, 12 or 16 bits
     */
    public int fingerprintBits() {
        return fingerprintBits;
    }

    /**
     * Returns the table's bits per slot, which with {@link #slotCount()} gives its size: f, except 12.8
     * for 12-bit fingerprints in the word-aligned layout (five to a 64-bit word).
     *
     * @return bits per slot, at least {@link #fingerprintBits()}
     */
    public double bitsPerSlot() {
        return table.bitsPerSlot();
    }

    /**
     * Tells how many times a writer found the lock held by a process that had died (or an
     * {@code EXCLUSIVE} opener found a lock word left behind) and took it over. Stored in the file.
     *
     * @return the count since the file was created
     * @throws IllegalStateException if the filter is closed
     */
    public long lockRecoveries() {
        return table.recoveries();
    }

    /**
     * Returns the load: the fraction of slots that hold a fingerprint. Inserts begin to fail near 0.96.
     * Cost: one pass over the slots.
     *
     * @return occupied slots / {@link #slotCount()}
     * @throws IllegalStateException if the filter is closed
     */
    @Override
    public double fillRatio() {
        return (double) table.occupied() / slotCount();
    }

    /**
     * Returns the probability that a key never added is reported present, at the current load:
     * {@code 1 - (1 - 1/(2^f - 1))^(8 load)} ({@link CuckooSizing#falsePositiveRate}). Cost: as
     * {@link #fillRatio()}.
     *
     * @return the current false-positive rate
     * @throws IllegalStateException if the filter is closed
     */
    @Override
    public double expectedFalsePositiveRate() {
        return CuckooSizing.falsePositiveRate(fingerprintBits, fillRatio());
    }

    /**
     * Returns the occupied slots: the keys stored, a key added twice counting twice (each copy takes a
     * slot of the capacity).
     *
     * @return occupied slots
     */
    @Override
    public long estimatedItems() {
        return table.occupied();
    }

    @Override
    void putShape(Map<String, Object> figures) {
        figures.put("buckets", buckets);
        figures.put("fingerprint bits", fingerprintBits);
        figures.put("bits per slot", bitsPerSlot());
        figures.put("lock recoveries", lockRecoveries());
    }

    @Override
    public String toString() {
        return "CuckooFilter[" + describe() + ", " + buckets + " buckets of 4, " + fingerprintBits
                + "-bit fingerprints, " + itemsAdded() + " items]";
    }

    /** Builds a cuckoo filter from the expected items and the false-positive rate. */
    @SuppressWarnings("exports")
    public static final class Builder extends FilterBuilder<Builder, CuckooFilter> {

        private Builder() {}

        /**
         * Sets the false-positive rate p wanted at capacity. Required. The fingerprint width is the
         * narrowest of 8, 12 and 16 bits that reaches it, so the measured rate is at most p.
         *
         * @param falsePositiveRate p, in [{@link CuckooSizing#LOWEST_RATE}, 1)
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        @Override
        public Builder falsePositiveRate(double falsePositiveRate) {
            CuckooSizing.fingerprintBits(falsePositiveRate);
            return super.falsePositiveRate(falsePositiveRate);
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected CuckooFormat format() {
            return CuckooFormat.sized(expectedItems(), falsePositiveRate());
        }

        @Override
        protected CuckooFilter wrap(SketchRegion region) throws IOException {
            return read(region);
        }
    }
}
