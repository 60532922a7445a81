package io.mapsketch.frequency;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.IncompatibleSketchException;
import io.mapsketch.Mergeable;
import io.mapsketch.OpenMode;
import io.mapsketch.SketchKind;
import io.mapsketch.internal.HeaderReader;
import io.mapsketch.memory.SketchRegion;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Heavy hitters: a Count-Min sketch that also keeps the k keys with the largest estimates seen so
 * far, with their bytes, in the same file, so that a process that opens it later can list them.
 * Every add, estimate and the error bound are the Count-Min sketch's ({@link FrequencySketch}).
 *
 * <p>After each add the key's estimate is compared with the smallest candidate's: when it is larger
 * and the key is not a candidate yet, the key replaces that candidate. Candidates' estimates are
 * cached and refreshed lazily (when one becomes the smallest, and before it is evicted), so the
 * admission test is one load on the common path. {@link #top(int)} re-reads every candidate's
 * estimate from the sketch and ranks them, largest first, equal estimates by key bytes.
 *
 * <p>Error direction: a key listed is a real key, with an estimate never below its count (unless
 * saturated). A key may be missing from the list when its estimate never beat the smallest
 * candidate's at the time of one of its adds: every key whose true count exceeds N / k plus the
 * error bound is listed, but among keys whose estimates are close, the order of the stream decides
 * which of them stay.
 *
 * <p>Concurrency: the counters are updated lock-free exactly as a Count-Min sketch's. The candidate
 * table is changed under a lock that lives in the mapped region and excludes threads and processes;
 * a holder killed while holding it is detected by the next writer, which rebuilds the table from its
 * intact slots. Reading the candidates takes no lock. An
 * add racing with another add of the same key may skip the candidate check it would have done; the
 * key's next add does it. An add that finds the lock held by a live process for longer than
 * 10 seconds throws
 * {@link io.mapsketch.RegionLockTimeoutException} after its count has been added: the
 * estimates stay exact, only that add's candidate check did not happen.
 *
 * <p>Cost: an add is a Count-Min add plus, on the common path, a load of the threshold and a probe
 * of the candidate index (one or two cache lines); a key that gets in takes the lock and costs
 * {@code O(log k)} more. {@link #top(int)} is {@code O(k log k)} and hashes each candidate's key.
 * The file holds the counters, then {@code k} candidate slots of {@code 24 + maxKeyBytes} bytes
 * and an index and a heap of about {@code 12 k} bytes.
 */
// Its header format description is package-private; the protected members that return it are not API.
@SuppressWarnings("exports")
public final class TopK extends FrequencySketch implements Mergeable<TopK> {

    /** The most candidates a sketch keeps. */
    public static final int MAX_K = 1 << 20;
    /** The longest key a sketch can be built to store. */
    public static final int MAX_KEY_BYTES = 1 << 16;
    /** The longest key stored when the builder is not told otherwise. */
    public static final int DEFAULT_MAX_KEY_BYTES = 64;

    private final TopKFormat format;
    private final int k;
    private final int maxKeyBytes;
    private final long tableBase;
    private final CandidateTable candidates;

    private TopK(SketchRegion region, TopKFormat format) {
        super(region, format.counters());
        this.format = format;
        this.k = format.k();
        this.maxKeyBytes = format.maxKeyBytes();
        this.tableBase = counterMemoryBytes();
        this.candidates = new CandidateTable(payload, tableBase, k, maxKeyBytes, hasher, this::estimateHash);
    }

    /**
     * Starts a builder; {@code k}, {@code epsilon} and {@code delta} are required.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Opens a Top-K file; every parameter comes from its header. Cost: header checks and one pass
     * over the candidate heap and index to check that their entries are in range.
     *
     * @param file the sketch file
     * @param mode read-only, shared writer or exclusive writer
     * @return the open sketch
     * @throws CorruptSketchFileException if a parameter is out of range, the payload is not the size
     *     they imply, or the candidate table's size, heap or index holds an entry outside its range
     * @throws io.mapsketch.SketchFileException if the file is not a valid Top-K file or is
     *     locked against this mode
     * @throws IOException if the file cannot be read
     */
    public static TopK open(Path file, OpenMode mode) throws IOException {
        return open(file, mode, SketchKind.TOP_K, TopK::read);
    }

    private static TopK read(SketchRegion region) throws IOException {
        HeaderReader header = HeaderReader.of(region);
        TopK sketch = new TopK(region, TopKFormat.read(header));
        String fault = sketch.candidates.structuralFault();
        if (fault != null) {
            throw header.corrupt(fault);
        }
        return sketch;
    }

    @Override
    protected TopKFormat format() {
        return format;
    }

    /** The candidate table, for tests that check its layout and recovery. */
    CandidateTable candidates() {
        return candidates;
    }

    /** Byte offset of the candidate lock word in the payload (the table's first word). */
    long candidateLockOffset() {
        return tableBase;
    }

    @Override
    void checkKeyLength(long length) {
        if (length > maxKeyBytes) {
            throw new IllegalArgumentException("key length = " + length + " bytes, must be in [0, " + maxKeyBytes
                    + "] (this Top-K sketch's max key bytes); nothing was added");
        }
    }

    @Override
    void offer(long hash, long estimate, long key) {
        candidates.consider(hash, estimate, key);
    }

    @Override
    void offer(long hash, long estimate, MemorySegment key, long offset, long length) {
        candidates.consider(hash, estimate, key, offset, length);
    }

    /**
     * Adds {@code count} occurrences of the key of the bytes {@code key[offset, offset + length)}, as
     * {@link #add(byte[], int, int, long)}, and returns the candidate it expelled: the key that held the
     * smallest estimate of a full candidate table, with that estimate, when this key took its place
     * (RedisBloom's TOPK.ADD reply). The same cost as the add; the expelled key is read under the
     * candidate lock, which an add that changes the candidates takes anyway.
     *
     * @param key the array
     * @param offset first byte
     * @param length number of bytes
     * @param count occurrences, in [1, 2^63 - 1]
     * @return the expelled candidate, or empty if the key did not get in, was a candidate already, or
     *     took a free place
     * @throws IllegalArgumentException if {@code count} is out of range, the key is longer than
     *     {@link #maxKeyBytes()}, or N would pass 2^63 - 2^55 - 1; nothing was added
     * @throws IndexOutOfBoundsException if the range is outside the array
     * @throws IllegalStateException if the sketch is read-only or closed
     */
    public Optional<HeavyHitter> addExpelling(byte[] key, int offset, int length, long count) {
        Objects.checkFromIndexSize(offset, length, key.length);
        checkKeyLength(length);
        MemorySegment bytes = MemorySegment.ofArray(key);
        long hash = hasher.hash(bytes, offset, length);
        long estimate = addCounted(hash, count);
        return Optional.ofNullable(candidates.considerExpelling(hash, estimate, bytes, offset, length));
    }

    /**
     * Lists the heaviest keys: at most {@code n} candidates with their current estimates, largest
     * first, equal estimates ordered by key bytes (unsigned lexicographic). Works in every mode,
     * without a lock.
     *
     * @param n how many to list, at least 0; more than {@link #k()} lists all candidates
     * @return the keys and estimates, an immutable list
     * @throws IllegalArgumentException if {@code n} is negative
     * @throws IllegalStateException if the sketch is closed
     */
    public List<HeavyHitter> top(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("n = " + n + ", must be in [0, " + Integer.MAX_VALUE + "]");
        }
        return candidates.top(n);
    }

    /**
     * Lists every candidate, as {@link #top(int)} with {@code n = k}.
     *
     * @return the keys and estimates, largest first
     * @throws IllegalStateException if the sketch is closed
     */
    public List<HeavyHitter> top() {
        return top(k);
    }

    /**
     * Returns k, the number of candidates kept.
     *
     * @return k, in [1, {@link #MAX_K}]
     */
    public int k() {
        return k;
    }

    /**
     * Returns the longest key this sketch stores; adding a longer key is refused.
     *
     * @return the limit in bytes, in [8, {@link #MAX_KEY_BYTES}]
     */
    public int maxKeyBytes() {
        return maxKeyBytes;
    }

    /**
     * Tells how many times a writer found the candidate lock held by a process that had died and
     * rebuilt the table. Diagnostic; stored in the file.
     *
     * @return the count since the file was created
     */
    public long candidateRecoveries() {
        return candidates.recoveries();
    }

    /**
     * Merges another Top-K sketch into this one: the counters add up as in
     * {@link CountMinSketch#merge(CountMinSketch)}, then this sketch's candidates and the other's are
     * re-ranked by their estimates in the merged sketch and the k largest kept. The other sketch may
     * keep a different number of candidates; its keys must fit this sketch's max key bytes.
     *
     * <p>Cost: the counter merge, plus one estimate per candidate of both sketches under the lock.
     *
     * @param other a sketch with the same width, depth, counter width, hash scheme, seed and row scheme
     *     (files of format version 4 and later, or earlier); not modified
     * @throws IncompatibleSketchException naming the parameter that differs, or if the other stores
     *     longer keys than this one can
     * @throws IllegalArgumentException if the merged N would pass 2^63 - 1
     * @throws IllegalStateException if this sketch is read-only or either is closed
     */
    @Override
    public void merge(TopK other) {
        requireMergeable(other);
        List<HeavyHitter> theirs = other.top();
        mergeCounters(other);
        candidates.rerank(theirs);
    }

    /** The counters as {@link CountMinSketch#requireMergeable} takes them, and keys no longer than this one's. */
    @Override
    public void requireMergeable(TopK other) {
        Objects.requireNonNull(other, "other");
        if (other.maxKeyBytes > maxKeyBytes) {
            throw new IncompatibleSketchException(
                    "max key bytes (the other's must not exceed this one's)", maxKeyBytes, other.maxKeyBytes);
        }
        requireSameCounters(other);
    }

    /** k, the longest item, the candidates now, lock recoveries, then the Count-Min figures. */
    @Override
    protected void putFigures(Map<String, Object> figures) {
        figures.put("k", k);
        figures.put("max item bytes", maxKeyBytes);
        figures.put("candidates", top().size());
        figures.put("candidate lock recoveries", candidateRecoveries());
        super.putFigures(figures);
    }

    @Override
    public String toString() {
        return "TopK[" + describe() + ", k " + k + ", " + shapeText() + "]";
    }

    /** Builds a Top-K sketch from k, epsilon and delta. */
    @SuppressWarnings("exports")
    public static final class Builder extends CountMinBuilder<Builder, TopK> {

        private int k;
        private int maxKeyBytes = DEFAULT_MAX_KEY_BYTES;

        private Builder() {}

        /**
         * Sets k, the number of heaviest keys kept. Required.
         *
         * @param k in [1, {@link #MAX_K}]
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder k(int k) {
            if (k < 1 || k > MAX_K) {
                throw new IllegalArgumentException("k = " + k + ", must be in [1, " + MAX_K + "]");
            }
            this.k = k;
            return this;
        }

        /**
         * Sets the longest key stored, in bytes; adds of longer keys are refused. Default
         * {@value TopK#DEFAULT_MAX_KEY_BYTES}. Each candidate slot takes {@code 24 + maxKeyBytes}
         * bytes (rounded up to 8).
         *
         * @param maxKeyBytes in [8, {@link #MAX_KEY_BYTES}]: a {@code long} key always fits
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder maxKeyBytes(int maxKeyBytes) {
            if (maxKeyBytes < Long.BYTES || maxKeyBytes > MAX_KEY_BYTES) {
                throw new IllegalArgumentException(
                        "maxKeyBytes = " + maxKeyBytes + ", must be in [" + Long.BYTES + ", " + MAX_KEY_BYTES + "]");
            }
            this.maxKeyBytes = maxKeyBytes;
            return this;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected TopKFormat format() {
            CountMinFormat counters = countMinFormat();
            requireSet("k", k != 0);
            return new TopKFormat(counters, k, maxKeyBytes);
        }

        @Override
        protected TopK wrap(SketchRegion region) throws IOException {
            return read(region);
        }
    }
}
