package io.mapsketch.interop;

import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/** Generated keys for the codec tests, and the small mechanics those tests share. */
final class ForeignKeys {

    /** Fixed seed of every QuickTheories run here. */
    static final long QT_SEED = 0x666F726569676EL;

    private ForeignKeys() {}

    /**
     * Lists of up to {@code maxSize} strings of any code points, a quarter of them ending in an
     * unpaired high surrogate and a quarter starting with an unpaired low one.
     */
    static Gen<List<String>> stringLists(int maxSize) {
        Gen<String> strings = strings()
                .allPossible()
                .ofLengthBetween(0, 24)
                .zip(integers().between(0, 3), (string, shape) -> switch (shape) {
                    case 0 -> string + '\uD83D';
                    case 1 -> '\uDE00' + string;
                    default -> string;
                });
        return lists().of(strings).ofSizeBetween(0, maxSize);
    }

    /** Lists of up to {@code maxSize} longs. */
    static Gen<List<Long>> longLists(int maxSize) {
        return lists().of(longs().all()).ofSizeBetween(0, maxSize);
    }

    /** Lists of up to {@code maxSize} ints. */
    static Gen<List<Integer>> intLists(int maxSize) {
        return lists().of(integers().all()).ofSizeBetween(0, maxSize);
    }

    /** Lists of up to {@code maxSize} byte arrays of 0 to 40 bytes. */
    static Gen<List<byte[]>> byteArrayLists(int maxSize) {
        return lists().of(bytes(40)).ofSizeBetween(0, maxSize);
    }

    /** Byte arrays of 0 to {@code maxLength} bytes. */
    static Gen<byte[]> bytes(int maxLength) {
        return Generate.byteArrays(
                integers().between(0, maxLength), Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0));
    }

    /** Sets bit {@code bit & 63} of word {@code bit >>> 6}. */
    static void setBit(long[] words, long bit) {
        words[(int) (bit >>> 6)] |= 1L << bit;
    }

    /** What an origin's {@code writeTo(OutputStream)} writes. */
    static byte[] written(Writer writer) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            writer.writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** An origin's {@code writeTo}. */
    interface Writer {
        void writeTo(ByteArrayOutputStream out) throws IOException;
    }
}
