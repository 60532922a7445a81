package io.mapsketch.cardinality;

import io.mapsketch.CorruptSketchFileException;
import io.mapsketch.kernels.RegisterKernels;
import io.mapsketch.memory.HashScheme;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

/**
 * The HyperLogLog register layout drawn in {@code docs/file-format.md}: which register a hash
 * raises, to what rank, how large the payload is, and how registers of a higher precision fold
 * down. {@code HyperLogLogTest.registerAndRankMatchTheDocumentedWorkedExamples} checks the
 * document's examples.
 */
final class HyperLogLogLayout {

    private static final int LINE = 64;

    private HyperLogLogLayout() {}

    /** Payload bytes of precision p: the 2^p registers, rounded up to a whole 64-byte line. */
    static long payloadBytes(int precision) {
        return Math.ceilDiv(1L << precision, LINE) * LINE;
    }

    /** The register a hash goes to: its first p bits. */
    static long registerIndex(long hash, int precision) {
        return hash >>> (Long.SIZE - precision);
    }

    /** The rank of a hash: leading zeros of its last 64 - p bits plus one, in [1, 65 - p]. */
    static int rank(long hash, int precision) {
        return Long.numberOfLeadingZeros((hash << precision) | (1L << (precision - 1))) + 1;
    }

    /**
     * A hash that raises register {@code register} to {@code value} at precision p: the register's bits,
     * then {@code value - 1} zeros and a one (none for the largest rank, 65 - p).
     */
    static long hashOf(long register, int value, int precision) {
        long index = register << (Long.SIZE - precision);
        return value > Long.SIZE - precision ? index : index | 1L << (Long.SIZE - precision - value);
    }

    /** The largest rank, and so the largest register value, at precision p: 65 - p. */
    static int maxRank(int precision) {
        return Long.SIZE - precision + 1;
    }

    /** The largest register value of a scheme at precision p: 63 for DataSketches' scheme, else 65 - p. */
    static int maxRank(HashScheme scheme, int precision) {
        return scheme == HashScheme.DATASKETCHES_MURMUR3_128 ? DATASKETCHES_MAX_VALUE : maxRank(precision);
    }

    /** The largest value of DataSketches' scheme: 62 leading zeros and more give 63. */
    static final int DATASKETCHES_MAX_VALUE = 63;

    /**
     * Refuses register values handed to a builder that are not {@code 2^p} ranks in [0, 65 - p].
     *
     * @throws IllegalArgumentException naming the length or the first register out of range
     */
    static void requireRegisters(byte[] registers, int precision, int top) {
        if (registers.length != 1 << precision) {
            throw new IllegalArgumentException(
                    "registers.length = " + registers.length + ", must be 2^precision = " + (1 << precision));
        }
        for (int i = 0; i < registers.length; i++) {
            if (registers[i] < 0 || registers[i] > top) {
                throw new IllegalArgumentException("registers[" + i + "] = " + registers[i] + ", must be in [0, " + top
                        + "], the largest rank at precision " + precision + " of the sketch's hash scheme");
            }
        }
    }

    /**
     * Refuses a file whose register summary ({@link RegisterKernels#summary} with {@code top = 65 - p})
     * counts registers above the largest rank.
     */
    static void requireValidRanks(long[] summary, int top, Path file) throws CorruptSketchFileException {
        long invalid = summary[RegisterKernels.ABOVE_TOP];
        if (invalid != 0) {
            throw new CorruptSketchFileException(file, invalid + " registers hold more than the largest rank " + top);
        }
    }

    /**
     * The value that the {@code 2^d} registers of precision {@code p + d} starting at {@code first}
     * fold to at precision p. Register {@code first + i} holds the ranks of hashes whose bits after
     * the first p are {@code i} (d bits) followed by the rest: for {@code i > 0} the folded rank is
     * the leading zeros of i within d bits plus one, whatever the register holds; for {@code i = 0}
     * it is {@code d} plus the register. Empty registers fold to nothing (0). Registers must be
     * valid ranks.
     */
    static int foldedValue(MemorySegment source, long first, int d) {
        int head = source.get(ValueLayout.JAVA_BYTE, first);
        if (head != 0) {
            return d + head;
        }
        int best = 0;
        for (int i = 1; i < 1 << d; i++) {
            if (source.get(ValueLayout.JAVA_BYTE, first + i) != 0) {
                best = Math.max(best, d - (Integer.SIZE - Integer.numberOfLeadingZeros(i)) + 1);
            }
        }
        return best;
    }

    /**
     * The value that the registers of precision {@code p + d} fold to at register {@code slot} of precision
     * p under DataSketches' scheme, where the slot is the low bits of the hash: the largest of the
     * {@code 2^d} registers {@code slot + j 2^p}, as DataSketches' union folds a larger sketch.
     */
    static int foldedSlotValue(MemorySegment source, long slot, int precision, int d) {
        int best = 0;
        for (long j = 0; j < 1L << d; j++) {
            best = Math.max(best, source.get(ValueLayout.JAVA_BYTE, slot + (j << precision)));
        }
        return best;
    }
}
