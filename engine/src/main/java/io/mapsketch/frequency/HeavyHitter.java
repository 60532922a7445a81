package io.mapsketch.frequency;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One answer of {@link TopK#top(int)}: a key, as the bytes it was added with, and its Count-Min
 * estimate at the time of the call. A {@code long} key is its eight little-endian bytes and a
 * {@code CharSequence} its UTF-8 bytes, as everywhere in mapsketch. Immutable.
 *
 * <p>Error direction: the estimate is never below the key's true count (unless saturated) and
 * above it by at most the sketch's error bound with probability {@code 1 - delta}.
 */
public final class HeavyHitter {

    private final byte[] key;
    private final long estimate;

    HeavyHitter(byte[] key, long estimate) {
        this.key = key;
        this.estimate = estimate;
    }

    /**
     * Returns a copy of the key's bytes.
     *
     * @return the key
     */
    public byte[] key() {
        return key.clone();
    }

    /**
     * Decodes the key as UTF-8 (for keys added as strings).
     *
     * @return the key as a string; malformed bytes become U+FFFD
     */
    public String keyAsString() {
        return new String(key, StandardCharsets.UTF_8);
    }

    /**
     * Decodes the key as a {@code long} (for keys added as {@code long}s).
     *
     * @return the key's eight little-endian bytes as a long
     * @throws IllegalStateException if the key is not eight bytes long
     */
    public long keyAsLong() {
        if (key.length != Long.BYTES) {
            throw new IllegalStateException("key is " + key.length + " bytes long, a long key is 8");
        }
        return ByteBuffer.wrap(key).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    /**
     * Returns the key's Count-Min estimate when {@link TopK#top(int)} was called. An estimate equal to
     * the sketch's {@link FrequencySketch#maxEstimate()} is saturated: the true count may be larger.
     *
     * @return the estimate
     */
    public long estimate() {
        return estimate;
    }

    /** Largest estimate first; equal estimates by key bytes, unsigned lexicographic. */
    static int byRank(HeavyHitter a, HeavyHitter b) {
        int byEstimate = Long.compare(b.estimate, a.estimate);
        return byEstimate != 0 ? byEstimate : Arrays.compareUnsigned(a.key, b.key);
    }

    byte[] keyBytes() {
        return key;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof HeavyHitter that && estimate == that.estimate && Arrays.equals(key, that.key);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(key) + Long.hashCode(estimate);
    }

    @Override
    public String toString() {
        return "HeavyHitter[" + keyAsString() + " (" + key.length + " bytes), " + estimate + "]";
    }
}
