package io.mapsketch.interop;

import io.mapsketch.internal.SparkBloomIndexes;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The bytes of a Spark {@code BloomFilter} as its {@code writeTo} writes them, version 1
 * ({@code BloomFilterImpl}) or 2 ({@code BloomFilterImplV2}), every field big-endian:
 *
 * <pre>
 * offset  size    field
 * 0       4       version: 1 or 2
 * 4       4       number of hash functions, 1 or more
 * 8       4       version 2 only: the seed of the hash
 * 8 / 12  4       number of 64-bit words n, 1 or more
 * 12 / 16 8 n     the words; bit i is bit (i &amp; 63) of word (i &gt;&gt;&gt; 6)
 * </pre>
 *
 * Version 1 has no seed field and hashes with seed 0. How each version places a key's bits is in
 * {@link SparkBloomIndexes}.
 *
 * @param version 1 or 2
 * @param hashFunctions the number of probes per key, at least 1
 * @param seed the hash seed; 0 for version 1
 * @param words the bit array's words, at least one; the filter has {@code 64 * words.length()} bits
 */
record SparkBloomImage(int version, int hashFunctions, int seed, ImmutableLongArray words) {

    /** The format's name, as the command spells it. */
    public static final String FORMAT = "spark-bloom";

    private static final long FIELD = Integer.BYTES;

    /**
     * Checks the parameters.
     *
     * @throws IllegalArgumentException if {@code version} is not 1 or 2, {@code hashFunctions < 1},
     *     a version-1 image has a seed other than 0, or there are no words
     */
    public SparkBloomImage {
        if (version != 1 && version != 2) {
            throw new IllegalArgumentException("version = " + version + ", must be 1 or 2");
        }
        if (hashFunctions < 1) {
            throw new IllegalArgumentException("hashFunctions = " + hashFunctions + ", must be >= 1");
        }
        if (version == 1 && seed != 0) {
            throw new IllegalArgumentException("seed = " + seed + ", a version 1 filter hashes with seed 0");
        }
        if (Objects.requireNonNull(words, "words").length() == 0) {
            throw new IllegalArgumentException("words has length 0, must have at least 1 word");
        }
    }

    /**
     * Reads a filter's bytes: exactly the bytes {@code writeTo} writes, nothing after them.
     *
     * @param bytes the foreign bytes
     * @param source the file they came from, for messages; {@code null} for an array
     * @return the image
     * @throws ForeignSketchException if the bytes are truncated, longer than the word count says, of
     *     another version, or declare fewer than one hash function or word
     */
    public static SparkBloomImage parse(MemorySegment bytes, Path source) throws ForeignSketchException {
        ForeignBytes in = new ForeignBytes(FORMAT, bytes, source);
        int version = in.readInt(0, "the version");
        if (version != 1 && version != 2) {
            throw in.fault(0, "version " + version + ", Spark's Bloom filters are version 1 or 2");
        }
        int hashFunctions = in.readInt(FIELD, "the number of hash functions");
        if (hashFunctions < 1) {
            throw in.fault(FIELD, hashFunctions + " hash functions, must be at least 1");
        }
        int seed = version == 2 ? in.readInt(2 * FIELD, "the seed") : 0;
        long wordCountOffset = version == 2 ? 3 * FIELD : 2 * FIELD;
        int wordCount = in.readInt(wordCountOffset, "the number of words");
        if (wordCount < 1) {
            throw in.fault(wordCountOffset, "word count " + wordCount + ", must be at least 1");
        }
        long wordsOffset = wordCountOffset + FIELD;
        in.requireLength(wordsOffset + (long) wordCount * Long.BYTES, wordCount + " words");
        return new SparkBloomImage(version, hashFunctions, seed, in.readLongs(wordsOffset, wordCount));
    }

    /**
     * Reads a filter's bytes from an array.
     *
     * @param bytes exactly the bytes {@code writeTo} wrote
     * @return the image
     * @throws ForeignSketchException as {@link #parse(MemorySegment, Path)}
     */
    public static SparkBloomImage parse(byte[] bytes) throws ForeignSketchException {
        return parse(MemorySegment.ofArray(bytes), null);
    }

    /**
     * Returns the number of bits, {@code 64 * words().length()}: the modulus of the probes.
     *
     * @return the bit count
     */
    public long bitSize() {
        return (long) words.length() * Long.SIZE;
    }

    /**
     * Returns the length of the bytes {@link #writeTo} writes.
     *
     * @return {@code 12 + 8 n} for version 1, {@code 16 + 8 n} for version 2
     */
    public long byteSize() {
        return (version == 2 ? 4 : 3) * FIELD + (long) words.length() * Long.BYTES;
    }

    /**
     * Writes the bytes Spark's {@code writeTo} writes for this filter.
     *
     * @param target the segment written
     * @param offset where the first byte goes
     * @throws IndexOutOfBoundsException if {@link #byteSize()} bytes do not fit there
     * @throws IllegalArgumentException if {@code target} is read-only
     */
    public void writeTo(MemorySegment target, long offset) {
        ForeignBytesWriter out = ForeignBytesWriter.at(target, offset, byteSize())
                .putInt(version)
                .putInt(hashFunctions);
        if (version == 2) {
            out.putInt(seed);
        }
        out.putInt(words.length()).putLongs(words);
    }

    /**
     * Returns the bytes Spark's {@code writeTo} writes for this filter.
     *
     * @return a new array of {@link #byteSize()} bytes
     * @throws IllegalStateException if that is more than a byte array holds
     */
    public byte[] toBytes() {
        byte[] bytes = ForeignBytesWriter.newArray(byteSize(), FORMAT);
        writeTo(MemorySegment.ofArray(bytes), 0);
        return bytes;
    }
}
