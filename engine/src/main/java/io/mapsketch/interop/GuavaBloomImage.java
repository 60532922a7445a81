package io.mapsketch.interop;

import io.mapsketch.internal.GuavaBloomIndexes;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The bytes of a Guava {@code BloomFilter} as its {@code writeTo} writes them, for the strategy
 * {@code MURMUR128_MITZ_64} (Guava's default):
 *
 * <pre>
 * offset  size    field
 * 0       1       strategy ordinal, signed byte: 1 = MURMUR128_MITZ_64
 * 1       1       number of hash functions, unsigned byte, 1 to 255
 * 2       4       number of 64-bit words n, big-endian int, 1 or more
 * 6       8 n     the words, each a big-endian long; bit i is bit (i &amp; 63) of word (i &gt;&gt;&gt; 6)
 * </pre>
 *
 * The funnel (how a key became bytes) is not in the bytes; {@link GuavaBloomIndexes} hashes the
 * bytes of a key as the UTF-8, long and byte-array funnels feed them.
 *
 * @param hashFunctions the number of probes per key, 1 to {@value #MAX_HASH_FUNCTIONS}
 * @param words the bit array's words, at least one; the filter has {@code 64 * words.length()} bits
 */
record GuavaBloomImage(int hashFunctions, ImmutableLongArray words) {

    /** The format's name, as the command spells it. */
    public static final String FORMAT = "guava-bloom";
    /** The ordinal of {@code BloomFilterStrategies.MURMUR128_MITZ_64}, the one strategy read. */
    public static final int MURMUR128_MITZ_64 = 1;
    /** The most hash functions Guava writes: the count is one unsigned byte. */
    public static final int MAX_HASH_FUNCTIONS = 255;

    private static final long WORDS_OFFSET = 6;

    /**
     * Checks the parameters.
     *
     * @throws IllegalArgumentException if {@code hashFunctions} is outside 1 to 255 or there are no
     *     words
     */
    public GuavaBloomImage {
        if (hashFunctions < 1 || hashFunctions > MAX_HASH_FUNCTIONS) {
            throw new IllegalArgumentException(
                    "hashFunctions = " + hashFunctions + ", must be in [1, " + MAX_HASH_FUNCTIONS + "]");
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
     * @throws ForeignSketchException if the bytes are truncated, longer than the word count says,
     *     of another strategy, or declare no hash function or no word
     */
    public static GuavaBloomImage parse(MemorySegment bytes, Path source) throws ForeignSketchException {
        ForeignBytes in = new ForeignBytes(FORMAT, bytes, source);
        int strategy = in.readByte(0, "the strategy ordinal");
        if (strategy != MURMUR128_MITZ_64) {
            throw in.fault(
                    0,
                    "strategy ordinal " + strategy
                            + (strategy == 0 ? " (MURMUR128_MITZ_32)" : "")
                            + ", only " + MURMUR128_MITZ_64 + " (MURMUR128_MITZ_64) is read");
        }
        int hashFunctions = Byte.toUnsignedInt(in.readByte(1, "the number of hash functions"));
        if (hashFunctions == 0) {
            throw in.fault(1, "0 hash functions, Guava's filters have 1 to " + MAX_HASH_FUNCTIONS);
        }
        int wordCount = in.readInt(2, "the number of words");
        if (wordCount < 1) {
            throw in.fault(2, "word count " + wordCount + ", must be at least 1");
        }
        in.requireLength(WORDS_OFFSET + (long) wordCount * Long.BYTES, wordCount + " words");
        return new GuavaBloomImage(hashFunctions, in.readLongs(WORDS_OFFSET, wordCount));
    }

    /**
     * Reads a filter's bytes from an array.
     *
     * @param bytes exactly the bytes {@code writeTo} wrote
     * @return the image
     * @throws ForeignSketchException as {@link #parse(MemorySegment, Path)}
     */
    public static GuavaBloomImage parse(byte[] bytes) throws ForeignSketchException {
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
     * @return {@code 6 + 8 * words().length()}
     */
    public long byteSize() {
        return WORDS_OFFSET + (long) words.length() * Long.BYTES;
    }

    /**
     * Writes the bytes Guava's {@code writeTo} writes for this filter.
     *
     * @param target the segment written
     * @param offset where the first byte goes
     * @throws IndexOutOfBoundsException if {@link #byteSize()} bytes do not fit there
     * @throws IllegalArgumentException if {@code target} is read-only
     */
    public void writeTo(MemorySegment target, long offset) {
        ForeignBytesWriter.at(target, offset, byteSize())
                .putByte(MURMUR128_MITZ_64)
                .putByte(hashFunctions)
                .putInt(words.length())
                .putLongs(words);
    }

    /**
     * Returns the bytes Guava's {@code writeTo} writes for this filter.
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
